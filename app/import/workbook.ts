// Reading a workbook's first sheet: XLSX (Excel, Numbers and LibreOffice's "Excel 2007-365") or ODS (what
// LibreOffice and OpenOffice save by default), decision 111. The archive's size is accounted first (`accountZip`:
// declared then real size of every entry, before anything is kept); then only the parts the sheet needs are
// inflated, piece by piece, through a streaming XML reader. Nothing holds a whole part as a document tree, rows
// past the limit stop the reading, and no Web Worker is needed (fflate's `unzip` wants one for large entries).
import { DomainError } from "~/errors";
import { accountZip, inflateEntry, zipDirectory, zipName, type ZipDirectoryEntry } from "./zip";
import { XmlStream, type XmlHandler } from "./xml-stream";

export type CellValue = string | number | boolean | Date | null;
export interface WorkbookRow {
  /** The row's number as the spreadsheet shows it. */
  row: number;
  cells: CellValue[];
}

export interface WorkbookLimits {
  /** Everything the archive may unpack to. */
  inflatedMax: number;
  /** Non-empty rows kept (the header included); one more is refused with `tooManyRows`. */
  maxRows: number;
  maxColumns: number;
  /** Characters of text kept in all (shared strings and cells): a workbook holds no more than a CSV may. */
  textMax: number;
  tooManyRows: () => Error;
}

export type WorkbookKind = "xlsx" | "ods";

const FIELD = "file";
const ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet";

const unreadable = (what = "XLSX") => new DomainError("invalid_input", `The spreadsheet could not be read as ${what}`, FIELD, "invalid");
const tooManyColumns = () => new DomainError("invalid_input", "The sheet has too many columns", FIELD, "too_many");
/** Not a sheet this app reads, said by name, with what to do. */
export const notASheet = (what: string) =>
  new DomainError("invalid_input", `${what} cannot be imported: open it in your spreadsheet program and save it as XLSX or CSV`, FIELD, "wrong_type");

class Stop extends Error {}

const tooMuchText = (max: number) =>
  new DomainError(
    "too_large",
    `The sheet holds more than ${max.toLocaleString("en")} characters of text in all, more than this app reads at once`,
    FIELD,
    "too_long",
  );

/** Counts the characters a reader keeps. */
class TextBudget {
  private used = 0;
  constructor(private readonly max: number) {}
  spend(text: string) {
    this.used += text.length;
    if (this.used > this.max) throw tooMuchText(this.max);
  }
}

