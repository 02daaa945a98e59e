// The text fields of an article, as the easy-to-read version rewrites them (issue 22 §2, decision 094):
// the same walk as the translation segments (app/translation/segments.ts), but a whole field at a time
// (a paragraph is rewritten as a whole, not line by line), and everything else — media, styles, links,
// layout — kept exactly. Pure: the staff page, the generator and the unit tests share it.
import { sha256Hex } from "~/lib/crypto";
import type { AccordionDetail, ArticleContent, ContentElement } from "~/content/schema";

/** Where a field sits: `e3.content`, `e5.header`, `e5.d1.alt`. */
export type FieldId = string;

/** What kind of text a field holds: a one-line field (heading, link label, accordion header) takes no line break. */
export type FieldKind = "text" | "heading" | "label" | "alt";

export interface TextField {
  id: FieldId;
  kind: FieldKind;
  text: string;
}

type FieldMap = (text: string, id: FieldId, kind: FieldKind) => string;

function mapElement<T extends ContentElement | AccordionDetail>(element: T, map: FieldMap, at: string): T {
  switch (element.type) {
    case "text":
      return { ...element, content: map(element.content, `${at}.content`, "text") };
    case "heading":
      return { ...element, content: map(element.content, `${at}.content`, "heading") };
    case "link":
      return { ...element, content: map(element.content, `${at}.content`, "label") };
    case "image":
      return { ...element, alt: map(element.alt, `${at}.alt`, "alt") };
    case "legendItem":
      return { ...element, content: map(element.content, `${at}.content`, "text"), alt: map(element.alt, `${at}.alt`, "alt") };
    case "accordion":
      return {
        ...element,
        header: { ...element.header, content: map(element.header.content, `${at}.header`, "label") },
        details: element.details.map((detail, index) => mapElement(detail, map, `${at}.d${index}`)),
      };
    default:
      return element;
  }
}

/** The content with each text field replaced by `map(text, id, kind)`; everything else untouched. */
export function mapFields(content: ArticleContent, map: FieldMap): ArticleContent {
  return content.map((element, index) => mapElement(element, map, `e${index}`)) as ArticleContent;
}

/** Every text field of the content, in reading order, blank ones included (they stay blank). */
export function textFields(content: ArticleContent): TextField[] {
  const out: TextField[] = [];
  mapFields(content, (text, id, kind) => {
    out.push({ id, kind, text });
    return text;
  });
  return out;
}

/** The fields worth rewriting: those with visible text. */
export function fieldsToRewrite(content: ArticleContent): TextField[] {
  return textFields(content).filter((field) => field.text.trim() !== "");
}

const LINE_BREAKS = /\r\n?|[\n\u2028\u2029]/g;

/**
 * A field's text as the content schema accepts it: line breaks kept in a text or an alt (one sentence per
 * line is an easy-to-read rule), turned into spaces in a one-line field; spaces trimmed at both ends of
 * each line; NFC. Runs of more than one blank line shrink to one.
 */
export function tidyField(text: string, kind: FieldKind): string {
  const normal = text.normalize("NFC");
  if (kind === "heading" || kind === "label") return normal.replace(LINE_BREAKS, " ").replace(/\s+/g, " ").trim();
  return normal
    .replace(LINE_BREAKS, "\n")
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The hash of an article's texts (not its media or styles): an easy-to-read version made from one hash
 * is "stale" once the article's published text hashes differently.
 */
export function textHash(content: ArticleContent): Promise<string> {
  return sha256Hex(JSON.stringify(textFields(content).map((field) => [field.id, field.text.normalize("NFC")])));
}
