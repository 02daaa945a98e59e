// Reading the sheet: CSV (papaparse: quotes with line breaks, BOM, `,` `;` tab or `|` detected, UTF-8 or,
// failing that, Windows-1252 as old French Excel saves it), XLSX or ODS (./workbook: streamed, its size accounted
// first, decision 111). Cells come back as trimmed NFC strings; nothing is evaluated: a cell "=SUM(A1)" is text.
import Papa from "papaparse";
import { DomainError, invalidField } from "~/errors";
import { MAX_COLUMNS } from "./columns";
import { notASheet, readWorkbook } from "./workbook";

export const SHEET_MAX_BYTES = 10 * 1024 * 1024;
export const MAX_ROWS = 2000;
/** A cell longer than this is refused (the longest field, text, holds 20,000 characters). */
export const CELL_MAX_CHARS = 100_000;

export interface SheetRow {
  /** The row's number as the spreadsheet shows it (the header is row 1). */
  row: number;
  cells: string[];
}

export interface Sheet {
  headers: string[];
  rows: SheetRow[];
}

export type SheetFormat = "csv" | "workbook" | "xls";

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
/** Compound File Binary, Excel 97-2003's `.xls` (and old Works and StarOffice files). */
const isCompoundFile = (bytes: Uint8Array) => [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => bytes[i] === b);

/** XLSX and ODS are ZIPs; an old binary workbook is named; anything else is read as CSV (`.txt`, `.tsv` too). */
export function sheetFormat(bytes: Uint8Array): SheetFormat {
  return isZip(bytes) ? "workbook" : isCompoundFile(bytes) ? "xls" : "csv";
}

function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Excel's "CSV (séparateur : point-virgule)" writes the Windows code page, not UTF-8.
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString().slice(0, 10);
  return String(value).replace(/\r\n?/g, "\n").normalize("NFC").trim();
}

function tooManyRows(): DomainError {
  return new DomainError("too_large", `A sheet holds at most ${MAX_ROWS} rows of articles`, "file", "too_many");
}

/**
 * Header row first; empty rows are dropped but keep their numbers (`row`), so errors name the right row. The
 * header row is as wide as the widest row (as spreadsheets show it: a column without a header still counts).
 */
function toSheet(records: readonly { row: number; cells: readonly unknown[] }[], padHeaders: boolean): Sheet {
  const headerIndex = records.findIndex((r) => r.cells.some((c) => cellText(c) !== ""));
  if (headerIndex < 0) throw invalidField("file", "empty");
  const width = records.reduce((n, r) => Math.max(n, r.cells.length), 0);
  const headerCells = records[headerIndex]!.cells;
  const headers = Array.from({ length: padHeaders ? width : headerCells.length }, (_, i) => cellText(headerCells[i]));
  if (headers.length > MAX_COLUMNS) throw invalidField("file", "too_many");
  const rows: SheetRow[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const { row, cells: raw } = records[i]!;
    const cells = Array.from({ length: padHeaders ? width : raw.length }, (_, c) => cellText(raw[c]));
    if (cells.every((c) => c === "")) continue;
    if (rows.length >= MAX_ROWS) throw tooManyRows();
    if (cells.some((c) => c.length > CELL_MAX_CHARS)) throw new DomainError("too_large", `Row ${row} holds a cell that is too long`, "file", "too_long");
    rows.push({ row, cells });
  }
  return { headers, rows };
}

const DELIMITERS = [";", ",", "\t", "|"] as const;

/**
 * The delimiter the header line uses most (outside quotes). papaparse's own guess compares field counts over
 * the first rows and gives up on rows whose quoted cells hold line breaks, which museum texts always do.
 */
export function guessDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (let i = 0; i < text.length && i < 64 * 1024; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) break;
    else if (!quoted && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  let best = ",";
  let most = 0;
  for (const [d, n] of counts) if (n > most) [best, most] = [d, n];
  return best;
}

export function parseCsv(bytes: Uint8Array): Sheet {
  const text = decodeText(bytes).replace(/^\ufeff/, "");
  const result = Papa.parse<string[]>(text, {
    delimiter: guessDelimiter(text),
    skipEmptyLines: false,
    // Leading "=" stays: nothing here is a formula, and papaparse never evaluates.
    dynamicTyping: false,
  });
  // papaparse reports quote problems but still returns its best reading; an unclosed quote swallows the rest
  // of the file into one cell, which the person must fix.
  const fatal = result.errors.find((e) => e.code === "MissingQuotes");
  if (fatal) throw new DomainError("invalid_input", `The CSV file has an unclosed quote (row ${(fatal.row ?? 0) + 2})`, "file", "invalid");
  return toSheet(
    result.data.map((cells, i) => ({ row: i + 1, cells })),
    false,
  );
}

/** What a workbook may inflate to in all, every part counted: a 10 MB file that unpacks to gigabytes is refused first. */
export const XLSX_INFLATED_MAX = 48 * 1024 * 1024;

/**
 * The text a workbook's reader keeps (shared strings and cells), in characters: what the largest CSV (10 MB)
 * can hold. Kept as JavaScript strings, text outside Latin-1 takes two bytes a character: 20 MB at most, within
 * a Worker's 128 MB beside the request and the plan.
 */
export const WORKBOOK_TEXT_MAX = SHEET_MAX_BYTES;

/** An XLSX or ODS workbook's first sheet (its ZIP's size accounted before any part is read). */
export function parseWorkbook(bytes: Uint8Array): Sheet {
  const { rows } = readWorkbook(bytes, {
    inflatedMax: XLSX_INFLATED_MAX,
    maxRows: MAX_ROWS + 1,
    maxColumns: MAX_COLUMNS,
    textMax: WORKBOOK_TEXT_MAX,
    tooManyRows,
  });
  return toSheet(rows, true);
}

export async function parseSheet(bytes: Uint8Array): Promise<Sheet> {
  if (bytes.length === 0) throw invalidField("file", "empty");
  if (bytes.length > SHEET_MAX_BYTES) throw new DomainError("too_large", "The sheet holds at most 10 MB", "file", "too_long");
  const format = sheetFormat(bytes);
  if (format === "xls") throw notASheet("An Excel 97-2003 workbook (.xls)");
  return format === "workbook" ? parseWorkbook(bytes) : parseCsv(bytes);
}
