// The audit log as CSV (decision 043): RFC 4180 (quoted where needed, CRLF), UTF-8 with a BOM so
// spreadsheet programs read accents right, and no cell a spreadsheet would run as a formula.
import { wallClock } from "~/lib/zoned-time";
import type { AuditEntryView } from "./query.server";

export const CSV_BOM = "\uFEFF";

/** A cell as RFC 4180 wants it; a text a spreadsheet would take for a formula starts with ' instead. */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export const csvRow = (cells: readonly string[]) => `${cells.map(csvCell).join(",")}\r\n`;

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
