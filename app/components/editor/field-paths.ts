// Where a refused field is on the page (issue 20 §2, decision 069): a path into the article's content, as
// the API names it (`newContent.3.link`, `newContent.5.details.1.content`) or as the content schema finds
// it in the browser, mapped to the id of the input that edits it. Pure, so it is tested without a browser.
import { FONT_SIZE_MAX, FONT_SIZE_MIN, SIZE_MAX, SIZE_MIN } from "~/content/defaults";
import type { Draft } from "./editor-state";

export type ContentPath = readonly (string | number)[];

/** One refused field of the content: its path (element index first, metadatas = 0) and the reason code. */
export interface ContentIssue {
  path: ContentPath;
  reason: string;
}

/** `newContent.5.details.1.content` → [5, "details", 1, "content"]; null for anything outside newContent. */
export function contentPathOf(field: string | undefined): ContentPath | null {
  const match = /^newContent\.(\d+)((?:\.[A-Za-z0-9_]+)*)$/.exec(field ?? "");
  if (!match) return null;
  const rest = match[2] ? match[2].slice(1).split(".") : [];
  return [Number(match[1]), ...rest.map((part) => (/^\d+$/.test(part) ? Number(part) : part))];
}

// The input id suffix of each field, after the element's (or the detail's) id prefix.
const STYLE: Record<string, string> = { fontSize: "font-size", bold: "bold", italic: "italic", color: "color-hex", size: "size", justify: "justify" };
const BY_TYPE: Record<string, Record<string, string>> = {
  text: { content: "content", align: "align" },
  image: { src: "image", alt: "alt" },
  // The video id is not shown (decision 069): its problems point at the file that names it.
  video: { src: "video", subtitles: "subtitles", videoId: "video" },
  space: { size: "height" },
  link: { link: "url", src: "image", content: "label" },
  legendItem: { src: "image", alt: "alt", width: "width", content: "content" },
  accordion: { details: "add-type", header: "header" },
};

function suffixOf(type: string, field: string | number | undefined): string | null {
  if (typeof field !== "string") return null;
  return BY_TYPE[type]?.[field] ?? STYLE[field] ?? null;
}

/** The element's id prefix in the list (`editor-<key>`): kept equal to focus-machine's elementDomId. */
const elementPrefix = (key: string) => `editor-${key}`;

/**
 * Where the field at `path` is edited: the list item's key (to open its card) and the input's id, or
 * null when no input edits it (then the element's card itself is the place).
 */
export function fieldTarget(path: ContentPath, draft: Draft): { key: string | null; inputId: string | null } | null {
  const [index, field, ...rest] = path;
  if (typeof index !== "number") return null;
  if (index === 0) {
    const id = field === "url" ? "editor-slug" : field === "backgroundColor" ? "editor-colour-hex" : null;
    return { key: null, inputId: id };
  }
  const item = draft.items[index - 1];
  if (!item) return null;
  const prefix = elementPrefix(item.key);
  const element = item.element;
  if (element.type === "accordion" && field === "header") {
    const sub = rest[0];
    if (sub === undefined || sub === "content") return { key: item.key, inputId: `${prefix}-header` };
    const suffix = typeof sub === "string" ? STYLE[sub] : undefined;
    return { key: item.key, inputId: suffix ? `${prefix}-header-${suffix}` : `${prefix}-header` };
  }
  if (element.type === "accordion" && field === "details" && typeof rest[0] === "number") {
    const detail = element.details[rest[0]];
    const detailPrefix = `${prefix}-detail-${rest[0]}`;
    if (!detail) return { key: item.key, inputId: `${prefix}-add-type` };
    const suffix = suffixOf(detail.type, rest[1]);
    return { key: item.key, inputId: suffix ? `${detailPrefix}-${suffix}` : null };
  }
  const suffix = suffixOf(element.type, field);
  return { key: item.key, inputId: suffix ? `${prefix}-${suffix}` : null };
}

/** The bounds a number field takes, by its name in the content, for a message that says them. */
export function numberBounds(path: ContentPath): { min: number; max: number } | null {
  const field = path[path.length - 1];
  if (field === "fontSize") return { min: FONT_SIZE_MIN, max: FONT_SIZE_MAX };
  if (field === "size" || field === "width") return { min: SIZE_MIN, max: SIZE_MAX };
  return null;
}
