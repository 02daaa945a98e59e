// The audit log as CSV (decision 043): RFC 4180 (quoted where needed, CRLF), UTF-8 with a BOM so
// spreadsheet programs read accents right, and no cell a spreadsheet would run as a formula.
import type { AuditEntryView } from "./query.server";

export const CSV_BOM = "\uFEFF";

/** A cell as RFC 4180 wants it; a text a spreadsheet would take for a formula starts with ' instead. */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(",")}\r\n`;

const stampFormats = new Map<string, Intl.DateTimeFormat>();

/** "YYYY-MM-DD HH:MM:SS" on the museum's wall clock. */
export function wallClock(at: number, timeZone: string): string {
  let format = stampFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-CA", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      });
    } catch {
      return wallClock(at, "UTC");
    }
    stampFormats.set(timeZone, format);
  }
  const p = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** The detail as "key: value; key: value" (arrays joined with ", "). */
export function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v)}`)
    .join("; ");
}

export function csvHeader(timeZone: string): string {
  return CSV_BOM + csvRow([`date (${timeZone})`, "person", "action", "target", "details"]);
}

export function csvEntry(entry: AuditEntryView, timeZone: string): string {
  const person = entry.actorEmail || (entry.actorId === null ? "system" : `user:${entry.actorId}`);
  return csvRow([wallClock(entry.at, timeZone), person, entry.action, entry.target, detailText(entry.detail)]);
}
