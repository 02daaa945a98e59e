import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ImportReport } from "~/archive/restore.server";
import { apiErrorMessage, type ApiFailure } from "~/utils/api-client";
import { sendArchive } from "./send-archive";

type State =
  | { kind: "idle" }
  | { kind: "sending"; step: "upload" | "restore"; percent: number | null }
  | { kind: "done"; report: ImportReport }
  | { kind: "failed"; failure: ApiFailure };

/** Picks an archive and sends it (in parts when large, decision 064); then shows the report or the refusal. */
export function ImportForm({ onImported }: { onImported?: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: "idle" });
  const [fileError, setFileError] = useState(false);
  const result = useRef<HTMLElement>(null);

  // The answer takes the focus, so a keyboard or screen-reader user lands on it (the button is gone meanwhile).
  useEffect(() => {
    if (state.kind === "done" || state.kind === "failed") result.current?.focus();
  }, [state.kind]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("archive");
    if (!(file instanceof File) || file.size === 0) {
      setFileError(true);
      return;
    }
    setFileError(false);
    setState({ kind: "sending", step: "upload", percent: null });
    const answer = await sendArchive(file, (step, percent) => setState({ kind: "sending", step, percent }));
    setState(answer.ok ? { kind: "done", report: answer.data } : { kind: "failed", failure: answer });
    if (answer.ok) onImported?.();
  }

  if (state.kind === "done") {
    const r = state.report;
    return (
      <section className="archive__report" aria-labelledby="archive-report">
        <h3 id="archive-report" tabIndex={-1} ref={result as React.RefObject<HTMLHeadingElement>}>
          {t("archive.reportHeading")}
        </h3>
        <dl>
          <dt>{t("archive.report.articles")}</dt>
          <dd>{r.articles}</dd>
          <dt>{t("archive.report.folders")}</dt>
          <dd>{r.folders}</dd>
          <dt>{t("archive.report.media")}</dt>
          <dd>{r.media}</dd>
          <dt>{t("archive.report.translations")}</dt>
          <dd>{r.translationMemory + r.translationReviews}</dd>
          <dt>{t("archive.report.qrcodes")}</dt>
          <dd>{r.qrcodes.kept.length + r.qrcodes.changed.length}</dd>
          <dt>{t("archive.report.easyRead")}</dt>
          <dd>{r.easyRead}</dd>
          <dt>{t("archive.report.narrations")}</dt>
          <dd>{r.narrations}</dd>
        </dl>
        {r.qrcodes.changed.length > 0 ? (
          <>
            <p>{t("archive.report.changedIntro", { count: r.qrcodes.changed.length })}</p>
            <ul className="archive__links">
              {r.qrcodes.changed.map((c) => (
                <li key={c.from}>{t("archive.report.changed", { from: c.from, to: c.to })}</li>
              ))}
            </ul>
          </>
        ) : (
          <p>{t("archive.report.allKept")}</p>
        )}
        {r.schedulesDropped > 0 ? <p>{t("archive.report.schedulesDropped", { count: r.schedulesDropped })}</p> : null}
        <p>
          <Link to="/articles">{t("archive.report.openArticles")}</Link>
        </p>
      </section>
    );
  }

  const sending = state.kind === "sending";
  return (
    <form className="archive__form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="archive-file">{t("archive.fileLabel")}</label>
        <small id="archive-file-help">{t("archive.fileHelp")}</small>
        <input
          id="archive-file"
          name="archive"
          type="file"
          accept=".zip,application/zip"
          aria-describedby={fileError ? "archive-file-help archive-file-error" : "archive-file-help"}
          aria-invalid={fileError || undefined}
          disabled={sending}
        />
        {fileError ? (
          <p id="archive-file-error" className="field__error">
            {t("archive.fileRequired")}
          </p>
        ) : null}
      </div>
      <button type="submit" className="button" disabled={sending}>
        {t("archive.importButton")}
      </button>
      <p className="archive__status" role="status">
        {sending ? (state.step === "upload" && state.percent !== null ? t("archive.uploading", { percent: state.percent }) : t("archive.importing")) : ""}
      </p>
      {state.kind === "failed" ? (
        <p className="archive__error" role="alert" tabIndex={-1} ref={result as React.RefObject<HTMLParagraphElement>}>
          {apiErrorMessage(t, state.failure)}
        </p>
      ) : null}
    </form>
  );
}
