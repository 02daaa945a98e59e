// Wall-clock times in a museum's time zone (decisions 041, 043): "Publish at 2027-03-01 09:00" means 09:00
// where the museum is, whatever the editor's computer or the Worker's clock says; the audit log's days and
// times are the museum's too. Pure, no imports. (Calendar days alone: dates.ts's dayInTimeZone.)

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string): Intl.DateTimeFormat {
  let found = formats.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, found);
  }
  return found;
}

/** True when Intl knows the zone. */
export function knownTimeZone(timeZone: string): boolean {
  try {
    format(timeZone);
    return true;
  } catch {
    return false;
  }
}

interface Wall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The zone's wall clock at `at`; an unknown zone reads as UTC. */
function wallOf(at: number, timeZone: string): Wall & { second: number } {
  const parts = Object.fromEntries((knownTimeZone(timeZone) ? format(timeZone) : format("UTC")).formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** "YYYY-MM-DD HH:MM:SS" on the zone's wall clock (an unknown zone reads as UTC). */
export function wallClock(at: number, timeZone: string): string {
  const w = wallOf(at, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${String(w.year).padStart(4, "0")}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** The zone's offset from UTC at `at`, in ms (Paris in winter: +3,600,000); an unknown zone counts as UTC. */
export function offsetAt(at: number, timeZone: string): number {
  const w = wallOf(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;
// An absolute instant: date, time (seconds and fraction optional) and an explicit offset or Z.
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant a publication time names, or null when it is not one of the two accepted forms:
 * - ISO 8601 with an offset or `Z` ("2027-03-01T08:00:00Z", "2027-03-01T09:00+01:00"): that instant;
 * - the museum's wall clock "YYYY-MM-DDTHH:mm" (what a datetime-local field sends): that time in `timeZone`.
 *   A time skipped when clocks go forward is read as the same wall time after the change (02:30 → 03:30);
 *   a time that happens twice when clocks go back is its first occurrence.
 */
export function parsePublicationTime(value: string, timeZone: string): number | null {
  if (ABSOLUTE.test(value)) {
    const at = Date.parse(value);
    return Number.isFinite(at) && validCalendar(value.slice(0, 16)) ? at : null;
  }
  const m = LOCAL.exec(value);
  if (!m || !validCalendar(value)) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  // Two passes find the offset in force at the wanted wall time, DST changes included.
  const first = guess - offsetAt(guess, timeZone);
  const second = guess - offsetAt(first, timeZone);
  const w = wallOf(second, timeZone);
  if (w.hour === hour && w.minute === minute && w.day === day) {
    // Clocks going back: the earlier of two instants with this wall time.
    const earlier = second - 3_600_000;
    const e = wallOf(earlier, timeZone);
    return e.hour === hour && e.minute === minute && e.day === day ? earlier : second;
  }
  // In a gap (clocks going forward): the wall time read with the offset before the change.
  return Math.max(first, second);
}

/** "2027-02-30T10:00" is not a date; hours 00–23 and minutes 00–59 only. */
function validCalendar(local: string): boolean {
  const m = LOCAL.exec(local.slice(0, 16));
  if (!m) return false;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
