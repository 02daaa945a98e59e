// The one article content model (spec §3 "Content elements"): the API parses what the editor sends with
// `articleContentSchema`, every read of stored content goes through `parseStoredContent`, and the
// editor, its preview and the visitor page all use these types. Every refusal's message is an
// ErrorReason, so `zodToDomainError` turns it into a 400 naming the field.
import { z } from "zod";

import { slugify } from "~/lib/names";

import {
  ALT_MAX_LENGTH,
  DEFAULT_BACKGROUND_COLOR,
  DEFAULT_FONT_SIZE,
  DEFAULT_LEGEND_WIDTH,
  DEFAULT_SIZE,
  DEFAULT_SPACE_HEIGHT,
  DEFAULT_TEXT_COLOR,
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  HEADING_LEVELS,
  HEADING_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  MAX_ACCORDION_DETAILS,
  MAX_ELEMENTS,
  SIZE_MAX,
  SIZE_MIN,
  SLUG_MAX_LENGTH,
  TEXT_MAX_LENGTH,
} from "./defaults";
import { MEDIA_PREFIX, safeLinkHref, safeMediaSrc, URL_MAX_LENGTH } from "./urls";

export const CONTENT_MAX_BYTES = 256 * 1024;
// The values that need no validator live in ./model (decision 077: the browser imports them without zod).
import { ALIGN_VALUES, HEX_COLOR, JUSTIFY_VALUES, LEGEND_JUSTIFY_VALUES, newVideoId, RESERVED_SLUGS, SLUG_PATTERN, VIDEO_ID_PATTERN } from "./model";
export {
  ADDABLE_TYPES,
  ALIGN_VALUES,
  ELEMENT_TYPES,
  HEX_COLOR,
  isAddableType,
  JUSTIFY_VALUES,
  LEGEND_JUSTIFY_VALUES,
  newElement,
  newVideoId,
  RESERVED_SLUGS,
  SLUG_PATTERN,
  VIDEO_ID_PATTERN,
} from "./model";
/** One line: no line feed, carriage return, line or paragraph separator. */
const NO_LINE_BREAK = /^[^\r\n\u2028\u2029]*$/;

const string = () => z.string({ required_error: "required", invalid_type_error: "wrong_type" });
const boolean = () => z.boolean({ required_error: "required", invalid_type_error: "wrong_type" });
const integer = (min: number, max: number) =>
  z.number({ required_error: "required", invalid_type_error: "wrong_type" }).int("wrong_type").min(min, "out_of_range").max(max, "out_of_range");
const choice = <T extends [string, ...string[]]>(values: T) => z.enum(values, { errorMap: () => ({ message: "invalid" }) });

const text = (max: number) => string().max(max, "too_long").default("");
const color = (fallback: string) => string().regex(HEX_COLOR, "invalid").default(fallback);
const size = () => integer(SIZE_MIN, SIZE_MAX).default(DEFAULT_SIZE);
const fontSize = () => integer(FONT_SIZE_MIN, FONT_SIZE_MAX).default(DEFAULT_FONT_SIZE);
const justify = () => choice([...JUSTIFY_VALUES]).default("flex-start");
/**
 * "" while nothing is uploaded; else a `/media/…` path of this app. An address elsewhere, even a safe
 * https: one, is refused as `external_media` (decision 035): the visitor page's CSP serves media only from
 * this origin, so it would never show, and media must be uploaded (sized, in R2, no third party told who
 * visits). Anything unsafe (javascript:, http:, credentials, `..`) stays `unsafe_url`.
 */
const mediaSrc = () =>
  string()
    .trim()
    .max(URL_MAX_LENGTH, "too_long")
    .superRefine((src, ctx) => {
      if (src === "") return;
      const safe = safeMediaSrc(src);
      if (safe === null) ctx.addIssue({ code: "custom", message: "unsafe_url" });
      else if (!safe.startsWith(MEDIA_PREFIX)) ctx.addIssue({ code: "custom", message: "external_media" });
    })
    .default("");

const textStyle = {
  fontSize: fontSize(),
  bold: boolean().default(false),
  italic: boolean().default(false),
  color: color(DEFAULT_TEXT_COLOR),
};

