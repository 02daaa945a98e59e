// What a closed element card shows (decision 065): one line of the element's words, a thumbnail when it
// has a picture, and whether its style differs from the defaults. Pure, so unit tests pin it down.
import { DEFAULT_FONT_SIZE, DEFAULT_SIZE, DEFAULT_TEXT_COLOR } from "~/content/defaults";
import { sixDigitHex } from "./editor-state";

export const SUMMARY_MAX_CHARS = 80;

/**
 * The line a card shows. `text` is "" when the element has no words yet (the card says so); `thumb` is
 * the element's picture; `file` names what a video holds (its kind of file, subtitles or not); `count`
 * is an accordion's number of details; `height` a space's height in px.
 */
export interface CardSummary {
  text: string;
  thumb: string | null;
  video?: { format: string | null; subtitles: boolean };
  count?: number;
  height?: number;
}

/** The first words of a text on one line: whitespace (newlines, tabs, NBSP) folded, cut at a word. */
export function firstWords(text: string, max = SUMMARY_MAX_CHARS): string {
  const line = text.replace(/\s+/gu, " ").trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const cut = chars.slice(0, max).join("");
  const atWord = cut.replace(/\s+\S*$/u, "");
  return `${atWord.length >= max / 2 ? atWord : cut}…`;
}

/** `/media/m/…/abc.mp4` → "MP4"; null when nothing is uploaded or the name has no extension. */
export function fileFormat(src: string): string | null {
  const name = src.split(/[?#]/)[0]!.split("/").pop() ?? "";
  const match = /\.([a-z0-9]{1,5})$/i.exec(name);
  return match ? match[1]!.toUpperCase() : null;
}

type Summarisable = { type: string } & Record<string, unknown>;

const str = (value: unknown) => (typeof value === "string" ? value : "");

export function cardSummary(element: Summarisable): CardSummary {
  const src = str(element.src) || null;
  switch (element.type) {
    case "image":
      return { text: firstWords(str(element.alt)), thumb: src };
    case "legendItem":
      return { text: firstWords(str(element.content) || str(element.alt)), thumb: src };
    case "link":
      return { text: firstWords(str(element.content) || str(element.link)), thumb: src };
    case "video":
      return { text: "", thumb: null, video: { format: src ? fileFormat(src) : null, subtitles: str(element.subtitles) !== "" } };
    case "space":
      return { text: "", thumb: null, height: typeof element.size === "number" ? element.size : undefined };
    case "accordion": {
      const header = element.header as { content?: unknown } | undefined;
      return { text: firstWords(str(header?.content)), thumb: null, count: Array.isArray(element.details) ? element.details.length : 0 };
    }
    default:
      // text, and any type with words in `content` (a heading).
      return { text: firstWords(str(element.content)), thumb: src };
  }
}

/** The style values an element starts with (app/content/defaults.ts and the schema's defaults). */
export const STYLE_DEFAULTS = {
  fontSize: DEFAULT_FONT_SIZE,
  bold: false,
  italic: false,
  color: DEFAULT_TEXT_COLOR,
  size: DEFAULT_SIZE,
  justify: "flex-start",
  align: "left",
} as const;

export type StyleKey = keyof typeof STYLE_DEFAULTS;
export const STYLE_KEYS = Object.keys(STYLE_DEFAULTS) as StyleKey[];

/**
 * Whether any style value the object has differs from its default: colours compared as colours (#FFF is
 * #ffffff), keys the object lacks ignored. `defaults` overrides some (a type whose defaults differ).
 */
export function styleDiffers(style: object, defaults: Partial<Record<StyleKey, unknown>> = {}): boolean {
  const values = style as Partial<Record<StyleKey, unknown>>;
  return STYLE_KEYS.some((key) => {
    if (!(key in values)) return false;
    const value = values[key];
    const base = key in defaults ? defaults[key] : STYLE_DEFAULTS[key];
    if (key === "color" && typeof value === "string" && typeof base === "string") return sixDigitHex(value, value) !== sixDigitHex(base, base);
    return value !== base;
  });
}
