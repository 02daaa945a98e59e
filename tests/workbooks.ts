// Workbooks made in the tests (unit and integration): big and hostile ones are generated here rather than kept
// in git (issue 29 §2). The real files LibreOffice saved are in tests/fixtures/sheets.
import { strToU8, zipSync, type Zippable } from "fflate";
import { concatBytes } from "~/lib/bytes";

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * An XLSX as Excel writes it: text in a shared-string table (`t="s"` cells, `_x000D_` escapes, a phonetic run
 * that is not the text), a styles part whose second format shows dates, a date cell (serial 45000 =
 * 2023-03-15). `extra` adds entries (a `__MACOSX` copy, padding).
 */
export function excelLikeXlsx(rows: readonly (readonly string[])[], options: { dateRow?: number; extra?: Zippable; level?: 0 | 1 | 6 | 9 } = {}): Uint8Array {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const sheetRows = rows
    .map((cells, r) => {
      const inner = cells
        .map((cell, c) => {
          if (cell === "") return "";
          let i = index.get(cell);
          if (i === undefined) index.set(cell, (i = strings.push(cell) - 1));
          return `<c r="${columnName(c)}${r + 1}" s="0" t="s"><v>${i}</v></c>`;
        })
        .join("");
      const date = options.dateRow === r ? `<c r="${columnName(cells.length)}${r + 1}" s="1"><v>45000</v></c>` : "";
      return `<row r="${r + 1}" spans="1:${cells.length}">${inner}${date}</row>`;
    })
    .join("");
  const sst = strings.map((s) => `<si><t xml:space="preserve">${xml(s).replace(/\r/g, "_x000D_")}</t><rPh sb="0" eb="1"><t>ヨミ</t></rPh></si>`).join("");
  const files: Record<string, string> = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>',
    "_rels/.rels":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><workbookPr/><sheets><sheet name="Cartels" sheetId="1" r:id="rId3"/><sheet name="Autre" sheetId="2" r:id="rId4"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet1.xml"/></Relationships>',
    "xl/styles.xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy;@"/></numFmts><cellStyleXfs count="1"><xf numFmtId="164"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0"/><xf numFmtId="164" fontId="0" applyNumberFormat="1"/></cellXfs></styleSheet>',
    "xl/sharedStrings.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${sst}</sst>`,
    "xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1"/><sheetData>${sheetRows}</sheetData><pageMargins left="0.7"/></worksheet>`,
    "xl/worksheets/sheet2.xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Not the first sheet</t></is></c></row></sheetData></worksheet>',
  };
  const zippable: Zippable = Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)]));
  return zipSync({ ...zippable, ...options.extra }, { level: options.level ?? 6 });
}

/** An ODS as LibreOffice writes it: `mimetype` first and stored, cells of text paragraphs, repeats. */
export function odsOf(rows: readonly (readonly string[])[], options: { mimetype?: string; contentRows?: string } = {}): Uint8Array {
  const cell = (text: string) =>
    text === ""
      ? "<table:table-cell/>"
      : `<table:table-cell office:value-type="string" calcext:value-type="string">${text
          .split("\n")
          .map((line) => `<text:p>${xml(line).replace(/ {2,}/g, (s) => ` <text:s text:c="${s.length - 1}"/>`)}</text:p>`)
          .join("")}</table:table-cell>`;
  const body =
    options.contentRows ??
    rows
      .map(
        (cells) =>
          `<table:table-row table:style-name="ro1">${cells.map(cell).join("")}<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`,
      )
      .join("") + '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>';
  const content = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"><office:body><office:spreadsheet><table:table table:name="Feuille1"><table:table-column table:number-columns-repeated="1024"/>${body}</table:table><table:table table:name="Feuille2"><table:table-row><table:table-cell office:value-type="string"><text:p>Not the first sheet</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document-content>`;
  return zipSync(
    {
      mimetype: [strToU8(options.mimetype ?? "application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
      "META-INF/manifest.xml": strToU8(
        '<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
      ),
      "content.xml": strToU8(content),
    },
    { level: 6 },
  );
}

/**
 * The workbook from issue 29: a small valid sheet plus `count` entries `__MACOSX/pN.xml` of `entryBytes` each
 * (the same compressed data under many names: a few hundred bytes each on the wire, ~600 MB inflated).
 * `unreadable: true` replaces the copies' compressed bytes with ones no inflater accepts (a reserved block
 * type): a reader that inflates any of them fails as on a damaged archive, so a refusal for their declared
 * size shows that none was inflated.
 */
export function hostileXlsx(workbook: Uint8Array, count = 1200, entryBytes = 500 * 1024, { unreadable = false } = {}): Uint8Array {
  const filler = strToU8(`<?xml version="1.0"?><x>${"a".repeat(entryBytes - 26)}</x>`);
  const one = zipSync({ f: filler }, { level: 9 });
  // The one entry's CRC and compressed bytes, read back from fflate's central directory.
  const view = new DataView(one.buffer, one.byteOffset, one.byteLength);
  const eocd = one.length - 22;
  const central = view.getUint32(eocd + 16, true);
  const crc = view.getUint32(central + 16, true);
  const compressedSize = view.getUint32(central + 20, true);
  const dataStart = 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const compressed = unreadable ? new Uint8Array(compressedSize).fill(0xff) : one.subarray(dataStart, dataStart + compressedSize);

  // The valid workbook's entries first, then the copies, then one central directory for all.
  const base = new DataView(workbook.buffer, workbook.byteOffset, workbook.byteLength);
  const baseEnd = workbook.length - 22;
  const baseCount = base.getUint16(baseEnd + 10, true);
  const baseCentralSize = base.getUint32(baseEnd + 12, true);
  const baseCentral = base.getUint32(baseEnd + 16, true);
  const locals: Uint8Array[] = [workbook.subarray(0, baseCentral)];
  const centrals: Uint8Array[] = [workbook.subarray(baseCentral, baseCentral + baseCentralSize)];
  let offset = baseCentral;
  for (let i = 0; i < count; i++) {
    const name = strToU8(`__MACOSX/p${i}.xml`);
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(8, 8, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, compressed.length, true);
    l.setUint32(22, filler.length, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const entry = new Uint8Array(46 + name.length);
    const c = new DataView(entry.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, 20, true);
    c.setUint16(6, 20, true);
    c.setUint16(10, 8, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, compressed.length, true);
    c.setUint32(24, filler.length, true);
    c.setUint16(28, name.length, true);
    c.setUint32(42, offset, true);
    entry.set(name, 46);
    locals.push(local, compressed);
    centrals.push(entry);
    offset += local.length + compressed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, baseCount + count, true);
  e.setUint16(10, baseCount + count, true);
  e.setUint32(12, centralSize, true);
  e.setUint32(16, offset, true);
  return concatBytes([...locals, ...centrals, end]);
}

/** `n` rows of labels whose texts fill the shared-string table to about `sharedBytes`. */
export function labelRows(n: number, sharedBytes: number): string[][] {
  const textLength = Math.max(20, Math.floor(sharedBytes / n) - 40);
  const words = ["amphore", "stèle", "œuvre", "Ελληνικά", "東京", "céramique", "émaillée", "siècle", "bronze", "naïve"];
  const rows: string[][] = [["Dossier", "Nom", "Adresse", "Texte"]];
  let seed = 7;
  for (let i = 1; i <= n; i++) {
    let text = `${i}. `;
    while (text.length < textLength) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      text += words[seed % words.length] + (seed % 13 === 0 ? "\n\n" : " ");
    }
    rows.push([`Salle ${(i % 7) + 1}`, `Objet ${i}`, `objet-${i}`, text.trim()]);
  }
  return rows;
}
