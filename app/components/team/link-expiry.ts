/**
 * When an invitation or a reset link expires, written the same way on /team and on the link's own page: the
 * museum's time zone, named ("3 déc. 2026, 22:20 UTC+1"), so an admin in Paris and an invitee abroad read one
 * time (decision 124). A zone the runtime does not know falls back to UTC, named too.
 */
export function linkExpiryFormat(locale: string, timeZone: string): (at: number) => string {
  const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
  } catch {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
  }
  return (at) => format.format(new Date(at));
}
