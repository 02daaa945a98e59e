import type { StatsQuery } from "~/models/stats-input";
import { statsCsv, type StatsSeries } from "~/models/stats.server";

/** The spec's rows as JSON, or the same days as a CSV download (`?format=csv`). */
export function statsAnswer(series: StatsSeries, format: StatsQuery["format"], name: string): unknown {
  if (format === "json") return series.rows;
  const last = series.days[series.days.length - 1] ?? "";
  return new Response(statsCsv(series), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="muselingo-${name}-${series.days.length}d-${last}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
