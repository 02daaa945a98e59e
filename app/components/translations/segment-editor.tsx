import { useEffect, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import type { ReviewSegment } from "~/models/translation-review.server";
import { callApi } from "~/utils/api-client";
import { oneLine, segmentErrorMessage } from "./segment-errors";

interface SegmentEditorProps {
  segment: ReviewSegment;
  index: number;
  articleId: number;
  lang: string;
  dir: "ltr" | "rtl";
  sourceLang: string;
  sourceDir: "ltr" | "rtl";
  languageName: string;
  onSaved: () => void;
  /** Its heading: "Text 3 of 12", or for a subtitle cue "Line 2 of 9" within its video (a level below the video's heading). */
  heading: string;
  headingLevel?: 3 | 4;
  /** Keeps the machine text as the reviewed one (decision 051); offered on a machine translation only. */
  onMark?: (segment: ReviewSegment) => void;
  marking?: boolean;
}

const rowsFor = (text: string) => Math.min(12, Math.max(2, Math.ceil(text.length / 55)));

/**
 * One segment side by side: the source, and its translation editable in place in the target language's
 * direction. Save is inert until the text changes; a stale review shows the old source and what visitors
 * get meanwhile, with Confirm to keep the reviewed text as is. Focus stays in the segment after each action.
 */
export function SegmentEditor(props: SegmentEditorProps) {
  const { segment, index, articleId, lang, dir, sourceLang, sourceDir, languageName, onSaved, heading, headingLevel = 3, onMark, marking = false } = props;
  const { t } = useTranslation();
  const [base, setBase] = useState(segment.text ?? "");
  const [draft, setDraft] = useState(segment.text ?? "");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const focusText = useRef(false);
  const prefix = `seg-${index}`;

  // New data from the loader (after any save on the page): take it, unless the person is mid-edit here.
  useEffect(() => {
    const fresh = segment.text ?? "";
    setDraft((current) => (current === base ? fresh : current));
    setBase(fresh);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- follows the server's text only
  }, [segment.text]);

  // Confirm vanishes once the segment is no longer stale: the text area takes the focus it had.
  useEffect(() => {
    if (!focusText.current) return;
    focusText.current = false;
    textarea.current?.focus();
  });

  const changed = draft.trim() !== base.trim() || segment.text === null;
  const canSave = !busy && changed && draft.trim() !== "";

  async function save(text: string, confirming: boolean) {
    setBusy(true);
    const toastId = `${prefix}-save`;
    toast.loading(t("translations.segment.saving"), { id: toastId });
    const result = await callApi<{ segment: ReviewSegment }>("/api/manage/update_translation", { articleId, lang, segmentId: segment.id, text });
    setBusy(false);
    if (result.ok) {
      setError(null);
      setBase(result.data.segment.text ?? text);
      setDraft(result.data.segment.text ?? text);
      toast.success(confirming ? t("translations.segment.confirmed") : t("translations.segment.saved"), { id: toastId, duration: 5000 });
      if (confirming) focusText.current = true;
      onSaved();
    } else {
      const message = segmentErrorMessage(t, result);
      setError(message);
      toast.error(message, { id: toastId, duration: 5000 });
      textarea.current?.focus();
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (canSave) void save(draft, false);
  }

  const badge = segment.stale ? "stale" : segment.origin === "edited" ? "edited" : segment.origin === "machine" ? "machine" : "none";
  const Heading = headingLevel === 4 ? "h4" : "h3";
  const markable = onMark !== undefined && segment.origin === "machine" && !segment.stale && segment.text !== null;
  return (
    <li className={`tr-segment${segment.stale ? " tr-segment--stale" : ""}`} data-segment={segment.id}>
      <Heading className="tr-segment__heading" id={`${prefix}-heading`}>
        {heading}
        <span className={`tr-badge tr-badge--${badge}`}>{t(`translations.segment.badge.${badge}`)}</span>
      </Heading>
      {segment.cue ? (
        <p className="tr-segment__cue">
          <span aria-hidden="true">
            {segment.cue.start} → {segment.cue.end}
          </span>
          <span className="visually-hidden">{t("review.cues.timing", { start: segment.cue.start, end: segment.cue.end })}</span>
        </p>
      ) : null}
      <div className="tr-segment__grid">
        <div className="tr-segment__source">
          <p className="tr-segment__label">{t("translations.segment.source")}</p>
          <p className="tr-segment__text" lang={sourceLang} dir={sourceDir}>
            {segment.source}
          </p>
          {segment.stale && segment.previousSource !== undefined ? (
            <div className="tr-segment__previous">
              <p className="tr-segment__label">{t("translations.segment.previousSource")}</p>
              <p className="tr-segment__text" lang={sourceLang} dir={sourceDir}>
                <del>{segment.previousSource}</del>
              </p>
            </div>
          ) : null}
        </div>
        <form className="tr-segment__translation" onSubmit={onSubmit} aria-labelledby={`${prefix}-heading`}>
          {segment.stale ? (
            <div className="tr-segment__stale-note">
              <p>{t("translations.segment.staleNote")}</p>
              <p className="tr-segment__label">{t("translations.segment.visitorsGet")}</p>
              {segment.machineText ? (
                <p className="tr-segment__text" lang={lang} dir={dir}>
                  {segment.machineText}
                </p>
              ) : (
                <p className="muted">{t("translations.segment.visitorsGetOriginal")}</p>
              )}
            </div>
          ) : null}
          {segment.text === null ? <p className="tr-segment__untranslated">{t("translations.segment.notTranslated")}</p> : null}
          <label htmlFor={`${prefix}-text`} className="tr-segment__label">
            {segment.stale
              ? t("translations.segment.reviewedText", { language: languageName })
              : t("translations.segment.translation", { language: languageName })}
          </label>
          <textarea
            ref={textarea}
            id={`${prefix}-text`}
            lang={lang}
            dir={dir}
            value={draft}
            rows={rowsFor(draft)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${prefix}-error` : undefined}
            onChange={(event) => {
              setDraft(oneLine(event.target.value));
              if (error) setError(null);
            }}
            // A segment is one line: Enter does not break it.
            onKeyDown={(event) => event.key === "Enter" && event.preventDefault()}
          />
          {error ? (
            <p id={`${prefix}-error`} className="field__error tr-segment__error">
              {error}
            </p>
          ) : null}
          <div className="tr-actions">
            <button type="submit" className="button button--small" aria-disabled={!canSave}>
              {t("translations.segment.save")}
              <span className="visually-hidden"> {heading}</span>
            </button>
            {markable ? (
              <button
                type="button"
                id={`${prefix}-mark`}
                data-mark={segment.id}
                className="button button--ghost button--small"
                aria-disabled={marking || busy}
                onClick={() => marking || busy || onMark(segment)}
              >
                {t("review.mark.one")}
                <span className="visually-hidden"> {heading}</span>
              </button>
            ) : null}
            {segment.stale && segment.text !== null ? (
              <button
                type="button"
                className="button button--ghost button--small"
                aria-disabled={busy}
                onClick={() => busy || void save(segment.text ?? "", true)}
              >
                {t("translations.segment.confirm")}
                <span className="visually-hidden"> {heading}</span>
              </button>
            ) : null}
          </div>
        </form>
      </div>
    </li>
  );
}