export const metadatasElementSchema = z.object({
  type: z.literal("metadatas"),
  url: string()
    .min(1, "empty")
    .max(SLUG_MAX_LENGTH, "too_long")
    .regex(SLUG_PATTERN, "invalid")
    .refine((url) => !RESERVED_SLUGS.includes(url), "reserved"),
  backgroundColor: color(DEFAULT_BACKGROUND_COLOR),
});

export const textElementSchema = z.object({
  type: z.literal("text"),
  content: text(TEXT_MAX_LENGTH),
  ...textStyle,
  size: size(),
  justify: justify(),
  align: choice([...ALIGN_VALUES]).default("left"),
});

/**
 * A section heading (decision 074): level 2 or 3 under the page's `<h1>`, one line of plain text, with the
 * text element's colour and alignment. No size or font: the level gives its size, so every article's
 * headings look alike. Not allowed inside an accordion (its header is already that part's title).
 */
export const headingElementSchema = z.object({
  type: z.literal("heading"),
  level: z.union([z.literal(HEADING_LEVELS[0]), z.literal(HEADING_LEVELS[1])], { errorMap: () => ({ message: "invalid" }) }).default(HEADING_LEVELS[0]),
  content: string().max(HEADING_MAX_LENGTH, "too_long").regex(NO_LINE_BREAK, "invalid").default(""),
  color: color(DEFAULT_TEXT_COLOR),
  align: choice([...ALIGN_VALUES]).default("left"),
});

export const imageElementSchema = z.object({
  type: z.literal("image"),
  src: mediaSrc(),
  alt: text(ALT_MAX_LENGTH),
  size: size(),
  justify: justify(),
});

export const videoElementSchema = z.object({
  type: z.literal("video"),
  src: mediaSrc(),
  subtitles: mediaSrc(),
  videoId: string().regex(VIDEO_ID_PATTERN, "invalid"),
  size: size(),
  justify: justify(),
});

export const spaceElementSchema = z.object({
  type: z.literal("space"),
  size: integer(SIZE_MIN, SIZE_MAX).default(DEFAULT_SPACE_HEIGHT),
});

export const linkElementSchema = z.object({
  type: z.literal("link"),
  /** "" while the editor has not typed one; else an absolute http:, https:, mailto: or tel: URL. */
  link: string()
    .trim()
    .max(URL_MAX_LENGTH, "too_long")
    .refine((href) => href === "" || safeLinkHref(href) !== null, "unsafe_url")
    .default(""),
  src: mediaSrc(),
  content: text(LABEL_MAX_LENGTH),
  ...textStyle,
  size: size(),
  justify: justify(),
});

export const legendItemElementSchema = z.object({
  type: z.literal("legendItem"),
  src: mediaSrc(),
  alt: text(ALT_MAX_LENGTH),
  /** The image's share of the row, in percent. */
  width: integer(SIZE_MIN, SIZE_MAX).default(DEFAULT_LEGEND_WIDTH),
  content: text(TEXT_MAX_LENGTH),
  ...textStyle,
  size: size(),
  /** Not a position: "flex-end" puts the image after the text. */
  justify: choice([...LEGEND_JUSTIFY_VALUES]).default("flex-start"),
});

export const accordionHeaderSchema = z.object({ content: text(LABEL_MAX_LENGTH), ...textStyle });

/** What an accordion may hold: no accordion (no nesting), no video, no metadatas. */
export const accordionDetailSchema = z.discriminatedUnion("type", [
  textElementSchema,
  imageElementSchema,
  spaceElementSchema,
  linkElementSchema,
  legendItemElementSchema,
]);

export const accordionElementSchema = z.object({
  type: z.literal("accordion"),
  header: accordionHeaderSchema.default({}),
  details: z.array(accordionDetailSchema, { invalid_type_error: "wrong_type" }).max(MAX_ACCORDION_DETAILS, "too_many").default([]),
});

export const contentElementSchema = z.discriminatedUnion("type", [
  metadatasElementSchema,
  textElementSchema,
  headingElementSchema,
  imageElementSchema,
  videoElementSchema,
  spaceElementSchema,
  linkElementSchema,
  legendItemElementSchema,
  accordionElementSchema,
]);

