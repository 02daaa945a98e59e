import { useTranslation } from "react-i18next";
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
      {tours.length === 0 ? (
        <p className="muted">{t("tourStats.none")}</p>
      ) : (
        tours.map((tour) => <TourTable key={tour.id} tour={tour} />)
      )}
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
  return (
    <div className="stats-table tour-stats__table" role="region" aria-labelledby={`tour-${tour.id}-caption`} tabIndex={0}>
      <table>
        <caption id={`tour-${tour.id}-caption`}>{t("tourStats.caption", { name: tour.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("tourStats.stopColumn")}</th>
            <th scope="col">{t("tourStats.viewsColumn")}</th>
            <th scope="col">{t("tourStats.leftColumn")}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{t("tourStats.starts")}</th>
            <td>
              <span className="tour-stats__count">{tour.starts}</span>
              {bar(tour.starts)}
            </td>
            <td />
          </tr>
          {tour.stops.map((stop) => (
            <tr key={stop.position}>
              <th scope="row">
                {stop.position}. {stop.name ?? t("tourStats.removed")}
              </th>
              <td>
                <span className="tour-stats__count">{stop.views}</span>
                {bar(stop.views)}
              </td>
              <td>{stop.left > 0 ? stop.left : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
