// The columns an import understands, the header words that guess them (fr and en, as the templates write
// them and as museums tend to), and the mapping the person edits: field → column index.
import { z } from "zod";

export const IMPORT_FIELDS = ["folder", "name", "address", "text", "image", "alt", "legend", "linkLabel", "linkUrl"] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** field → 0-based column index; a field left out is not imported. */
export type ColumnMapping = Partial<Record<ImportField, number>>;

/** The template's headers, in both interface languages (the same order as IMPORT_FIELDS). */
export const TEMPLATE_HEADERS: Record<"fr" | "en", Record<ImportField, string>> = {
  fr: {
    folder: "Dossier",
    name: "Nom",
    address: "Adresse",
    text: "Texte",
    image: "Image",
    alt: "Texte alternatif",
    legend: "Légende",
    linkLabel: "Libellé du lien",
    linkUrl: "URL du lien",
  },
  en: {
    folder: "Folder",
    name: "Name",
    address: "Address",
    text: "Text",
    image: "Image",
    alt: "Alt text",
    legend: "Legend",
    linkLabel: "Link label",
    linkUrl: "Link URL",
  },
};

/** Lowercase ASCII letters and digits only: "Libellé du lien" and "libelle_du_lien" meet as "libelledulien". */
export function headerKey(header: string): string {
  return header
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

const GUESSES: Record<ImportField, string[]> = {
  folder: ["dossier", "chemin", "emplacement", "cheminddossier", "folder", "folderpath", "path", "location"],
  name: ["nom", "titre", "nomdelarticle", "name", "title", "articlename"],
  address: ["adresse", "slug", "adresseweb", "address", "webaddress", "urlslug"],
  text: ["texte", "contenu", "cartel", "description", "text", "content", "body"],
  image: ["image", "fichierimage", "nomdelimage", "fichierdelimage", "photo", "imagefile", "imagefilename", "imagename"],
  alt: ["textealternatif", "alt", "textealternatifdelimage", "descriptiondelimage", "alttext", "imagealt", "alternativetext"],
  legend: ["legende", "legend", "caption"],
  linkLabel: ["libelledulien", "textedulien", "lien", "linklabel", "linktext", "link"],
  linkUrl: ["urldulien", "adressedulien", "lienurl", "linkurl", "linkaddress", "url"],
};

/** The first column whose header is one of a field's words; each column serves one field at most. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const keys = headers.map(headerKey);
  const mapping: ColumnMapping = {};
  const used = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const index = keys.findIndex((key, i) => !used.has(i) && GUESSES[field].includes(key));
    if (index >= 0) {
      mapping[field] = index;
      used.add(index);
    }
  }
  return mapping;
}

export const MAX_COLUMNS = 200;
export const MAPPING_MAX_BYTES = 4096;

/**
 * The `mapping` field: a JSON object naming, per field, a column by its 0-based index or by its header.
 * Unknown fields are refused (a typo would silently import nothing). `null` leaves a field out.
 */
export const mappingSchema = z
  .object(
    Object.fromEntries(
      IMPORT_FIELDS.map((field) => [
        field,
        z
          .union(
            [
              z
                .number()
                .int("wrong_type")
                .min(0, "out_of_range")
                .max(MAX_COLUMNS - 1, "out_of_range"),
              z.string().max(200, "too_long"),
              z.null(),
            ],
            {
              errorMap: () => ({ message: "wrong_type" }),
            },
          )
          .optional(),
      ]),
    ) as Record<ImportField, z.ZodOptional<z.ZodUnion<[z.ZodNumber, z.ZodString, z.ZodNull]>>>,
    { invalid_type_error: "wrong_type" },
  )
  .strict("invalid");

export type MappingInput = z.infer<typeof mappingSchema>;

/** Resolves header names to indexes; the field that names no column is returned as the problem. */
export function resolveMapping(input: MappingInput, headers: readonly string[]): { ok: true; mapping: ColumnMapping } | { ok: false; field: ImportField } {
  const mapping: ColumnMapping = {};
  const keys = headers.map((h) => h.trim());
  for (const field of IMPORT_FIELDS) {
    const value = input[field];
    if (value === undefined || value === null) continue;
    const index = typeof value === "number" ? value : keys.indexOf(value.trim());
    if (index < 0 || index >= headers.length) return { ok: false, field };
    mapping[field] = index;
  }
  return { ok: true, mapping };
}
