import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TranslationLanguage } from "~/models/translation-review.server";
import { findLanguage } from "~/translation/languages";
import { LanguageName, uiLocale } from "./language-name";

/** Every language the article has a translation (or an open report) in, with its counts; a table on wide screens, cards on phones. */
export function LanguagesTable({
  articleId,
  total,
  languages,
  canReview = () => true,
}: {
  articleId: number;
  total: number;
  languages: readonly TranslationLanguage[];
  /** Whether the member may open a language's review (a translator: only theirs). */
  canReview?: (lang: string) => boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = uiLocale(i18n.language);
  const number = new Intl.NumberFormat(i18n.language);
  if (languages.length === 0) return <p className="translations__empty">{t("translations.table.none")}</p>;
  const columns = ["views", "translated", "reviewed", "stale", "reports"] as const;
  return (
    <table className="tr-table">
      <caption className="visually-hidden">{t("translations.table.caption")}</caption>
      <thead>
        <tr>
          <th scope="col">{t("translations.table.language")}</th>
          {columns.map((column) => (
            <th key={column} scope="col">
              {t(`translations.table.${column}`)}
            </th>
          ))}
          <th scope="col">
            <span className="visually-hidden">{t("translations.table.action")}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {languages.map((row) => {
          const values = {
            views: number.format(row.views),
            translated: t("translations.table.ofTotal", { done: number.format(row.segments), total: number.format(total) }),
            reviewed: number.format(row.reviewed),
            stale: number.format(row.stale),
            reports: number.format(row.reports),
          };
          const name = findLanguage(row.lang)?.[locale] ?? row.lang;
          return (
            <tr key={row.lang} data-lang={row.lang}>
              <th scope="row">
                <LanguageName code={row.lang} locale={locale} />
              </th>
              {columns.map((column) => (
                <td
                  key={column}
                  data-label={t(`translations.table.${column}`)}
                  className={(column === "stale" || column === "reports") && row[column] > 0 ? "tr-table__alert" : undefined}
                >
                  {values[column]}
                </td>
              ))}
              <td className="tr-table__action">
                {canReview(row.lang) ? (
                  <Link to={`/translations?id=${articleId}&lang=${encodeURIComponent(row.lang)}`} className="button button--small">
                    {t("translations.table.review")}
                    <span className="visually-hidden"> {name}</span>
                  </Link>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
