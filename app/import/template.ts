// The template offered on the import page, in the interface language: the headers the column guesser knows
// and two example rows. CSV with a BOM and `;` for French (what French Excel opens as columns) or `,` for
// English; XLSX written by hand (a few XML parts zipped with fflate: inline strings, no shared-string table).
import Papa from "papaparse";
import { strToU8, zipSync } from "fflate";
import { IMPORT_FIELDS, TEMPLATE_HEADERS, type ImportField } from "./columns";

type Locale = "fr" | "en";

const EXAMPLES: Record<Locale, Record<ImportField, string>[]> = {
  fr: [
    {
      folder: "Salle 2/Vitrine 3",
      name: "Amphore à figures noires",
      address: "amphore-figures-noires",
      text: "Amphore à figures noires\n\nAthènes, vers 530 av. J.-C. Terre cuite.\n\nLe peintre montre Héraclès et le lion de Némée.",
      image: "amphore.jpg",
      alt: "Amphore noire et orange, Héraclès luttant contre un lion",
      legend: "",
      linkLabel: "Notice complète",
      linkUrl: "https://example.org/collections/amphore",
    },
    {
      folder: "Salle 2",
      name: "Vase à parfum",
      address: "",
      text: "Vase à parfum\n\nCorinthe, VIIe siècle av. J.-C.",
      image: "aryballe.png",
      alt: "Petit vase rond décoré d'animaux",
      legend: "Frise d'animaux : lions, chèvres et oiseaux.",
      linkLabel: "",
      linkUrl: "",
    },
  ],
  en: [
    {
      folder: "Room 2/Case 3",
      name: "Black-figure amphora",
      address: "black-figure-amphora",
      text: "Black-figure amphora\n\nAthens, about 530 BC. Terracotta.\n\nThe painter shows Heracles and the Nemean lion.",
      image: "amphora.jpg",
      alt: "Black and orange amphora, Heracles wrestling a lion",
      legend: "",
      linkLabel: "Full record",
      linkUrl: "https://example.org/collections/amphora",
    },
    {
      folder: "Room 2",
      name: "Perfume vase",
      address: "",
      text: "Perfume vase\n\nCorinth, 7th century BC.",
      image: "aryballos.png",
      alt: "Small round vase painted with animals",
      legend: "Animal frieze: lions, goats and birds.",
      linkLabel: "",
      linkUrl: "",
    },
  ],
};

function templateRows(locale: Locale): string[][] {
  const headers = IMPORT_FIELDS.map((f) => TEMPLATE_HEADERS[locale][f]);
  return [headers, ...EXAMPLES[locale].map((example) => IMPORT_FIELDS.map((f) => example[f]))];
}

export function templateCsv(locale: Locale): string {
  return "\ufeff" + Papa.unparse(templateRows(locale), { delimiter: locale === "fr" ? ";" : ",", newline: "\r\n", quotes: true });
}

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A minimal XLSX workbook of one sheet holding `rows` as inline strings. */
export function xlsxOf(rows: readonly (readonly string[])[], sheetName = "Articles"): Uint8Array {
  const sheetRows = rows
    .map(
      (cells, r) =>
        `<row r="${r + 1}">${cells
          .map((cell, c) => `<c r="${columnName(c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${xml(cell)}</t></is></c>`)
          .join("")}</row>`,
    )
    .join("");
  const files = {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    "_rels/.rels":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    "xl/worksheets/sheet1.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
  };
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

export function templateXlsx(locale: Locale): Uint8Array {
  return xlsxOf(templateRows(locale), locale === "fr" ? "Articles" : "Articles");
}
