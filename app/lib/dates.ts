// Calendar days as museums count them: in the museum's own time zone.

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ("YYYY-MM-DD") on which `at` falls in `timeZone`; an unknown zone counts as UTC. */
export function dayInTimeZone(at: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    } catch {
      return dayInTimeZone(at, "UTC");
    }
    dayFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const DAY_MS = 86_400_000;

/** Whether `day` is a calendar day written "YYYY-MM-DD" (2026-02-30 is not). */
export function isDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === day;
}

/** "YYYY-MM-DD" → whole days since 1970-01-01, as the counters store a day (0014, decision 145). */
export function dayNumber(day: string): number {
  if (!isDay(day)) throw new RangeError(`not a day: ${day}`);
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

/** Whole days since 1970-01-01 → "YYYY-MM-DD". */
export function isoDay(n: number): string {
  return new Date(n * DAY_MS).toISOString().slice(0, 10);
}
