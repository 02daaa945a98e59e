import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FiguresTable } from "~/components/stats/figures-table";
import type { EasyReadOpens } from "~/easy-read/stats.server";

/** The /stats table of easy-to-read opens per article over the chosen period (decision 096). */
export function EasyReadStats({ rows, days }: { rows: readonly EasyReadOpens[]; days: number }) {
  const { t } = useTranslation();
  return (
    <section className="stats-easy-read" aria-labelledby="stats-easy-read-heading">
      <h2 id="stats-easy-read-heading">{t("easyRead.stats.heading")}</h2>
      <FiguresTable
        id="stats-easy-read"
        caption={t("easyRead.stats.caption", { count: days })}
        captionHidden
        columns={[t("stats.articleColumn"), t("easyRead.stats.opens")]}
        rows={rows.map((row) => ({
          key: row.articleId,
          header: (
            <Link to={`/easy-read?id=${row.articleId}`} dir="auto">
              {row.name}
            </Link>
          ),
          cells: [row.opens],
        }))}
        empty={t("easyRead.stats.none", { count: days })}
      />
    </section>
  );
}
