import { readFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { MAX_ROWS, parseSheet, SHEET_MAX_BYTES, XLSX_INFLATED_MAX } from "~/import/sheet";
import { isDateFormat } from "~/import/workbook";
import { XmlStream } from "~/import/xml-stream";
import { zipDirectory } from "~/import/zip";
import { excelLikeXlsx, hostileXlsx, labelRows, odsOf } from "../workbooks";

// Workbooks (issue 29 §2, decision 111): real files LibreOffice saved, Excel-like parts, ODS, hostile archives.

const fixture = (name: string) => new Uint8Array(readFileSync(join(__dirname, "../fixtures/sheets", name)));

describe("real workbooks", () => {
  it("reads LibreOffice's XLSX of 750 rows whose shared strings are 2.4 MB (fflate's unzip wanted a Web Worker for it)", async () => {
    const bytes = fixture("labels-750.xlsx");
    const strings = zipDirectory(bytes)!.find((e) => e.name === "xl/sharedStrings.xml")!;
    expect(strings.size).toBeGreaterThan(512 * 1024);
    const sheet = await parseSheet(bytes);
    expect(sheet.headers).toEqual(["Dossier", "Nom", "Adresse", "Texte", "Image"]);
    expect(sheet.rows).toHaveLength(750);
    expect(sheet.rows[0]!.row).toBe(2);
    expect(sheet.rows[749]!.row).toBe(751);
    expect(sheet.rows[749]!.cells[2]).toBe("objet-750");
    expect(sheet.rows[0]!.cells[3]).toMatch(/\n\nSecond paragraphe n° 1$/);
  });

  it("reads LibreOffice's ODS and XLSX of the same CSV as the CSV reads", async () => {
    const fromCsv = await parseSheet(fixture("small.csv"));
    expect(fromCsv.rows.map((r) => r.row)).toEqual([2, 4, 5]);
    // LibreOffice opened the CSV's "=SUM(A1)" as a formula: the workbooks hold its value, which is what is read
    // (nothing is evaluated here).
    const expected = structuredClone(fromCsv);
    expected.rows[2]!.cells[3] = "0";
    expect(await parseSheet(fixture("small.ods"))).toEqual(expected);
    expect(await parseSheet(fixture("small.xlsx"))).toEqual(expected);
  });
});

describe("XLSX as Excel writes it", () => {
  it("reads shared strings (escapes, no phonetic runs), the first sheet by its relationship, and dates", async () => {
    const sheet = await parseSheet(excelLikeXlsx([["Nom", "Texte", "Date"], ["Vase & <coupe>", "a\r\nb"], [], ["", "seul"]], { dateRow: 1 }));
    expect(sheet.headers).toEqual(["Nom", "Texte", "Date"]);
    expect(sheet.rows).toEqual([
      { row: 2, cells: ["Vase & <coupe>", "a\nb", "2023-03-15"] },
      { row: 4, cells: ["", "seul", ""] },
    ]);
  });

  it("reads 2,000 rows whose shared strings are over 5 MB, and refuses 20,000 rows by their number", async () => {
    const big = excelLikeXlsx(labelRows(MAX_ROWS, 6 * 1024 * 1024));
    const strings = zipDirectory(big)!.find((e) => e.name === "xl/sharedStrings.xml")!;
    expect(strings.size).toBeGreaterThan(5 * 1024 * 1024);
    const sheet = await parseSheet(big);
    expect(sheet.rows).toHaveLength(MAX_ROWS);
    expect(sheet.rows[MAX_ROWS - 1]!.cells[2]).toBe(`objet-${MAX_ROWS}`);

    const huge = excelLikeXlsx(labelRows(20_000, 6 * 1024 * 1024));
    await expect(parseSheet(huge)).rejects.toMatchObject({ status: 413, field: "file", reason: "too_many", message: expect.stringContaining("2000 rows") });
  });

  it("keeps no more text than the largest CSV holds (10 million characters), whatever the parts unpack to", async () => {
    const wordy = excelLikeXlsx(labelRows(100, 10.5 * 1024 * 1024));
    expect(wordy.length).toBeLessThan(SHEET_MAX_BYTES);
    await expect(parseSheet(wordy)).rejects.toMatchObject({ status: 413, field: "file", reason: "too_long", message: expect.stringContaining("characters") });
  });

  it("tells a date format from a number format", () => {
    expect(isDateFormat(14, undefined)).toBe(true);
    expect(isDateFormat(2, undefined)).toBe(false);
    expect(isDateFormat(164, "dd/mm/yyyy;@")).toBe(true);
    expect(isDateFormat(165, '0.00" days"')).toBe(false);
    expect(isDateFormat(166, "[Red]#,##0")).toBe(false);
    expect(isDateFormat(167, "General")).toBe(false);
  });
});

describe("ODS", () => {
  it("reads the first table's text paragraphs and spaces, numbers and dates, without spelling out repeated empty rows and columns", async () => {
    const ods = odsOf([
      ["Nom", "Texte"],
      ["Amphore", "Ligne 1\nDeux   espaces"],
      ["", ""],
      ["Stèle", ""],
    ]);
    const sheet = await parseSheet(ods);
    expect(sheet.headers).toEqual(["Nom", "Texte"]);
    expect(sheet.rows).toEqual([
      { row: 2, cells: ["Amphore", "Ligne 1\nDeux   espaces"] },
      { row: 4, cells: ["Stèle", ""] },
    ]);
    const typed = odsOf([], {
      contentRows:
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Nom</text:p><office:annotation><text:p>a note</text:p></office:annotation></table:table-cell><table:table-cell office:value-type="string"><text:p>Prix</text:p></table:table-cell></table:table-row>' +
        '<table:table-row table:number-rows-repeated="2"><table:table-cell office:value-type="date" office:date-value="2023-03-15T10:00:00"><text:p>15/03/23</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="0.5"><text:p>0,50 €</text:p></table:table-cell></table:table-row>',
    });
    expect(await parseSheet(typed)).toEqual({
      headers: ["Nom", "Prix"],
      rows: [
        { row: 2, cells: ["2023-03-15", "0.5"] },
        { row: 3, cells: ["2023-03-15", "0.5"] },
      ],
    });
  });

  it("refuses a non-empty row or cell repeated past the limits, by name, without spelling it out", async () => {
    const rows = odsOf([], {
      contentRows:
        '<table:table-row table:number-rows-repeated="1048576"><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>',
    });
    await expect(parseSheet(rows)).rejects.toMatchObject({ status: 413, field: "file", reason: "too_many" });
    const columns = odsOf([], {
      contentRows:
        '<table:table-row><table:table-cell table:number-columns-repeated="16384" office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row>',
    });
    await expect(parseSheet(columns)).rejects.toMatchObject({ status: 400, field: "file", reason: "too_many" });
  });

  it("names what it cannot read: another OpenDocument file, an old .xls, a Numbers file", async () => {
    const odt = odsOf([["a"]], { mimetype: "application/vnd.oasis.opendocument.text" });
    await expect(parseSheet(odt)).rejects.toMatchObject({
      status: 400,
      field: "file",
      reason: "wrong_type",
      message: expect.stringContaining("save it as XLSX or CSV"),
    });
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array(504).fill(0)]);
    await expect(parseSheet(xls)).rejects.toMatchObject({ status: 400, reason: "wrong_type", message: expect.stringContaining(".xls") });
    const numbers = zipSync({ "Index/Document.iwa": new Uint8Array(10) });
    await expect(parseSheet(numbers)).rejects.toMatchObject({ status: 400, reason: "wrong_type", message: expect.stringContaining("Numbers") });
  });
});

