import { useTranslation } from "react-i18next";
import { FiguresTable } from "./figures-table";
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
  const columns = [
    keyHeader,
    ...days.map((day) => (
      <abbr key={day} title={longDay(day, locale)}>
        {shortDay(day, locale)}
      </abbr>
    )),
    t("stats.totalColumn"),
  ];
  const rows = series.map((s) => ({
    key: s.key,
    header: (
      <>
        <span className="stats-table__swatch" style={{ background: s.color }} aria-hidden="true" />
        {s.label}
      </>
    ),
    cells: [...s.data, s.total],
  }));
  return <FiguresTable id={`${id}-table`} caption={t("stats.tableCaption", { caption })} columns={columns} rows={rows} />;
}
