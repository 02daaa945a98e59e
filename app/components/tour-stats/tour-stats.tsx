import { useTranslation } from "react-i18next";
import { FiguresTable } from "~/components/stats/figures-table";
import type { TourStats } from "~/tours/stats.server";

/**
 * The "Tours" section of /stats (issue 21, decision 084): per tour, the tour page's opens (starts), the
 * views of each stop as a bar, and how many visitors were lost on the way to each stop. A table (the
 * figures) with bars drawn in it, so nothing is shown only as a picture.
 */
export function TourStatsSection({ tours, loading }: { tours: TourStats[]; loading?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="tour-stats" aria-labelledby="tour-stats-title" aria-busy={loading || undefined}>
      <h2 id="tour-stats-title">{t("tourStats.title")}</h2>
      <p className="muted">{t("tourStats.help")}</p>
      {tours.length === 0 ? <p className="muted">{t("tourStats.none")}</p> : tours.map((tour) => <TourTable key={tour.id} tour={tour} />)}
    </section>
  );
}

function TourTable({ tour }: { tour: TourStats }) {
  const { t } = useTranslation();
  const peak = Math.max(1, tour.starts, ...tour.stops.map((s) => s.views));
  const bar = (count: number) => (
    <span className="tour-stats__bar" aria-hidden="true">
      <span style={{ width: `${(count / peak) * 100}%` }} />
    </span>
  );
  const figures = (count: number) => (
    <>
      <span className="tour-stats__count">{count}</span>
      {bar(count)}
    </>
  );
  const rows = [
    { key: "starts", header: t("tourStats.starts"), cells: [figures(tour.starts), null] },
    ...tour.stops.map((stop) => ({
      key: stop.position,
      header: `${stop.position}. ${stop.name ?? t("tourStats.removed")}`,
      cells: [figures(stop.views), stop.left > 0 ? stop.left : "–"],
    })),
  ];
  return (
    <FiguresTable
      id={`tour-${tour.id}`}
      className="tour-stats__table"
      caption={t("tourStats.caption", { name: tour.name })}
      columns={[t("tourStats.stopColumn"), t("tourStats.viewsColumn"), t("tourStats.leftColumn")]}
      rows={rows}
    />
  );
}
