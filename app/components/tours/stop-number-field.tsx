import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { callApi } from "~/utils/api-client";
import { parseStopNumber } from "./tour-helpers";

interface Props {
  articleId: number;
  /** The number it has now; undefined = read it from the API first (the article editor). */
  initial?: number | null;
  /** Says which article, for the label in a list of stops. */
  articleName?: string;
  compact?: boolean;
  onSaved?: (value: number | null) => void;
}

type Message = { kind: "saved" | "error"; text: string } | null;

/**
 * An article's stop number (issue 21, decision 083), saved on its own through update_stop_number: a taken
 * number is said beside the field with the article that has it. Used by the tour page and, as one line, by
 * the article editor (it never touches the editor's own save).
 */
export function StopNumberField({ articleId, initial, articleName, compact = false, onSaved }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(initial === undefined || initial === null ? "" : String(initial));
  const [saved, setSaved] = useState<number | null | undefined>(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);

  useEffect(() => {
    if (initial !== undefined) return;
    let live = true;
    void callApi<{ stop_number?: number | null }>(`/api/read/article?articleId=${articleId}`).then((result) => {
      if (!live || !result.ok) return;
      const number = result.data.stop_number ?? null;
      setSaved(number);
      setValue(number === null ? "" : String(number));
    });
    return () => {
      live = false;
    };
  }, [articleId, initial]);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const parsed = parseStopNumber(value);
    if (!parsed.ok) {
      setMessage({ kind: "error", text: t("tours.stopNumber.invalid") });
      return;
    }
    setBusy(true);
    const result = await callApi<{ stopNumber: number | null }>("/api/manage/update_stop_number", { articleId, stopNumber: parsed.value });
    setBusy(false);
    if (result.ok) {
      setSaved(result.data.stopNumber);
      setValue(result.data.stopNumber === null ? "" : String(result.data.stopNumber));
      setMessage({
        kind: "saved",
        text: result.data.stopNumber === null ? t("tours.stopNumber.cleared") : t("tours.stopNumber.saved", { number: result.data.stopNumber }),
      });
      onSaved?.(result.data.stopNumber);
      return;
    }
    const holder = (result.error as { article?: { name?: string } | null }).article;
    if (result.status === 409)
      setMessage({
        kind: "error",
        text: holder?.name ? t("tours.stopNumber.takenBy", { number: parsed.value, name: holder.name }) : t("tours.stopNumber.taken", { number: parsed.value }),
      });
    else if (result.status === 404) setMessage({ kind: "error", text: t("tours.stopNumber.gone") });
    else setMessage({ kind: "error", text: t("tours.stopNumber.failed") });
  }

  const errorId = `${id}-message`;
  return (
    <form className={`stop-number${compact ? " stop-number--compact" : ""}`} onSubmit={(e) => void save(e)} noValidate>
      <label htmlFor={`${id}-input`} className="stop-number__label">
        {t("tours.stopNumber.label")}
        {articleName ? <span className="visually-hidden"> — {articleName}</span> : null}
      </label>
      <div className="stop-number__row">
        <input
          id={`${id}-input`}
          className="stop-number__input"
          inputMode="numeric"
          autoComplete="off"
          maxLength={4}
          value={value}
          disabled={saved === undefined}
          aria-invalid={message?.kind === "error" ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setMessage(null);
          }}
        />
        <button type="submit" className="button button--small button--ghost" aria-disabled={busy || saved === undefined}>
          {t("tours.stopNumber.save")}
          {articleName ? <span className="visually-hidden"> — {articleName}</span> : null}
        </button>
      </div>
      <p id={errorId} className={message?.kind === "error" ? "field__error stop-number__message" : "muted stop-number__message"} role="status">
        {message?.text ?? ""}
      </p>
    </form>
  );
}
