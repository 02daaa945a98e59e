// Pure helpers shared by the charts and their tables (no React, no chart.js): unit-tested.

/** The spec's default palette of six colours, each at least 3:1 against white (WCAG 1.4.11). */
// Twelve colours, each at least 3:1 against the white chart background; series past twelve repeat.
export const PALETTE = [
  "#7b2cbf",
  "#1b7f74",
  "#c2410c",
  "#264653",
  "#a16207",
  "#2563eb",
  "#be185d",
  "#4d7c0f",
  "#b91c1c",
  "#0369a1",
  "#57534e",
  "#854d0e",
] as const;

export interface ChartData {
  /** "YYYY-MM-DD", oldest first. */
  days: string[];
  rows: Record<string, string | number>[];
  /** Series keys, largest total first. */
  keys: string[];
  totals: Record<string, number>;
  total: number;
}

export interface LabelledSeries {
  key: string;
  label: string;
  data: number[];
  total: number;
  color: string;
}

/** One series per key, a count for every day (0 where the row has none), the palette in turn. */
export function toSeries(chart: ChartData, labelFor: (key: string) => string): LabelledSeries[] {
  return chart.keys.map((key, i) => ({
    key,
    label: labelFor(key),
    data: chart.rows.map((row) => Number(row[key] ?? 0)),
    total: chart.totals[key] ?? 0,
    color: PALETTE[i % PALETTE.length]!,
  }));
}

const utcDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** "15 mars" / "Mar 15": the x axis. */
export function shortDay(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" }).format(utcDate(day));
}

/** "dimanche 15 mars 2026" / "Sunday, March 15, 2026": tooltips and table headers for screen readers. */
export function longDay(day: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" }).format(utcDate(day));
}
