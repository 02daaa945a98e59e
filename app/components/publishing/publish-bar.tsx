import { Link } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { apiErrorMessage, callApi } from "~/utils/api-client";

/** The article's publication as the editor loaded it (GET /api/read/article, decision 041). */
export interface PublicationState {
  everPublished: boolean;
  publishedVersion: number | null;
  publishedAt: number | null;
  publishAt: number | null;
  publishAtBy: { id: number; email: string } | null;
}

interface PublishBarProps {
  articleId: number;
  /** The saved draft's version (moves on with each save). */
  version: number;
  /** Unsaved changes in the editor. */
  dirty: boolean;
  initial: PublicationState;
  timeZone: string;
  /** The visitor page's address, without query. */
  publicPath: string;
  /** Saves the editor's changes; the new version, or null when the save failed (the editor says why). */
  save: () => Promise<number | null>;
  /** After a discard: the editor reloads the saved (now published) article. */
  onDiscarded: () => void;
  /** The version was stale: the editor shows its "saved elsewhere" alert. */
  onStale: () => void;
}

type Answer = {
  publishedVersion: number | null;
  publishedAt: number | null;
  publishAt: number | null;
  publishAtBy: { id: number; email: string } | null;
  status: string;
};

const TOAST = "article-publish";

/** "YYYY-MM-DDTHH:mm" of `at` in the zone, for the datetime-local field. */
function localInput(at: number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * The editor's publishing controls (issue 18, decision 041): where the article stands (published, a draft
 * with unpublished changes, never published, a scheduled publication), Publish, Discard draft, Publish at a
 * date and time in the museum's time zone, Cancel schedule, the draft's preview and the history.
 */
