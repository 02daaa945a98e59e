import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { guessMapping, headerKey, IMPORT_FIELDS, mappingSchema, resolveMapping, TEMPLATE_HEADERS } from "~/import/columns";
import { paragraphText, readRow, rowContent } from "~/import/row";
import { guessDelimiter, MAX_ROWS, parseSheet } from "~/import/sheet";
import { templateCsv, templateXlsx, xlsxOf } from "~/import/template";
import { chunksOf, readZip } from "~/import/zip";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("parseSheet (CSV)", () => {
  it("reads French Excel's semicolons with a BOM and quoted cells holding line breaks and semicolons", async () => {
    const sheet = await parseSheet(bytes('\ufeffNom;Texte\r\n"Vase; grec";"Ligne 1\r\n\r\nLigne 2"\r\n'));
    expect(sheet.headers).toEqual(["Nom", "Texte"]);
    expect(sheet.rows).toEqual([{ row: 2, cells: ["Vase; grec", "Ligne 1\n\nLigne 2"] }]);
  });

  it("guesses the delimiter from the header line, outside quotes", () => {
    expect(guessDelimiter("a;b;c\n1,2;3")).toBe(";");
    expect(guessDelimiter('"a;b",c,d\n')).toBe(",");
    expect(guessDelimiter("a\tb\n")).toBe("\t");
    expect(guessDelimiter("Nom\n")).toBe(",");
  });

  it("drops empty rows but keeps the spreadsheet's row numbers", async () => {
    const sheet = await parseSheet(bytes("Nom,Texte\n,\n\nA,x\n  ,  \nB,y"));
    expect(sheet.rows.map((r) => [r.row, r.cells[0]])).toEqual([
      [4, "A"],
      [6, "B"],
    ]);
  });

  it("keeps formulas and leading = as text, and odd Unicode as NFC", async () => {
    const decomposed = "Cafe\u0301";
    const sheet = await parseSheet(bytes(`Nom,Texte\n=SUM(A1:A3),"=HYPERLINK(""http://x"")"\n${decomposed},👩🏽‍🎨 مرحبا\n`));
    expect(sheet.rows[0]!.cells).toEqual(["=SUM(A1:A3)", '=HYPERLINK("http://x")']);
    expect(sheet.rows[1]!.cells[0]).toBe("Café");
    expect(sheet.rows[1]!.cells[0]!.length).toBe(4);
    expect(sheet.rows[1]!.cells[1]).toBe("👩🏽‍🎨 مرحبا");
  });

  it("falls back to Windows-1252 when the bytes are not UTF-8", async () => {
    const sheet = await parseSheet(new Uint8Array([0x4e, 0x6f, 0x6d, 0x0a, 0xc9, 0x74, 0xe9, 0x0a]));
    expect(sheet.rows[0]!.cells).toEqual(["Été"]);
  });

  it("refuses an unclosed quote, an empty file and more than 2,000 rows", async () => {
    await expect(parseSheet(bytes('Nom\n"open\n'))).rejects.toMatchObject({ status: 400, field: "file" });
    await expect(parseSheet(bytes(""))).rejects.toMatchObject({ status: 400, field: "file", reason: "empty" });
    await expect(parseSheet(bytes("\n\n  \n"))).rejects.toMatchObject({ status: 400, field: "file", reason: "empty" });
    const rows = Array.from({ length: MAX_ROWS + 1 }, (_, i) => `a${i}`).join("\n");
    await expect(parseSheet(bytes(`Nom\n${rows}`))).rejects.toMatchObject({ status: 413, field: "file", reason: "too_many" });
    const ok = Array.from({ length: MAX_ROWS }, (_, i) => `a${i}`).join("\n");
    expect((await parseSheet(bytes(`Nom\n${ok}`))).rows).toHaveLength(MAX_ROWS);
  });
});

describe("parseSheet (XLSX) and the templates", () => {
  it("reads a workbook's first sheet, numbers as text, and the templates read back as written", async () => {
    const sheet = await parseSheet(xlsxOf([["Nom", "Texte"], ["<b>&amp;", "a\nb"], [], ["x", ""]]));
    expect(sheet.rows).toEqual([
      { row: 2, cells: ["<b>&amp;", "a\nb"] },
      { row: 4, cells: ["x", ""] },
    ]);
    for (const locale of ["fr", "en"] as const) {
      const fromCsv = await parseSheet(bytes(templateCsv(locale)));
      const fromXlsx = await parseSheet(templateXlsx(locale));
      expect(fromCsv).toEqual(fromXlsx);
      expect(guessMapping(fromCsv.headers)).toEqual(Object.fromEntries(IMPORT_FIELDS.map((f, i) => [f, i])));
    }
    expect(templateCsv("fr").split("\r\n")[0]).toContain('"Dossier";"Nom"');
  });

  it("refuses a ZIP that is not a workbook", async () => {
    await expect(parseSheet(zipSync({ "a.txt": strToU8("x") }))).rejects.toMatchObject({ status: 400, field: "file" });
  });
});

describe("columns", () => {
  it("guesses from fr and en headers, ignoring case, accents and punctuation, one field per column", () => {
    expect(headerKey(" Libellé du lien ")).toBe("libelledulien");
    expect(guessMapping(["TITRE", "Légende", "URL", "url", "alt_text", "Photo"])).toEqual({ name: 0, legend: 1, linkUrl: 2, alt: 4, image: 5 });
    expect(guessMapping(Object.values(TEMPLATE_HEADERS.en))).toMatchObject({ linkLabel: 7, linkUrl: 8 });
  });

  it("accepts indexes or headers and names the field that maps nothing", () => {
    const input = mappingSchema.parse({ name: "Nom", text: 2, image: null });
    expect(resolveMapping(input, ["Dossier", "Nom", "Texte"])).toEqual({ ok: true, mapping: { name: 1, text: 2 } });
    expect(resolveMapping({ name: 5 }, ["Nom"])).toEqual({ ok: false, field: "name" });
    expect(mappingSchema.safeParse({ nom: 1 }).success).toBe(false);
    expect(mappingSchema.safeParse({ name: 1.5 }).success).toBe(false);
  });
});