/** The element list of an article: exactly one metadatas, first. The byte limit is the API's (413). */
export const articleContentSchema = z
  .array(contentElementSchema, { required_error: "required", invalid_type_error: "wrong_type" })
  .min(1, "invalid")
  .max(MAX_ELEMENTS, "too_many")
  .superRefine((elements, ctx) => {
    elements.forEach((element, index) => {
      if ((element.type === "metadatas") !== (index === 0)) ctx.addIssue({ code: "custom", path: [index, "type"], message: "invalid" });
    });
  });

export type MetadatasElement = z.infer<typeof metadatasElementSchema>;
export type TextElement = z.infer<typeof textElementSchema>;
export type HeadingElement = z.infer<typeof headingElementSchema>;
export type ImageElement = z.infer<typeof imageElementSchema>;
export type VideoElement = z.infer<typeof videoElementSchema>;
export type SpaceElement = z.infer<typeof spaceElementSchema>;
export type LinkElement = z.infer<typeof linkElementSchema>;
export type LegendItemElement = z.infer<typeof legendItemElementSchema>;
export type AccordionHeader = z.infer<typeof accordionHeaderSchema>;
export type AccordionDetail = z.infer<typeof accordionDetailSchema>;
export type AccordionElement = z.infer<typeof accordionElementSchema>;
export type ContentElement = z.infer<typeof contentElementSchema>;
export type ArticleContent = z.infer<typeof articleContentSchema>;
/** What the API accepts before defaults are filled in. */
export type ArticleContentInput = z.input<typeof articleContentSchema>;
export type ElementType = ContentElement["type"];
export type AddableType = Exclude<ElementType, "metadatas">;
export type ElementOf<T extends ElementType> = Extract<ContentElement, { type: T }>;

/** Each element type's schema, for tests that hold ./model's defaults equal to the schema's. */
export const ELEMENT_SCHEMAS = {
  metadatas: metadatasElementSchema,
  text: textElementSchema,
  heading: headingElementSchema,
  image: imageElementSchema,
  video: videoElementSchema,
  space: spaceElementSchema,
  link: linkElementSchema,
  legendItem: legendItemElementSchema,
  accordion: accordionElementSchema,
} satisfies Record<ElementType, z.AnyZodObject>;

/** The size the API limits (CONTENT_MAX_BYTES): UTF-8 bytes of the JSON that is stored. */
export function contentByteSize(content: unknown): number {
  return new TextEncoder().encode(JSON.stringify(content)).byteLength;
}

// ---------------------------------------------------------------------------------------------------
// Reading stored content. Rows written before this model, or damaged by hand, must still display: a read
// never throws. Each field that fails its rule is mended (numbers clamped, strings cut, the rest back to
// the default); an element that cannot be mended is dropped, and the repair is logged once.

const FAILED = Symbol("failed");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mendField(field: z.ZodTypeAny, raw: unknown): unknown {
  const direct = field.safeParse(raw);
  if (direct.success) return direct.data;
  const base: z.ZodTypeAny = field instanceof z.ZodDefault ? field._def.innerType : field;
  let candidate: unknown = FAILED;
  if (base instanceof z.ZodNumber) {
    const number = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
    if (Number.isFinite(number)) {
      const rounded = base.isInt ? Math.round(number) : number;
      candidate = Math.min(base.maxValue ?? Infinity, Math.max(base.minValue ?? -Infinity, rounded));
    }
  } else if (base instanceof z.ZodString && typeof raw === "string" && base.maxLength !== null) {
    candidate = [...raw].slice(0, base.maxLength).join("");
  } else if (base instanceof z.ZodBoolean) {
    candidate = raw === "true" || raw === 1 ? true : raw === "false" || raw === 0 ? false : FAILED;
  }
  if (candidate !== FAILED) {
    const again = field.safeParse(candidate);
    if (again.success) return again.data;
  }
  const fallback = field.safeParse(undefined);
  return fallback.success ? fallback.data : FAILED;
}

function mendObject(shape: z.ZodRawShape, raw: Record<string, unknown>): Record<string, unknown> | null {
  const mended: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const value = mendField(field, raw[key]);
    if (value === FAILED) return null;
    mended[key] = value;
  }
  return mended;
}

type Mendable = Exclude<ElementType, "metadatas">;
const DETAIL_TYPES: ReadonlySet<string> = new Set(["text", "image", "space", "link", "legendItem"]);

