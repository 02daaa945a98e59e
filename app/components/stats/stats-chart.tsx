import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { longDay, shortDay, toSeries, type ChartData } from "./series";
import { StatsTable } from "./stats-table";
import { useReducedMotion } from "./use-reduced-motion";

const BarChart = lazy(() => import("./bar-chart"));

export interface StatsChartProps {
  id: string;
  caption: string;
  yLabel: string;
  /** Header of the table's first column: "Article" or "Language". */
  keyHeader: string;
  /** "totalScans" or "totalRequests": what the chart counts. */
  totalKey: string;
  data: ChartData;
  labelFor: (key: string) => string;
  loading: boolean;
  csvHref: string;
}

/** One chart of the statistics page: caption, total, the bars, the same numbers as a table and as a CSV. */
export function StatsChart({ id, caption, yLabel, keyHeader, totalKey, data, labelFor, loading, csvHref }: StatsChartProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const reducedMotion = useReducedMotion();
  // The canvas is drawn in the browser only; the server sends the caption, total and table.
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const series = toSeries(data, labelFor);
  // Plural from the count, figure in the interface language's digits grouping (16 598 / 16,598).
  const total = t(totalKey, { count: data.total, total: data.total.toLocaleString(locale) });

  return (
    <figure className="stats-chart" aria-labelledby={`${id}-caption`} aria-busy={loading}>
      <figcaption className="stats-chart__head">
        <h2 id={`${id}-caption`} className="stats-chart__caption">
          {caption}
        </h2>
        <p className="stats-chart__total">{loading ? null : total}</p>
      </figcaption>
      <div className="stats-chart__area">
        {loading ? (
          <p className="stats-chart__status" role="status">
            {t("stats.loading")}
          </p>
        ) : data.total === 0 ? (
          <p className="stats-chart__status">{t("stats.noData")}</p>
        ) : mounted ? (
          <Suspense fallback={<p className="stats-chart__status">{t("stats.loading")}</p>}>
            <BarChart
              labels={data.days.map((day) => shortDay(day, locale))}
              titles={data.days.map((day) => longDay(day, locale))}
              series={series}
              xLabel={t("stats.xLabel")}
              yLabel={yLabel}
              ariaLabel={t("stats.chartLabel", { caption, total })}
              reducedMotion={reducedMotion}
            />
          </Suspense>
        ) : null}
      </div>
      {loading || data.total === 0 ? null : (
        <div className="stats-chart__extras">
          <details className="stats-chart__details">
            <summary>{t("stats.showTable")}</summary>
            <StatsTable id={id} caption={caption} keyHeader={keyHeader} days={data.days} series={series} />
          </details>
          <a className="button button--ghost button--small" href={csvHref} download>
            {t("stats.downloadCsv")}
          </a>
        </div>
      )}
    </figure>
  );
}
