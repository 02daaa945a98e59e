// One sheet row → the article it describes (pure: no database). Every problem is named by its column and a
// reason code the page translates (`import.reasons.*`).
import { ALT_MAX_LENGTH, DEFAULT_BACKGROUND_COLOR, LABEL_MAX_LENGTH, SLUG_MAX_LENGTH, TEXT_MAX_LENGTH } from "~/content/defaults";
import { articleContentSchema, SLUG_PATTERN, type ArticleContent } from "~/content/schema";
import { safeLinkHref, URL_MAX_LENGTH } from "~/content/urls";
import { checkItemName, slugify } from "~/lib/names";
import type { ColumnMapping, ImportField } from "./columns";

export const IMPORT_REASONS = [
  "required",
  "too_long",
  "invalid",
  "empty",
  "slash",
  "dot_name",
  "forbidden_characters",
  "unsafe_url",
  "too_deep",
  "duplicate_address",
  "address_in_trash",
  "image_missing",
  "image_type",
  "image_too_large",
  "image_empty",
  "content_too_large",
] as const;
export type ImportReason = (typeof IMPORT_REASONS)[number];

export interface RowError {
  /** The field (its column in the mapping) the problem is in. */
  column: ImportField;
  reason: ImportReason;
}

export const MAX_FOLDER_DEPTH = 20;

export interface RowFields {
  folderPath: string[];
  name: string;
  slug: string;
  text: string;
  image: string;
  alt: string;
  legend: string;
  linkLabel: string;
  linkUrl: string;
}

/** Paragraphs split on blank lines (a line of spaces is blank too); single line breaks stay inside a paragraph. */
export function paragraphText(raw: string): string {
  return raw
    .split(/\n[ \t\u00a0]*\n/)
    .map((p) => p.replace(/[ \t]+$/gm, "").trim())
    .filter((p) => p !== "")
    .join("\n\n");
}

export function readRow(cells: readonly string[], mapping: ColumnMapping): { fields: RowFields; errors: RowError[] } {
  const cell = (field: ImportField) => {
    const index = mapping[field];
    return index === undefined ? "" : (cells[index] ?? "");
  };
  const errors: RowError[] = [];
  const fail = (column: ImportField, reason: ImportReason) => errors.push({ column, reason });

  const folderPath: string[] = [];
  const folderCell = cell("folder");
  if (folderCell !== "") {
    // "Salle 2/Vitrine 3", "/Salle 2/", "Salle 2 / Vitrine 3": separators with spaces or at the ends are forgiven.
    const segments = folderCell
      .split("/")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (segments.length > MAX_FOLDER_DEPTH) fail("folder", "too_deep");
    for (const segment of segments) {
      const checked = checkItemName(segment);
      if (!checked.ok) {
        fail("folder", checked.problem === "slash" ? "invalid" : checked.problem);
        break;
      }
      folderPath.push(checked.name);
    }
  }

  let name = "";
  const nameCell = cell("name");
  if (nameCell === "") fail("name", "required");
  else {
    const checked = checkItemName(nameCell);
    if (checked.ok) name = checked.name;
    else fail("name", checked.problem);
  }

  let slug = cell("address").toLowerCase();
  if (slug !== "") {
    if (slug.length > SLUG_MAX_LENGTH) fail("address", "too_long");
    else if (!SLUG_PATTERN.test(slug)) fail("address", "invalid");
  } else if (name !== "") slug = slugify(name);

  const text = paragraphText(cell("text"));
  if (text.length > TEXT_MAX_LENGTH) fail("text", "too_long");

  const image = cell("image");
  const alt = cell("alt");
  if (alt.length > ALT_MAX_LENGTH) fail("alt", "too_long");
  const legend = paragraphText(cell("legend"));
  if (legend.length > TEXT_MAX_LENGTH) fail("legend", "too_long");

  const linkLabel = cell("linkLabel");
  const linkUrl = cell("linkUrl");
  if (linkLabel.length > LABEL_MAX_LENGTH) fail("linkLabel", "too_long");
  if (linkUrl.length > URL_MAX_LENGTH) fail("linkUrl", "too_long");
  else if (linkUrl !== "" && safeLinkHref(linkUrl) === null) fail("linkUrl", "unsafe_url");
  else if (linkUrl === "" && linkLabel !== "") fail("linkUrl", "required");

  return { fields: { folderPath, name, slug, text, image, alt, legend, linkLabel, linkUrl }, errors };
}

/**
 * A text's first line (the page's title: the renderer makes it the `<h1>`) and what follows it, blank lines
 * between them dropped.
 */
export function splitTitle(text: string): { title: string; rest: string } {
  const end = text.indexOf("\n");
  if (end < 0) return { title: text, rest: "" };
  return { title: text.slice(0, end), rest: text.slice(end + 1).replace(/^\n+/, "") };
}

/**
 * The article's elements, in the order a label reads: the title (the text's first line, which the renderer
 * makes the page's heading), the picture (with its legend beside it when there is one: the model's legend
 * item), the rest of the text (one element: the renderer makes paragraphs of its blank lines), then the link.
 * Without a picture the text stays one element. `imageSrc` is the picture's `/media/…` address.
 */
export function rowContent(fields: RowFields, imageSrc: string, backgroundColor = DEFAULT_BACKGROUND_COLOR): ArticleContent {
  const elements: unknown[] = [{ type: "metadatas", url: fields.slug, backgroundColor }];
  const picture =
    fields.legend !== ""
      ? { type: "legendItem", src: imageSrc, alt: imageSrc ? fields.alt : "", content: fields.legend }
      : imageSrc !== ""
        ? { type: "image", src: imageSrc, alt: fields.alt }
        : null;
  if (picture && fields.text !== "") {
    // The title comes before the picture (issue 29): a picture above it pushed the name below the fold.
    const { title, rest } = splitTitle(fields.text);
    elements.push({ type: "text", content: title }, picture);
    if (rest !== "") elements.push({ type: "text", content: rest });
  } else {
    if (picture) elements.push(picture);
    if (fields.text !== "") elements.push({ type: "text", content: fields.text });
  }
  if (fields.linkUrl !== "") elements.push({ type: "link", link: fields.linkUrl, content: fields.linkLabel });
  // The same schema as the editor's saves fills every default, so a re-import compares equal to what is stored.
  return articleContentSchema.parse(elements);
}
