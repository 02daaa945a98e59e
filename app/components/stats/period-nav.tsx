import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { STATS_PERIODS } from "~/models/stats-input";

/** 10, 30 or 90 days: plain links, so the choice is in the address and works without JavaScript. */
export function PeriodNav({ days, articleId }: { days: number; articleId: number | null }) {
  const { t } = useTranslation();
  return (
    <nav className="stats-periods" aria-label={t("stats.period")}>
      <span className="stats-periods__label" aria-hidden="true">
        {t("stats.period")}
      </span>
      <ul>
        {STATS_PERIODS.map((period) => {
          const search = new URLSearchParams({ days: String(period) });
          if (articleId !== null) search.set("articleId", String(articleId));
          return (
            <li key={period}>
              <Link to={`/stats?${search}`} preventScrollReset className="stats-periods__link" aria-current={period === days ? "page" : undefined}>
                {t("stats.lastDays", { count: period })}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
