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