describe("readRow and rowContent", () => {
  const mapping = { folder: 0, name: 1, address: 2, text: 3, image: 4, alt: 5, legend: 6, linkLabel: 7, linkUrl: 8 };

  it("splits paragraphs on blank lines (spaces count as blank) and keeps single line breaks", () => {
    expect(paragraphText("  A\nB  \n \t \n\n\nC  ")).toBe("A\nB\n\nC");
  });

  it("builds the folder path, the address from the name, and the elements in reading order", () => {
    const { fields, errors } = readRow([" /Salle 2 / Vitrine 3/ ", "Éléphant d'Afrique", "", "T", "a.png", "Alt", "", "Voir", "https://example.org"], mapping);
    expect(errors).toEqual([]);
    expect(fields).toMatchObject({ folderPath: ["Salle 2", "Vitrine 3"], slug: "elephant-d-afrique" });
    const content = rowContent(fields, "/media/m/1/image/x.png");
    expect(content.map((e) => e.type)).toEqual(["metadatas", "text", "image", "link"]);
  });

  it("puts the title (the text's first line, the page's heading) above the picture, the rest of the text below it", () => {
    const { fields } = readRow(["", "Amphore", "", "Amphore attique\nvers 530 av. J.-C.\n\nTerre cuite.", "a.png", "Une amphore", "", "", ""], mapping);
    const content = rowContent(fields, "/media/m/1/image/x.png");
    expect(content.slice(1).map((e) => [e.type, "content" in e ? e.content : ""])).toEqual([
      ["text", "Amphore attique"],
      ["image", ""],
      ["text", "vers 530 av. J.-C.\n\nTerre cuite."],
    ]);
    // With a legend the picture is a legend item, in the same place; without a picture the text stays whole.
    const legend = rowContent({ ...fields, legend: "Athènes" }, "/media/m/1/image/x.png");
    expect(legend.slice(1).map((e) => e.type)).toEqual(["text", "legendItem", "text"]);
    expect(
      rowContent(fields, "")
        .slice(1)
        .map((e) => e.type),
    ).toEqual(["text"]);
  });

  it("names each problem's column", () => {
    const { errors } = readRow(["a/../b", "", "Bad Slug", "x".repeat(20_001), "", "y".repeat(501), "", "label", "ftp://x"], mapping);
    expect(errors).toEqual([
      { column: "folder", reason: "dot_name" },
      { column: "name", reason: "required" },
      { column: "address", reason: "invalid" },
      { column: "text", reason: "too_long" },
      { column: "alt", reason: "too_long" },
      { column: "linkUrl", reason: "unsafe_url" },
    ]);
    expect(readRow(["", "\u202eevil", "", "", "", "", "", "", ""], mapping).errors).toEqual([{ column: "name", reason: "forbidden_characters" }]);
    expect(readRow([Array.from({ length: 21 }, (_, i) => `d${i}`).join("/"), "n"], mapping).errors).toEqual([{ column: "folder", reason: "too_deep" }]);
  });
});

describe("readZip", () => {
  it("inflates only the entries asked for, each up to its cap", async () => {
    const zip = zipSync({
      "a.png": new Uint8Array(100).fill(1),
      "b.png": new Uint8Array(5000).fill(2),
      "c.txt": strToU8("skip"),
      "__MACOSX/a.png": new Uint8Array(3),
    });
    const seen: [string, number, boolean][] = [];
    const names = await readZip(
      chunksOf(zip, 7),
      "images",
      (name) => (name.endsWith(".png") ? 1000 : null),
      async (e) => {
        seen.push([e.name, e.data.length, e.truncated]);
      },
    );
    expect(names).toHaveLength(4);
    expect(seen).toEqual([
      ["a.png", 100, false],
      ["b.png", 1001, true],
    ]);
  });

  it("refuses a cut-short or non-ZIP archive", async () => {
    const zip = zipSync({ "a.png": new Uint8Array(100) });
    await expect(
      readZip(
        chunksOf(zip.subarray(0, zip.length - 10)),
        "images",
        () => 10,
        async () => {},
      ),
    ).rejects.toMatchObject({ status: 400, field: "images" });
    await expect(
      readZip(
        chunksOf(strToU8("not a zip at all")),
        "images",
        () => 10,
        async () => {},
      ),
    ).rejects.toMatchObject({ status: 400, field: "images" });
  });
});

describe("XLSX bombs", () => {
  it("refuses a workbook that inflates past the limit before reading it", async () => {
    const { XLSX_INFLATED_MAX } = await import("~/import/sheet");
    const sheet = xlsxOf([["Nom"], ["a"]]);
    // The same workbook plus one highly compressible part: a few KB on the wire, over the limit inflated.
    const { unzipSync } = await import("fflate");
    const parts = unzipSync(sheet);
    const bomb = zipSync({ ...parts, "xl/media/padding.bin": new Uint8Array(XLSX_INFLATED_MAX + 1) }, { level: 9 });
    expect(bomb.length).toBeLessThan(200_000);
    await expect(parseSheet(bomb)).rejects.toMatchObject({ status: 413, field: "file" });
    expect((await parseSheet(zipSync({ ...parts, "xl/media/small.bin": new Uint8Array(1000) }))).rows).toHaveLength(1);
  });
});