/** Streams one part through `handler`; a handler may throw `Stop` once it has what it needs. */
function readPart(bytes: Uint8Array, entry: ZipDirectoryEntry, handler: XmlHandler) {
  const xml = new XmlStream(handler, FIELD);
  const decoder = new TextDecoder("utf-8");
  try {
    inflateEntry(bytes, entry, FIELD, (chunk) => xml.push(decoder.decode(chunk, { stream: true })));
    xml.push(decoder.decode());
    xml.end();
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
}

function partText(bytes: Uint8Array, entry: ZipDirectoryEntry): string {
  const parts: string[] = [];
  const decoder = new TextDecoder("utf-8");
  inflateEntry(bytes, entry, FIELD, (chunk) => parts.push(decoder.decode(chunk, { stream: true })));
  return parts.join("") + decoder.decode();
}

/** Collects rows, stopping at the limits; cells land at their column, empty ones are not stored. */
class RowCollector {
  readonly rows: WorkbookRow[] = [];
  constructor(private readonly limits: WorkbookLimits) {}

  setCell(cells: CellValue[], column: number, value: CellValue) {
    if (value === null || (typeof value === "string" && value.trim() === "")) return;
    if (column >= this.limits.maxColumns) throw tooManyColumns();
    while (cells.length < column) cells.push(null);
    cells[column] = value;
  }

  add(row: number, cells: CellValue[]) {
    if (cells.length === 0) return;
    if (this.rows.length >= this.limits.maxRows) throw this.limits.tooManyRows();
    this.rows.push({ row, cells });
  }
}

// ---------------------------------------------------------------------------------------------------- XLSX

/** `_x000D_` and friends: how XLSX writes characters XML cannot hold. */
const unescapeXlsx = (text: string) => text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

function columnIndex(ref: string): number {
  let n = 0;
  for (const c of ref.toUpperCase()) {
    const code = c.charCodeAt(0);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
    if (n > 16_384) break;
  }
  return n - 1;
}

/** Excel's built-in date and time formats (ECMA-376 part 1, 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return BUILTIN_DATE_FORMATS.has(id);
  // Quoted text, escaped characters, colours and conditions say nothing about dates.
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/[_*]./g, "");
  return !/general/i.test(bare) && /[dmyhs]/i.test(bare.split(";")[0] ?? "");
}

function resolvePath(base: string, target: string): string {
  if (target.startsWith("/")) return target.slice(1);
  const parts = base.split("/").filter(Boolean);
  for (const piece of target.split("/")) {
    if (piece === "..") parts.pop();
    else if (piece !== "." && piece !== "") parts.push(piece);
  }
  return parts.join("/");
}

const dirOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));

function relationships(bytes: Uint8Array, entry: ZipDirectoryEntry | undefined) {
  const out: { id: string; type: string; target: string }[] = [];
  if (!entry) return out;
  readPart(bytes, entry, {
    open: (name, a) => {
      if (name === "Relationship" && a.Target !== undefined && a.TargetMode !== "External") out.push({ id: a.Id ?? "", type: a.Type ?? "", target: a.Target });
    },
    close: () => undefined,
    text: () => undefined,
  });
  return out;
}

function readXlsx(bytes: Uint8Array, find: (path: string) => ZipDirectoryEntry | undefined, limits: WorkbookLimits): WorkbookRow[] {
  const budget = new TextBudget(limits.textMax);
  const root = relationships(bytes, find("_rels/.rels")).find((r) => r.type.endsWith("/officeDocument"));
  const workbookPath = root ? resolvePath("", root.target) : "xl/workbook.xml";
  const workbook = find(workbookPath);
  if (!workbook) throw unreadable();
  const dir = dirOf(workbookPath);
  const rels = relationships(bytes, find(`${dir ? dir + "/" : ""}_rels/${workbookPath.slice(dir ? dir.length + 1 : 0)}.rels`));

  let firstSheetId: string | null = null;
  let date1904 = false;
  readPart(bytes, workbook, {
    open: (name, a) => {
      if (name === "workbookPr") date1904 = a.date1904 === "1" || a.date1904 === "true";
      if (name === "sheet" && firstSheetId === null) firstSheetId = a.id ?? "";
    },
    close: (name) => {
      if (name === "sheets") throw new Stop();
    },
    text: () => undefined,
  });
  const sheetRel = rels.find((r) => r.id === firstSheetId) ?? rels.find((r) => r.type.endsWith("/worksheet"));
  const sheet = sheetRel ? find(resolvePath(dir, sheetRel.target)) : find("xl/worksheets/sheet1.xml");
  if (!sheet) throw unreadable();
  const partOf = (type: string, fallback: string) => {
    const rel = rels.find((r) => r.type.endsWith(type));
    return find(rel ? resolvePath(dir, rel.target) : fallback);
  };

  // Styles: which cell formats show a date.
  const dateStyles = new Set<number>();
  const stylesEntry = partOf("/styles", `${dir}/styles.xml`);
  if (stylesEntry) {
    const formats = new Map<number, string>();
    const xfFormats: number[] = [];
    let inCellXfs = false;
    readPart(bytes, stylesEntry, {
      open: (name, a) => {
        if (name === "numFmt") formats.set(Number(a.numFmtId), a.formatCode ?? "");
        else if (name === "cellXfs") inCellXfs = true;
        else if (name === "xf" && inCellXfs) xfFormats.push(Number(a.numFmtId ?? 0));
      },
      close: (name) => {
        if (name === "cellXfs") throw new Stop();
      },
      text: () => undefined,
    });
    xfFormats.forEach((id, index) => {
      if (isDateFormat(id, formats.get(id))) dateStyles.add(index);
    });
  }

  // Shared strings: a cell of type "s" is an index into them. Phonetic runs (`rPh`) are not the text.
  const shared: string[] = [];
  const sharedEntry = partOf("/sharedStrings", `${dir}/sharedStrings.xml`);
  if (sharedEntry) {
    let current: string[] | null = null;
    let inText = false;
    let phonetic = 0;
    readPart(bytes, sharedEntry, {
      open: (name) => {
        if (name === "si") current = [];
        else if (name === "rPh") phonetic++;
        else if (name === "t" && phonetic === 0) inText = true;
      },
      close: (name) => {
        if (name === "si") {
          shared.push(unescapeXlsx(current?.join("") ?? ""));
          current = null;
        } else if (name === "rPh") phonetic--;
        else if (name === "t") inText = false;
      },
      text: (text) => {
        if (inText && current) {
          budget.spend(text);
          current.push(text);
        }
      },
    });
  }

  const collector = new RowCollector(limits);
  let rowNumber = 0;
  let cells: CellValue[] = [];
  let column = -1;
  let cell: { type: string; style: number } | null = null;
  let value: string[] = [];
  let inValue = false;
  let inInline = false;
  let phonetic = 0;
  const toDate = (serial: number) => new Date(Math.round((serial + (date1904 ? 1462 : 0) - 25_569) * 86_400_000));
  readPart(bytes, sheet, {
    open: (name, a) => {
      if (name === "row") {
        rowNumber = a.r && /^\d+$/.test(a.r) ? Number(a.r) : rowNumber + 1;
        cells = [];
        column = -1;
      } else if (name === "c") {
        column = a.r ? columnIndex(a.r) : column + 1;
        if (column < 0) column = 0;
        cell = { type: a.t ?? "n", style: Number(a.s ?? 0) };
        value = [];
      } else if (name === "v" && cell) inValue = true;
      else if (name === "is" && cell) inInline = true;
      else if (name === "rPh") phonetic++;
    },
    close: (name) => {
      if (name === "v") inValue = false;
      else if (name === "is") inInline = false;
      else if (name === "rPh") phonetic--;
      else if (name === "c" && cell) {
        const raw = value.join("");
        let out: CellValue;
        if (cell.type === "s") out = shared[Number(raw)] ?? "";
        else if (cell.type === "inlineStr" || cell.type === "str") out = unescapeXlsx(raw);
        else if (cell.type === "b") out = raw === "1" ? true : raw === "0" ? false : raw;
        else if (cell.type === "e") out = raw;
        else if (cell.type === "d") out = /^\d{4}-\d{2}-\d{2}/.test(raw) ? raw.slice(0, 10) : raw;
        else if (raw.trim() === "") out = null;
        else {
          const number = Number(raw);
          out = Number.isNaN(number) ? raw : dateStyles.has(cell.style) ? toDate(number) : number;
        }
        collector.setCell(cells, column, out);
        cell = null;
      } else if (name === "row") {
        collector.add(rowNumber, cells);
        cells = [];
      } else if (name === "sheetData") throw new Stop();
    },
    text: (text) => {
      if (!cell) return;
      if (inValue || (inInline && phonetic === 0)) {
        budget.spend(text);
        value.push(text);
      }
    },
  });
  return collector.rows;
}

// ----------------------------------------------------------------------------------------------------- ODS

function readOds(bytes: Uint8Array, content: ZipDirectoryEntry, limits: WorkbookLimits): WorkbookRow[] {
  const collector = new RowCollector(limits);
  const budget = new TextBudget(limits.textMax);
  // Rows and columns repeated to the sheet's edge (LibreOffice writes 1,048,576 empty rows as one) are counted,
  // never spelled out; a repeated non-empty cell or row is, up to the limits.
  let tables = 0;
  let rowNumber = 1;
  let rowRepeat = 1;
  let cells: CellValue[] = [];
  let column = 0;
  let cell: { type: string; value?: string; date?: string; bool?: string; repeat: number; paragraphs: string[] } | null = null;
  let paragraph: string[] | null = null;
  let skipped = 0;
  const repeat = (text: string | undefined) => {
    const n = Number(text ?? 1);
    return Number.isInteger(n) && n > 0 ? n : 1;
  };
  readPart(bytes, content, {
    open: (name, a) => {
      if (name === "table" && tables++ === 0) return;
      if (tables !== 1) return;
      if (skipped > 0 || name === "annotation" || name === "frame") {
        skipped++;
        return;
      }
      if (name === "table-row") {
        rowRepeat = repeat(a["number-rows-repeated"]);
        cells = [];
        column = 0;
      } else if (name === "table-cell" || name === "covered-table-cell") {
        cell = {
          type: a["value-type"] ?? "",
          value: a.value,
          date: a["date-value"],
          bool: a["boolean-value"],
          repeat: repeat(a["number-columns-repeated"]),
          paragraphs: [],
        };
      } else if (cell && name === "p") paragraph = [];
      else if (paragraph && name === "s") paragraph.push(" ".repeat(Math.min(repeat(a.c), 1000)));
      else if (paragraph && name === "tab") paragraph.push("\t");
      else if (paragraph && name === "line-break") paragraph.push("\n");
    },
    close: (name) => {
      if (tables !== 1) return;
      if (skipped > 0) {
        skipped--;
        return;
      }
      if (name === "table") throw new Stop();
      if (name === "p" && cell && paragraph) {
        cell.paragraphs.push(paragraph.join(""));
        paragraph = null;
      } else if ((name === "table-cell" || name === "covered-table-cell") && cell) {
        const text = cell.paragraphs.join("\n");
        let value: CellValue = text;
        if (["float", "percentage", "currency"].includes(cell.type) && cell.value !== undefined && !Number.isNaN(Number(cell.value)))
          value = Number(cell.value);
        else if (cell.type === "date" && cell.date) value = cell.date.slice(0, 10);
        else if (cell.type === "boolean" && cell.bool) value = cell.bool === "true";
        if (value !== "") for (let i = 0; i < cell.repeat; i++) collector.setCell(cells, column + i, value);
        column += cell.repeat;
        cell = null;
      } else if (name === "table-row") {
        if (cells.length > 0) for (let i = 0; i < rowRepeat; i++) collector.add(rowNumber + i, i === 0 ? cells : [...cells]);
        rowNumber += rowRepeat;
        cells = [];
      }
    },
    text: (text) => {
      if (tables === 1 && skipped === 0 && paragraph) {
        budget.spend(text);
        paragraph.push(text);
      }
    },
  });
  if (tables === 0) throw unreadable("ODS");
  return collector.rows;
}

// --------------------------------------------------------------------------------------------------- entry

/** The first sheet's non-empty rows of an XLSX or ODS workbook held in `bytes` (a ZIP). */
export function readWorkbook(bytes: Uint8Array, limits: WorkbookLimits): { kind: WorkbookKind; rows: WorkbookRow[] } {
  const entries = zipDirectory(bytes);
  if (!entries) throw unreadable();
  accountZip(bytes, entries, FIELD, limits.inflatedMax, "The workbook");
  const byName = new Map<string, ZipDirectoryEntry>();
  for (const entry of entries) if (!byName.has(zipName(entry.name))) byName.set(zipName(entry.name), entry);
  const find = (path: string) => byName.get(zipName(path));
  if (find("[Content_Types].xml")) return { kind: "xlsx", rows: readXlsx(bytes, find, limits) };
  const mimetype = find("mimetype");
  const mime = mimetype && mimetype.size < 200 ? partText(bytes, mimetype).trim() : "";
  if (mime === ODS_MIME || (!mime && find("content.xml") && find("meta-inf/manifest.xml"))) {
    const content = find("content.xml");
    if (!content) throw unreadable("ODS");
    return { kind: "ods", rows: readOds(bytes, content, limits) };
  }
  if (mime.startsWith("application/vnd.oasis.opendocument.")) throw notASheet(`An OpenDocument file that is not a spreadsheet (${mime.slice(31, 80)})`);
  if (find("index/document.iwa")) throw notASheet("A Numbers file");
  throw unreadable();
}