export function PublishBar({ articleId, version, dirty, initial, timeZone, publicPath, save, onDiscarded, onStale }: PublishBarProps) {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [at, setAt] = useState("");
  const [min, setMin] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const atId = useId();
  const errorId = useId();

  useEffect(() => setState(initial), [initial]);
  // The earliest time offered: the next minute where the museum is (set after hydration: it depends on now).
  useEffect(() => setMin(localInput(Date.now() + 60_000, timeZone)), [timeZone]);

  const status = !state.everPublished ? "never" : state.publishedVersion === version ? "published" : "draft";
  const format = (ms: number) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short", timeZone }).format(ms);
  const statusText = status === "published" ? t("publishing.statusPublished") : status === "draft" ? t("publishing.statusDraft") : t("publishing.statusNever");

  /** Saves first when there are unsaved changes; the version to publish, or null. */
  async function savedVersion(): Promise<number | null> {
    if (!dirty) return version;
    return save();
  }

  async function run(body: Record<string, unknown>, done: string): Promise<boolean> {
    setBusy(true);
    setError(null);
    const result = await callApi<Answer>("/api/manage/publish_article", body);
    setBusy(false);
    if (result.ok) {
      const answer = result.data;
      setState({
        everPublished: answer.status !== "never_published",
        publishedVersion: answer.publishedVersion,
        publishedAt: answer.publishedAt,
        publishAt: answer.publishAt,
        publishAtBy: answer.publishAtBy,
      });
      toast.success(done, { id: TOAST, duration: 5000 });
      statusRef.current?.focus();
      return true;
    }
    if (result.status === 409 && result.error.reason === "stale_version") onStale();
    setError(apiErrorMessage(t, result));
    toast.error(t("publishing.failed"), { id: TOAST, duration: 5000 });
    return false;
  }

  async function publish() {
    if (busy || (status === "published" && !dirty)) return;
    const v = await savedVersion();
    if (v === null) return setError(t("publishing.saveFirst"));
    await run({ id: articleId, version: v }, t("publishing.published"));
  }

  async function schedule() {
    if (busy) return;
    if (!at) return setError(t("publishing.chooseTime"));
    const v = await savedVersion();
    if (v === null) return setError(t("publishing.saveFirst"));
    if (await run({ id: articleId, version: v, at }, t("publishing.scheduled"))) setAt("");
  }

  async function cancelSchedule() {
    if (busy) return;
    await run({ id: articleId, version, at: null }, t("publishing.scheduleCancelled"));
  }

  async function discard() {
    setConfirmDiscard(false);
    setBusy(true);
    setError(null);
    const result = await callApi<Answer>("/api/manage/discard_draft", { id: articleId });
    setBusy(false);
    if (result.ok) {
      toast.success(t("publishing.discarded"), { id: TOAST, duration: 5000 });
      onDiscarded();
      statusRef.current?.focus();
      return;
    }
    setError(apiErrorMessage(t, result));
    toast.error(t("publishing.failed"), { id: TOAST, duration: 5000 });
  }

  const previewHref = `${publicPath}?preview=draft&ignoreStats=true`;

  return (
    <section className="publish-bar" aria-labelledby="publish-bar-heading">
      <h2 id="publish-bar-heading" className="visually-hidden">
        {t("publishing.heading")}
      </h2>
      <div className="publish-bar__state">
        <p ref={statusRef} tabIndex={-1} className={`publish-badge publish-badge--${status}`} role="status">
          {statusText}
        </p>
        {state.publishedAt !== null && state.everPublished ? (
          <p className="publish-bar__when">{t("publishing.publishedOn", { date: format(state.publishedAt) })}</p>
        ) : null}
        {state.publishAt !== null ? (
          <p className="publish-bar__when publish-bar__when--scheduled">
            {t("publishing.statusScheduled", { date: format(state.publishAt), zone: timeZone })}
            {state.publishAtBy?.email ? ` ${t("publishing.scheduledBy", { email: state.publishAtBy.email })}` : ""}
          </p>
        ) : null}
        {dirty ? <p className="publish-bar__when">{t("publishing.unsavedNote")}</p> : null}
      </div>
      <div className="publish-bar__actions">
        <button type="button" className="button" aria-disabled={busy || (status === "published" && !dirty)} onClick={() => void publish()}>
          {t("publishing.publish")}
        </button>
        {status === "draft" ? (
          <button type="button" className="button button--ghost" aria-disabled={busy} onClick={() => setConfirmDiscard(true)}>
            {t("publishing.discard")}
          </button>
        ) : null}
        <a className="button button--ghost" href={previewHref} target="_blank" rel="noopener">
          {t("publishing.preview")}
          <span className="visually-hidden"> {t("editor.newTab")}</span>
        </a>
        <Link className="button button--ghost" to={`/article/history?id=${articleId}`}>
          {t("publishing.history")}
        </Link>
        <Link className="button button--ghost" to={`/easy-read?id=${articleId}`}>
          {t("easyRead.open")}
        </Link>
        <Link className="button button--ghost" to={`/questions?article=${articleId}`}>
          {t("questions.open")}
        </Link>
      </div>
      <div className="publish-bar__schedule">
        <label htmlFor={atId}>{t("publishing.publishAtLabel", { zone: timeZone })}</label>
        <div className="publish-bar__row">
          <input
            id={atId}
            type="datetime-local"
            value={at}
            min={min}
            onChange={(event) => setAt(event.target.value)}
            aria-describedby={error ? errorId : undefined}
          />
          <button type="button" className="button button--ghost" aria-disabled={busy} onClick={() => void schedule()}>
            {t("publishing.schedule")}
          </button>
          {state.publishAt !== null ? (
            <button type="button" className="button button--ghost" aria-disabled={busy} onClick={() => void cancelSchedule()}>
              {t("publishing.cancelSchedule")}
            </button>
          ) : null}
        </div>
      </div>
      {error ? (
        <p id={errorId} className="publish-bar__error" role="alert">
          {error}
        </p>
      ) : null}
      {confirmDiscard ? (
        <ConfirmDialog
          title={t("publishing.discardTitle")}
          confirmLabel={t("publishing.discardConfirm")}
          onConfirm={() => void discard()}
          onCancel={() => setConfirmDiscard(false)}
        >
          <p>{t("publishing.discardBody")}</p>
          {dirty ? <p>{t("publishing.discardUnsaved")}</p> : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