function mendElement(raw: unknown, allowed: (type: string) => boolean): ContentElement | null {
  if (!isRecord(raw) || typeof raw.type !== "string" || raw.type === "metadatas" || !allowed(raw.type)) return null;
  if (!Object.prototype.hasOwnProperty.call(ELEMENT_SCHEMAS, raw.type)) return null;
  const type = raw.type as Mendable;
  const input: Record<string, unknown> = { ...raw };
  // A heading is one line: line breaks written by hand become spaces rather than losing the text; a level
  // out of the two becomes the nearer one.
  if (type === "heading") {
    if (typeof raw.content === "string") input.content = raw.content.replace(/\s*[\r\n\u2028\u2029]+\s*/g, " ").trim();
    const level = Number(raw.level);
    input.level = Number.isFinite(level) && level >= 3 ? 3 : 2;
  }
  if (type === "video" && !VIDEO_ID_PATTERN.test(String(raw.videoId))) input.videoId = newVideoId();
  if (type === "accordion") {
    const header = typeof raw.header === "string" ? { content: raw.header } : isRecord(raw.header) ? raw.header : {};
    input.header = mendObject(accordionHeaderSchema.shape, header) ?? {};
    const details = Array.isArray(raw.details) ? raw.details : [];
    input.details = details
      .map((detail) => mendElement(detail, (detailType) => DETAIL_TYPES.has(detailType)))
      .filter((detail): detail is ContentElement => detail !== null)
      .slice(0, MAX_ACCORDION_DETAILS);
  }
  const schema = ELEMENT_SCHEMAS[type];
  const mended = mendObject(schema.shape, input);
  const parsed = mended && schema.safeParse(mended);
  return parsed && parsed.success ? parsed.data : null;
}

function mendMetadatas(raw: Record<string, unknown> | undefined, slug: string | undefined): MetadatasElement {
  const stored = raw?.url;
  const url =
    typeof stored === "string" && SLUG_PATTERN.test(stored) && stored.length <= SLUG_MAX_LENGTH
      ? stored
      : slug !== undefined && SLUG_PATTERN.test(slug) && slug.length <= SLUG_MAX_LENGTH
        ? slug
        : slugify(typeof stored === "string" ? stored : "");
  const backgroundColor = mendField(metadatasElementSchema.shape.backgroundColor, raw?.backgroundColor);
  return { type: "metadatas", url, backgroundColor: typeof backgroundColor === "string" ? backgroundColor : DEFAULT_BACKGROUND_COLOR };
}

/**
 * Every read of an article's stored content goes through here. Valid content comes back as parsed;
 * anything else is mended rather than refused, so a page showing it never fails: unparsable JSON gives
 * an empty article, invalid elements are dropped, missing fields take their defaults, and a metadatas
 * element is always first. `slug` (the row's slug) replaces a missing or invalid metadatas url.
 */
export function parseStoredContent(json: string, slug?: string): ArticleContent {
  let raw: unknown;
  const problems: string[] = [];
  try {
    raw = JSON.parse(json);
  } catch {
    problems.push("unparsable JSON");
  }
  if (raw !== undefined && !Array.isArray(raw)) problems.push("not a list");
  const items: unknown[] = Array.isArray(raw) ? raw : [];
  const strict = articleContentSchema.safeParse(items);
  if (strict.success) return strict.data;

  let metadatas: Record<string, unknown> | undefined;
  const elements: ContentElement[] = [];
  items.forEach((item, index) => {
    if (isRecord(item) && item.type === "metadatas") {
      if (metadatas) problems.push(`extra metadatas at ${index}`);
      else metadatas = item;
      return;
    }
    const element = mendElement(item, () => true);
    if (element) elements.push(element);
    else problems.push(`dropped element ${index} (${isRecord(item) ? String(item.type).slice(0, 20) : typeof item})`);
  });
  if (!metadatas) problems.push("no metadatas");
  if (elements.length > MAX_ELEMENTS - 1) problems.push(`cut to ${MAX_ELEMENTS} elements`);
  console.warn(`Stored article content repaired: ${problems.join("; ") || "fields mended"}`);
  return [mendMetadatas(metadatas, slug), ...elements.slice(0, MAX_ELEMENTS - 1)];
}
