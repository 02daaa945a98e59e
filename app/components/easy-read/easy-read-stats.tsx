import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { EasyReadOpens } from "~/easy-read/stats.server";

/** The /stats table of easy-to-read opens per article over the chosen period (decision 096). */
export function EasyReadStats({ rows, days }: { rows: readonly EasyReadOpens[]; days: number }) {
  const { t } = useTranslation();
  return (
    <section className="stats-easy-read" aria-labelledby="stats-easy-read-heading">
      <h2 id="stats-easy-read-heading">{t("easyRead.stats.heading")}</h2>
      {rows.length === 0 ? (
        <p className="muted">{t("easyRead.stats.none", { count: days })}</p>
      ) : (
        <table className="stats-table">
          <caption className="visually-hidden">{t("easyRead.stats.caption", { count: days })}</caption>
          <thead>
            <tr>
              <th scope="col">{t("stats.articleColumn")}</th>
              <th scope="col">{t("easyRead.stats.opens")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.articleId}>
                <th scope="row" dir="auto">
                  <Link to={`/easy-read?id=${row.articleId}`}>{row.name}</Link>
                </th>
                <td>{row.opens}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
