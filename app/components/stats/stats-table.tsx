import { useTranslation } from "react-i18next";
import { longDay, shortDay, type LabelledSeries } from "./series";

interface StatsTableProps {
  id: string;
  caption: string;
  keyHeader: string;
  days: string[];
  series: LabelledSeries[];
}

/**
 * The chart's numbers for screen readers and anyone who prefers them: one row per article or language,
 * one column per day, and the total. It scrolls inside its own focusable box, never the page.
 */
export function StatsTable({ id, caption, keyHeader, days, series }: StatsTableProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <div className="stats-table" role="region" aria-labelledby={`${id}-table-caption`} tabIndex={0}>
      <table>
        <caption id={`${id}-table-caption`}>{t("stats.tableCaption", { caption })}</caption>
        <thead>
          <tr>
            <th scope="col">{keyHeader}</th>
            {days.map((day) => (
              <th scope="col" key={day}>
                <abbr title={longDay(day, locale)}>{shortDay(day, locale)}</abbr>
              </th>
            ))}
            <th scope="col">{t("stats.totalColumn")}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s) => (
            <tr key={s.key}>
              <th scope="row">
                <span className="stats-table__swatch" style={{ background: s.color }} aria-hidden="true" />
                {s.label}
              </th>
              {s.data.map((count, i) => (
                <td key={days[i]}>{count}</td>
              ))}
              <td>{s.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