describe("hostile workbooks", () => {
  it("refuses issue 29's workbook (1,200 __MACOSX/pN.xml of 500 KB) from the declared sizes, before inflating anything", async () => {
    const hostile = hostileXlsx(excelLikeXlsx([["Nom"], ["a"]]));
    expect(hostile.length).toBeLessThan(1024 * 1024);
    await expect(parseSheet(hostile)).rejects.toMatchObject({
      status: 413,
      field: "file",
      reason: "too_long",
      message: expect.stringMatching(/unpacks to 586 MB or more in 1,208 files \(1,200 of them __MACOSX/),
    });
    // Inflating 586 MB takes seconds; reading a directory does not. Not one copy was inflated: with bytes no
    // inflater accepts, the refusal is still the one for their declared size, not a damaged archive's.
    const unreadable = hostileXlsx(excelLikeXlsx([["Nom"], ["a"]]), 1200, 500 * 1024, { unreadable: true });
    await expect(parseSheet(unreadable)).rejects.toMatchObject({ status: 413, reason: "too_long", message: expect.stringMatching(/unpacks to 586 MB/) });
    // Past the declared-size check, those bytes are refused as damaged: they would show an inflation.
    const few = hostileXlsx(excelLikeXlsx([["Nom"], ["a"]]), 2, 500 * 1024, { unreadable: true });
    await expect(parseSheet(few)).rejects.toMatchObject({ status: 400, reason: "invalid" });
  });

  it("counts every entry's real size too: an entry that declares less than it holds is refused before any part is read", async () => {
    const parts = unzipSync(excelLikeXlsx([["Nom"], ["a"]]));
    const zip = zipSync({ ...parts, "__MACOSX/p0.xml": new Uint8Array(4 * 1024 * 1024) }, { level: 9 });
    // The central directory now says the padding is 10 bytes.
    const entry = zipDirectory(zip)!.find((e) => e.name === "__MACOSX/p0.xml")!;
    const view = new DataView(zip.buffer, zip.byteOffset);
    const central = findCentral(zip, "__MACOSX/p0.xml");
    view.setUint32(central + 24, 10, true);
    expect(zipDirectory(zip)!.find((e) => e.name === entry.name)!.size).toBe(10);
    await expect(parseSheet(zip)).rejects.toMatchObject({ status: 400, field: "file", message: "The archive is damaged" });
    // The same parts, honest, are read; the limit is every part together.
    expect((await parseSheet(zipSync({ ...parts, "__MACOSX/p0.xml": new Uint8Array(1000) }))).rows).toHaveLength(1);
    const over = zipSync(
      { ...parts, "__MACOSX/a.xml": new Uint8Array(XLSX_INFLATED_MAX / 2), "__MACOSX/b.xml": new Uint8Array(XLSX_INFLATED_MAX / 2) },
      { level: 1 },
    );
    await expect(parseSheet(over)).rejects.toMatchObject({ status: 413, reason: "too_long" });
  });

  it("refuses a DOCTYPE (entity expansion) and a part that is not XML", async () => {
    const parts = unzipSync(excelLikeXlsx([["Nom"], ["a"]]));
    const doctype = zipSync({ ...parts, "xl/sharedStrings.xml": strToU8('<!DOCTYPE x [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>') });
    await expect(parseSheet(doctype)).rejects.toMatchObject({ status: 400, field: "file" });
    const broken = zipSync({ ...parts, "xl/worksheets/sheet1.xml": strToU8('<worksheet><sheetData><row><c t="s"><v>0</v></c></row></sheetData') });
    await expect(parseSheet(broken)).rejects.toMatchObject({ status: 400, field: "file" });
  });
});

describe("XmlStream", () => {
  it("gives the same events whatever the chunks, one character at a time included", () => {
    const doc = '<?xml version="1.0"?><!-- a > b --><a x="1 > 0" y=\'&quot;\'>t&amp;u<![CDATA[<raw>]]><b/>é&#x1F600;</a>';
    const run = (chunks: string[]) => {
      const events: string[] = [];
      const stream = new XmlStream(
        {
          open: (name, attrs, self) => events.push(`open ${name} ${JSON.stringify(attrs)} ${self}`),
          close: (name) => events.push(`close ${name}`),
          text: (text) => events.push(`text ${text}`),
        },
        "file",
      );
      for (const chunk of chunks) stream.push(chunk);
      stream.end();
      return events
        .filter((e) => e !== "text ")
        .join("|")
        .replace(/\|text /g, "");
    };
    const whole = run([doc]);
    expect(whole).toBe('open a {"x":"1 > 0","y":"\\""} falset&u<raw>|open b {} true|close bé😀|close a');
    expect(run([...doc])).toBe(whole);
    expect(run([doc.slice(0, 17), doc.slice(17, 40), doc.slice(40)])).toBe(whole);
  });
});

function findCentral(zip: Uint8Array, name: string): number {
  const wanted = strToU8(name);
  for (let at = 0; at < zip.length - 46; at++) {
    if (zip[at] === 0x50 && zip[at + 1] === 0x4b && zip[at + 2] === 0x01 && zip[at + 3] === 0x02) {
      const length = zip[at + 28]! | (zip[at + 29]! << 8);
      if (length === wanted.length && zip.subarray(at + 46, at + 46 + length).every((b, i) => b === wanted[i])) return at;
    }
  }
  throw new Error("no such entry");
}
