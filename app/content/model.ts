// The content model's values that need no validator (decision 077): element types, choices, patterns and a
// new element's defaults. The browser's editor, preview and visitor pages import these from here, so zod
// (the validator, ~13 KiB gzip) reaches the browser only when the editor checks content before a save
// (app/components/editor/content-check.ts, loaded on demand). schema.ts re-exports all of it, and
// tests/unit/content-model.test.ts holds these defaults equal to the schema's.
import { DEFAULT_FONT_SIZE, DEFAULT_LEGEND_WIDTH, DEFAULT_SIZE, DEFAULT_SPACE_HEIGHT, DEFAULT_TEXT_COLOR, HEADING_LEVELS, VIDEO_ID_LENGTH } from "./defaults";
import type { AddableType, ElementOf, ElementType } from "./schema";

export const JUSTIFY_VALUES = ["flex-start", "center", "flex-end"] as const;
export const LEGEND_JUSTIFY_VALUES = ["flex-start", "flex-end"] as const;
export const ALIGN_VALUES = ["left", "center", "right"] as const;
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const SLUG_PATTERN = /^[a-z0-9-]+$/;
/** Addresses `/v/{museum}/…` keeps for itself: `n` is the stop-number keypad (decision 085). */
export const RESERVED_SLUGS: readonly string[] = ["n"];
export const VIDEO_ID_PATTERN = /^[A-Za-z0-9]{6}$/;

/** Every element type the content model knows, metadatas first (the schema's discriminated union, in order). */
export const ELEMENT_TYPES = [
  "metadatas",
  "text",
  "heading",
  "image",
  "video",
  "space",
  "link",
  "legendItem",
  "accordion",
] as const satisfies readonly ElementType[];

/** The add-element panel's choices, in the spec's order (§4 "Element types offered"); the heading beside the text (decision 074). */
export const ADDABLE_TYPES = ["text", "heading", "image", "link", "space", "accordion", "video", "legendItem"] as const satisfies readonly AddableType[];

export function isAddableType(value: unknown): value is AddableType {
  return typeof value === "string" && (ADDABLE_TYPES as readonly string[]).includes(value);
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Six random letters or digits (spec §3), unbiased: bytes past the last multiple of 62 are redrawn. */
export function newVideoId(): string {
  let id = "";
  while (id.length < VIDEO_ID_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 248 && id.length < VIDEO_ID_LENGTH) id += ALPHANUMERIC[byte % 62];
    }
  }
  return id;
}

const textStyle = () => ({ fontSize: DEFAULT_FONT_SIZE, bold: false, italic: false, color: DEFAULT_TEXT_COLOR });

/** What the schema makes of `{ type }` alone: each field's default (decision 077 keeps them equal, by test). */
const DEFAULTS: { [T in AddableType]: () => ElementOf<T> } = {
  text: () => ({ type: "text", content: "", ...textStyle(), size: DEFAULT_SIZE, justify: "flex-start", align: "left" }),
  heading: () => ({ type: "heading", level: HEADING_LEVELS[0], content: "", color: DEFAULT_TEXT_COLOR, align: "left" }),
  image: () => ({ type: "image", src: "", alt: "", size: DEFAULT_SIZE, justify: "flex-start" }),
  video: () => ({ type: "video", src: "", subtitles: "", videoId: newVideoId(), size: DEFAULT_SIZE, justify: "flex-start" }),
  space: () => ({ type: "space", size: DEFAULT_SPACE_HEIGHT }),
  link: () => ({ type: "link", link: "", src: "", content: "", ...textStyle(), size: DEFAULT_SIZE, justify: "flex-start" }),
  legendItem: () => ({
    type: "legendItem",
    src: "",
    alt: "",
    width: DEFAULT_LEGEND_WIDTH,
    content: "",
    ...textStyle(),
    size: DEFAULT_SIZE,
    justify: "flex-start",
  }),
  accordion: () => ({ type: "accordion", header: { content: "", ...textStyle() }, details: [DEFAULTS.text()] }),
};

/** A new element with the spec's defaults; a new accordion holds one empty text, a video a fresh id. */
export function newElement<T extends AddableType>(type: T): ElementOf<T> {
  return DEFAULTS[type]();
}
