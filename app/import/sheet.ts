// Reading the sheet: CSV (papaparse: quotes with line breaks, BOM, `,` `;` tab or `|` detected, UTF-8 or,
// failing that, Windows-1252 as old French Excel saves it) or XLSX (read-excel-file's universal build, which
// runs in workerd). Cells come back as trimmed NFC strings; nothing is evaluated: a cell "=SUM(A1)" is text.
import Papa from "papaparse";
import { readSheet } from "read-excel-file/universal";
import { DomainError, invalidField } from "~/errors";
import { MAX_COLUMNS } from "./columns";
import { chunksOf, readZip } from "./zip";

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

export type SheetFormat = "csv" | "xlsx";

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** XLSX is a ZIP; anything else is read as CSV (a `.txt` or `.tsv` too). */
export function sheetFormat(bytes: Uint8Array): SheetFormat {
  return isZip(bytes) ? "xlsx" : "csv";
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

/** Header row first; empty rows are dropped but keep their numbers counted, so errors name the right row. */
function toSheet(records: readonly (readonly unknown[])[]): Sheet {
  const headerIndex = records.findIndex((r) => r.some((c) => cellText(c) !== ""));
  if (headerIndex < 0) throw invalidField("file", "empty");
  const headers = records[headerIndex]!.map(cellText);
  if (headers.length > MAX_COLUMNS) throw invalidField("file", "too_many");
  const rows: SheetRow[] = [];
  for (let i = headerIndex + 1; i < records.length; i++) {
    const cells = records[i]!.map(cellText);
    if (cells.every((c) => c === "")) continue;
    if (rows.length >= MAX_ROWS) throw tooManyRows();
    if (cells.some((c) => c.length > CELL_MAX_CHARS)) throw new DomainError("too_large", `Row ${i + 1} holds a cell that is too long`, "file", "too_long");
    rows.push({ row: i + 1, cells });
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
  return toSheet(result.data);
}

/** What a workbook may inflate to in all: a 10 MB file of XML that unpacks to gigabytes is refused first. */
export const XLSX_INFLATED_MAX = 48 * 1024 * 1024;

async function checkInflatedSize(bytes: Uint8Array) {
  let total = 0;
  const tooLarge = () => new DomainError("too_large", "The workbook unpacks to more than this app reads", "file", "too_long");
  await readZip(
    chunksOf(bytes),
    "file",
    () => XLSX_INFLATED_MAX - total,
    async (entry) => {
      total += entry.size;
      if (entry.truncated || total > XLSX_INFLATED_MAX) throw tooLarge();
    },
    { countOnly: true },
  );
}

export async function parseXlsx(bytes: Uint8Array): Promise<Sheet> {
  await checkInflatedSize(bytes);
  let data: unknown[][];
  try {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    data = (await readSheet(buffer)) as unknown[][];
  } catch {
    throw new DomainError("invalid_input", "The spreadsheet could not be read as XLSX", "file", "invalid");
  }
  return toSheet(data);
}

export async function parseSheet(bytes: Uint8Array): Promise<Sheet> {
  if (bytes.length === 0) throw invalidField("file", "empty");
  if (bytes.length > SHEET_MAX_BYTES) throw new DomainError("too_large", "The sheet holds at most 10 MB", "file", "too_long");
  return sheetFormat(bytes) === "xlsx" ? parseXlsx(bytes) : parseCsv(bytes);
}
