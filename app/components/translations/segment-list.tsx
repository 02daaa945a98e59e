import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import type { ReviewSegment } from "~/models/translation-review.server";
import { callApi } from "~/utils/api-client";
import { markFailureMessage, type MarkResult } from "./mark-messages";
import { SegmentEditor } from "./segment-editor";
import { useConfirm } from "./use-confirm";

type Filter = "all" | "toReview" | "stale" | "subtitles";
const FILTERS: Filter[] = ["all", "toReview", "stale", "subtitles"];

const FITS: Record<Filter, (s: ReviewSegment) => boolean> = {
  all: () => true,
  toReview: (s) => isMarkable(s),
  stale: (s) => s.stale,
  subtitles: (s) => s.kind === "subtitle",
};

/** A machine translation that "mark as reviewed" can keep as it is. */
export const isMarkable = (s: ReviewSegment) => s.origin === "machine" && !s.stale && s.text !== null;

/** Consecutive segments of the text, or the cues of one video: each cue run goes under its video's heading. */
function runs(segments: readonly { segment: ReviewSegment; index: number }[]) {
  const out: { video: number | null; items: { segment: ReviewSegment; index: number }[] }[] = [];
  for (const item of segments) {
    const video = item.segment.kind === "subtitle" ? item.segment.element : null;
    const last = out[out.length - 1];
    if (last && last.video === video) last.items.push(item);
    else out.push({ video, items: [item] });
  }
  return out;
}

interface SegmentListProps {
  articleId: number;
  lang: string;
  segments: ReviewSegment[];
  dir: "ltr" | "rtl";
  sourceLang: string;
  sourceDir: "ltr" | "rtl";
  languageName: string;
  onChanged: () => void;
}

const MARK_TOAST = "translations-mark-reviewed";

/**
 * The segments side by side with a filter, each video's subtitle cues under its own heading, and "mark as
 * reviewed" per machine translation or for every one shown (decision 051). After a mark, focus goes to the
 * next segment's mark button, else to the status line, never to the vanished button's void.
 */
export function SegmentList({ articleId, lang, segments, dir, sourceLang, sourceDir, languageName, onChanged }: SegmentListProps) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  const [filter, setFilter] = useState<Filter>("all");
  const [marking, setMarking] = useState(false);
  const [status, setStatus] = useState("");
  const statusRef = useRef<HTMLParagraphElement>(null);
  const focusStatus = useRef(false);
  const confirm = useConfirm();

  const indexed = segments.map((segment, index) => ({ segment, index }));
  const shown = indexed.filter(({ segment }) => FITS[filter](segment));
  const toMark = shown.filter(({ segment }) => isMarkable(segment)).map(({ segment }) => segment);
  // Videos are numbered in article order, as a person counts them on the page.
  const videoNumber = new Map([...new Set(segments.filter((s) => s.kind === "subtitle").map((s) => s.element))].map((element, i) => [element, i + 1]));

  useEffect(() => {
    if (!focusStatus.current) return;
    focusStatus.current = false;
    statusRef.current?.focus();
  });

  async function mark(chosen: ReviewSegment[], every: boolean, after: () => void) {
    setMarking(true);
    toast.loading(t("review.mark.marking"), { id: MARK_TOAST });
    const result = await callApi<MarkResult>("/api/manage/mark_reviewed", { articleId, lang, segments: chosen.map((s) => ({ id: s.id, text: s.text ?? "" })) });
    setMarking(false);
    let message: string;
    if (result.ok) {
      message =
        result.data.marked === 0 ? t("review.mark.nothing") : !every ? t("review.mark.doneOne") : t("review.mark.doneAll", { count: result.data.marked });
      toast.success(message, { id: MARK_TOAST, duration: 5000 });
      after();
    } else {
      message = markFailureMessage(t, result);
      toast.error(message, { id: MARK_TOAST, duration: 8000 });
      focusStatus.current = true;
    }
    setStatus(message);
    onChanged();
  }

  function markOne(segment: ReviewSegment) {
    const at = toMark.findIndex((s) => s.id === segment.id);
    // The next one to read, skipping the same sentence elsewhere (marked with this one, its button goes too).
    const next = [...toMark.slice(at + 1), ...toMark.slice(0, Math.max(at, 0))].find((s) => s.source !== segment.source);
    void mark([segment], false, () => {
      const index = next ? segments.indexOf(next) : -1;
      const button = index >= 0 ? document.getElementById(`seg-${index}-mark`) : null;
      if (button) button.focus();
      else focusStatus.current = true;
    });
  }

  function markAll() {
    confirm.close();
    void mark(toMark, true, () => {
      focusStatus.current = true;
    });
  }

  const editor = ({ segment, index }: { segment: ReviewSegment; index: number }, heading: string, headingLevel: 3 | 4) => (
    <SegmentEditor
      key={segment.id}
      segment={segment}
      index={index}
      articleId={articleId}
      lang={lang}
      dir={dir}
      sourceLang={sourceLang}
      sourceDir={sourceDir}
      languageName={languageName}
      heading={heading}
      headingLevel={headingLevel}
      onSaved={onChanged}
      onMark={markOne}
      marking={marking}
    />
  );

  return (
    <>
      <div className="tr-list-tools">
        <fieldset className="tr-filter">
          <legend>{t("review.filter.legend")}</legend>
          {FILTERS.map((f) => (
            <label key={f} className="tr-filter__option">
              <input type="radio" name="tr-filter" value={f} checked={filter === f} onChange={() => setFilter(f)} />
              {t(`review.filter.${f}`, { n: number.format(indexed.filter(({ segment }) => FITS[f](segment)).length) })}
            </label>
          ))}
        </fieldset>
        {toMark.length > 0 ? (
          <button ref={confirm.trigger} type="button" className="button button--small" aria-disabled={marking} onClick={() => marking || confirm.ask()}>
            {t("review.mark.all", { n: number.format(toMark.length) })}
          </button>
        ) : null}
      </div>
      <p ref={statusRef} tabIndex={-1} role="status" className="tr-mark-status" data-testid="mark-status">
        {status}
      </p>
      {shown.length === 0 ? (
        <p className="muted">{segments.length === 0 ? t("translations.noSegments") : t("review.filter.empty")}</p>
      ) : (
        runs(shown).map((run) =>
          run.video === null ? (
            <ol key={`text-${run.items[0]!.index}`} className="tr-segments">
              {run.items.map((item) => editor(item, t("translations.segment.heading", { n: item.index + 1, count: segments.length }), 3))}
            </ol>
          ) : (
            <section key={`video-${run.items[0]!.index}`} className="tr-video" aria-labelledby={`tr-video-${run.items[0]!.index}`}>
              <h3 id={`tr-video-${run.items[0]!.index}`} className="tr-video__heading">
                {t("review.cues.heading", { n: videoNumber.get(run.video) ?? 1 })}
              </h3>
              <ol className="tr-segments">
                {run.items.map((item) => {
                  const cues = segments.filter((s) => s.kind === "subtitle" && s.element === run.video);
                  const n = cues.indexOf(item.segment) + 1;
                  return editor(item, t("review.cues.cueHeading", { n, count: cues.length }), 4);
                })}
              </ol>
            </section>
          ),
        )
      )}
      {confirm.open ? (
        <ConfirmDialog
          title={t("review.mark.allTitle", { count: toMark.length })}
          confirmLabel={t("review.mark.allConfirm")}
          onConfirm={markAll}
          onCancel={confirm.close}
        >
          <p>{t("review.mark.allBody")}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
