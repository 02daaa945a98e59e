import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { NarrationBudget } from "~/narration/budget.server";
import type { NarrationState } from "~/narration/staff.server";
import { apiErrorMessage, callApi, type ApiFailure } from "~/utils/api-client";

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * The narration of one article in one language, on the review page (issue 22): listen, upload a
 * recording, regenerate, remove. Reads `GET /api/read/narrations`; every change reloads it and says
 * what happened in a live region, keeping the focus on the control that was used.
 */
/** What `GET /api/read/narrations` answers: the state, and the museum's generated characters this month (decision 105). */
type PanelState = NarrationState & { budget?: NarrationBudget };

/** Why "regenerate" queued nothing (app/utils/narration.server.ts `NotScheduled`). */
const NOT_SCHEDULED = ["over_budget", "too_long"] as const;

export function NarrationPanel({ articleId, lang, languageName, heading }: { articleId: number; lang: string; languageName: string; heading?: string }) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<PanelState | null>(null);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });

  const load = useCallback(async () => {
    const result = await callApi<PanelState>(`/api/read/narrations?articleId=${articleId}&lang=${encodeURIComponent(lang)}`);
    if (result.ok) setState(result.data);
    else setMessage(apiErrorMessage(t, result));
  }, [articleId, lang, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const narration = state?.narrations.find((n) => n.lang === lang) ?? null;
  const pending = state?.pending.find((p) => p.lang === lang) ?? null;
  const engine = state?.speaks[lang] ?? null;

  const budget = state?.budget ?? null;
  const until = budget ? new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(budget.resetsAt)) : "";

  async function act(path: string, done: string) {
    setBusy(true);
    const result = await callApi<{ scheduled?: boolean; reason?: string }>(path, { articleId, lang });
    setBusy(false);
    const reason = result.ok ? NOT_SCHEDULED.find((r) => r === result.data?.reason) : undefined;
    if (reason === "over_budget") setMessage(t("narrationBudget.overBudget", { date: until }));
    else if (reason === "too_long") setMessage(t("narrationBudget.tooLong"));
    else setMessage(result.ok ? done : apiErrorMessage(t, result));
    await load();
  }

  async function uploadFile(file: File) {
    setBusy(true);
    setMessage(t("narration.uploading"));
    const form = new FormData();
    form.append("articleId", String(articleId));
    form.append("lang", lang);
    form.append("narration", file);
    const response = await fetch("/api/upload/narration", { method: "POST", body: form, credentials: "same-origin" }).catch(() => null);
    setBusy(false);
    if (response?.ok) setMessage(t("narration.uploaded"));
    else {
      const body = (await response?.json().catch(() => null)) as { error?: ApiFailure["error"] } | null;
      setMessage(
        apiErrorMessage(t, { ok: false, status: response?.status ?? 0, error: body?.error ?? { code: response ? "unknown" : "network", message: "" } }),
      );
    }
    if (fileRef.current) fileRef.current.value = "";
    await load();
  }

  let status: string;
  if (!state) status = t("narration.loading");
  else if (narration?.kind === "recorded") status = t("narration.recorded");
  else if (narration) status = t("narration.generated", { engine: narration.engine ?? "", voice: narration.voice ?? "" });
  else if (pending?.failure) status = t("narration.failed");
  else if (pending) status = t("narration.generating");
  else if (engine) status = t("narration.notYet");
  else status = t("narration.noEngine", { language: languageName });

  return (
    <section className="tr-section" aria-labelledby="tr-narration-heading">
      <h2 id="tr-narration-heading">{heading ?? t("narration.heading")}</h2>
      <p>{status}</p>
      {narration ? (
        <>
          <audio
            controls
            preload="none"
            src={narration.url}
            aria-label={t("narration.listen", { language: languageName })}
            style={{ width: "100%", maxWidth: "28rem" }}
          />
          <p className="muted">
            {[narration.durationMs ? clock(narration.durationMs) : null, `${number.format(narration.bytes / (1024 * 1024))} ${t("narration.mb")}`]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </>
      ) : null}
      <div className="tr-narration__actions" style={{ display: "flex", flexWrap: "wrap", gap: "0.5rem", alignItems: "center" }}>
        <label htmlFor={inputId}>{t("narration.upload")}</label>
        <input
          ref={fileRef}
          id={inputId}
          type="file"
          accept="audio/webm,audio/wav,audio/x-wav,audio/flac,audio/mpeg,audio/mp4,audio/aac,audio/ogg,.webm,.wav,.flac,.mp3,.m4a,.aac,.ogg,.opus"
          disabled={busy}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void uploadFile(file);
          }}
        />
        {narration?.kind !== "recorded" && engine ? (
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => void act("/api/manage/regenerate_narration", t("narration.regenerating"))}
          >
            {t("narration.regenerate")}
          </button>
        ) : null}
        {narration ? (
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => void act("/api/manage/delete_narration", t("narration.removed"))}
          >
            {t("narration.remove")}
          </button>
        ) : null}
      </div>
      {budget && engine && narration?.kind !== "recorded" ? (
        budget.limit === 0 ? (
          <p>{t("narrationBudget.none")}</p>
        ) : budget.used >= budget.limit ? (
          <p>{t("narrationBudget.reached", { limit: new Intl.NumberFormat(i18n.language).format(budget.limit), date: until })}</p>
        ) : (
          <p className="muted">
            {t("narrationBudget.used", {
              used: new Intl.NumberFormat(i18n.language).format(budget.used),
              limit: new Intl.NumberFormat(i18n.language).format(budget.limit),
            })}
          </p>
        )
      ) : null}
      <p className="muted">{t("narration.help")}</p>
      <p role="status" aria-live="polite">
        {message}
      </p>
    </section>
  );
}

/** "Narration in 3 languages" for the article's languages overview. */
export function NarrationCount({ articleId }: { articleId: number }) {
  const { t, i18n } = useTranslation();
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    void callApi<NarrationState>(`/api/read/narrations?articleId=${articleId}`).then((result) => {
      if (result.ok) setCount(result.data.narrations.length);
    });
  }, [articleId]);
  if (count === null) return null;
  return <p className="tr-summary">{t("narration.count", { count, n: new Intl.NumberFormat(i18n.language).format(count) })}</p>;
}
