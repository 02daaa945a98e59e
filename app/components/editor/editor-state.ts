// The editor's unsaved article: pure functions over it, so the page component only wires events.
import { HEX_COLOR, newVideoId, RESERVED_SLUGS, SLUG_PATTERN } from "~/content/model";
import type { ArticleContent, ContentElement, MetadatasElement } from "~/content/schema";
import { SLUG_MAX_LENGTH } from "~/content/defaults";
import { checkItemName, type NameProblem } from "~/lib/names";

export type BodyElement = Exclude<ContentElement, { type: "metadatas" }>;

/** An element with a key that follows it through moves, so React keeps its inputs and focus. */
export interface Item {
  key: string;
  element: BodyElement;
}

export interface Draft {
  name: string;
  metadatas: MetadatasElement;
  items: Item[];
}

let nextKey = 0;
/** For elements added in the browser; loaded ones are keyed by position, the same on server and client. */
export const newKey = () => `new${++nextKey}`;

export function draftFrom(article: { unformatted_name: string; content: ArticleContent }): Draft {
  const [first, ...rest] = article.content;
  const metadatas: MetadatasElement = first?.type === "metadatas" ? first : { type: "metadatas", url: "", backgroundColor: "#341539" };
  const items = rest.filter((e): e is BodyElement => e.type !== "metadatas").map((element, index) => ({ key: `el${index}`, element }));
  return { name: article.unformatted_name, metadatas, items };
}

/** The element list the API and the preview take: metadatas first. */
export function contentOf(draft: Draft): ContentElement[] {
  return [draft.metadatas, ...draft.items.map((item) => item.element)];
}

/** What is compared to tell whether there is unsaved work (keys left out). */
export function snapshotOf(draft: Draft): string {
  return JSON.stringify([draft.name, contentOf(draft)]);
}

export function moveItem(items: Item[], index: number, by: -1 | 1): Item[] {
  const target = index + by;
  if (index < 0 || target < 0 || target >= items.length) return items;
  const next = [...items];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** The item at `from` taken out and put back at `to` (both list positions); out-of-range moves change nothing. */
export function moveItemTo(items: Item[], from: number, to: number): Item[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return items;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/**
 * A copy of the item at `index`, placed right after it under `key`. A copied video gets an id of its own
 * (its files are shared until one is replaced: an upload makes new files, never overwrites); `videoId` is
 * given by a caller that must stay pure (the editor's reducer).
 */
export function duplicateItem(items: Item[], index: number, key: string, videoId = newVideoId()): Item[] {
  const original = items[index];
  if (!original) return items;
  const element = structuredClone(original.element);
  if (element.type === "video") element.videoId = videoId;
  return [...items.slice(0, index + 1), { key, element }, ...items.slice(index + 1)];
}

export function slugProblem(url: string): "empty" | "too_long" | "invalid" | "reserved" | null {
  if (url === "") return "empty";
  if (url.length > SLUG_MAX_LENGTH) return "too_long";
  if (RESERVED_SLUGS.includes(url)) return "reserved";
  return SLUG_PATTERN.test(url) ? null : "invalid";
}

export function colourProblem(colour: string): "invalid" | null {
  return HEX_COLOR.test(colour) ? null : "invalid";
}

export function nameProblem(name: string): NameProblem | null {
  const checked = checkItemName(name);
  return checked.ok ? null : checked.problem;
}

/** `newContent.3.link` → list index 2 (the list leaves metadatas out); null for metadatas or other fields. */
export function elementIndexOfField(field: string | undefined): number | null {
  const match = /^newContent\.(\d+)(?:\.|$)/.exec(field ?? "");
  if (!match) return null;
  const index = Number(match[1]);
  return index >= 1 ? index - 1 : null;
}

/** `#abc` → `#aabbcc`, what `<input type="color">` needs; anything invalid gives the fallback. */
export function sixDigitHex(colour: string, fallback: string): string {
  if (/^#[0-9a-fA-F]{6}$/.test(colour)) return colour.toLowerCase();
  if (/^#[0-9a-fA-F]{3}$/.test(colour)) return `#${[...colour.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  return fallback;
}
