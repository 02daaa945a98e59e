import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { VersionSummary } from "~/publishing/versions.server";

/** A moment as the museum's clock shows it, in the interface language. */
export function formatMoment(at: number, locale: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
  try {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" }).format(at);
  }
}

interface HistoryListProps {
  articleId: number;
  versions: VersionSummary[];
  timeZone: string;
  canRestore: boolean;
  busy: boolean;
  onRestore: (number: number, trigger: HTMLButtonElement) => void;
}

/** The versions, newest first: when (museum time), who, the note, and what one can do with each. */
export function HistoryList({ articleId, versions, timeZone, canRestore, busy, onRestore }: HistoryListProps) {
  const { t, i18n } = useTranslation();
  if (versions.length === 0) return <p className="history-muted">{t("history.noVersions")}</p>;
  return (
    <ol className="history-list">
      {versions.map((version) => (
        <li key={version.number} className={version.current ? "history-version history-version--current" : "history-version"}>
          <div className="history-version__head">
            <h3>{t("history.version", { number: version.number })}</h3>
            {version.current ? <span className="history-badge history-badge--current">{t("history.current")}</span> : null}
          </div>
          <p className="history-version__meta">
            <time dateTime={new Date(version.publishedAt).toISOString()}>{formatMoment(version.publishedAt, i18n.language, timeZone)}</time>
            {" · "}
            <span className="history-version__who">{version.publishedBy?.email || t("history.unknownAuthor")}</span>
          </p>
          {version.note ? (
            <p className="history-version__note" dir="auto">
              {version.note}
            </p>
          ) : null}
          <div className="history-version__actions">
            <Link className="button button--ghost" to={`/article/history?id=${articleId}&view=${version.number}`}>
              {t("history.view")}
              <span className="visually-hidden"> {t("history.version", { number: version.number })}</span>
            </Link>
            <Link className="button button--ghost" to={`/article/history?id=${articleId}&from=${version.number}&to=draft`}>
              {t("history.compareWithDraft")}
              <span className="visually-hidden"> ({t("history.version", { number: version.number })})</span>
            </Link>
            {canRestore ? (
              <Form method="post" action={`/article/history?id=${articleId}`} className="history-version__restore">
                <input type="hidden" name="intent" value="restore" />
                <input type="hidden" name="version" value={version.number} />
                <button
                  type="submit"
                  className="button"
                  aria-disabled={busy}
                  onClick={(event) => {
                    // With JavaScript, ask first; without it, the form restores directly.
                    event.preventDefault();
                    if (!busy) onRestore(version.number, event.currentTarget);
                  }}
                >
                  {t("history.restore")}
                  <span className="visually-hidden"> {t("history.version", { number: version.number })}</span>
                </button>
              </Form>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
