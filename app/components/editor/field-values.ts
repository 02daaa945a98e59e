// Pure rules of the field editors, kept apart so they are tested without a browser.
import { HEX_COLOR } from "~/content/model";
import { safeLinkHref } from "~/content/urls";

/**
 * The number a number input's text stands for once it is a finished number, or null while it is not one
 * ("", "-", "1e999"): never NaN. Out of range or not whole, it is still returned, so the field can say
 * what is wrong instead of changing the value behind the person's back (issue 20: no silent clamp).
 */
export function readNumber(raw: string): number | null {
  if (!isCompleteNumber(raw)) return null;
  const number = Number(raw.trim());
  return Number.isFinite(number) ? number : null;
}

/** What is wrong with a number field's value, if anything. */
export function numberProblem(value: number, min: number, max: number): "not_whole" | "out_of_range" | null {
  if (!Number.isInteger(value)) return "not_whole";
  return value < min || value > max ? "out_of_range" : null;
}

/** True when the text is a finished number worth sending while the person is still typing. */
export function isCompleteNumber(raw: string): boolean {
  return /^\s*-?\d+(?:\.\d+)?\s*$/.test(raw);
}

/** `<input type=color>` only takes #rrggbb: #abc becomes #aabbcc, anything invalid the fallback. */
export function toColorInputValue(color: string, fallback = "#000000"): string {
  if (!HEX_COLOR.test(color)) return fallback;
  if (color.length === 4) return `#${[...color.slice(1)].map((c) => c + c).join("")}`.toLowerCase();
  return color.toLowerCase();
}

/** The colour typed in the hex field, with the # added if forgotten, or null while it is not one. */
export function parseHexColor(raw: string): string | null {
  const trimmed = raw.trim();
  const withHash = trimmed.startsWith("#") ? trimmed : `#${trimmed}`;
  return HEX_COLOR.test(withHash) ? withHash.toLowerCase() : null;
}

/** A link target the schema will refuse: typed, but not an absolute http(s), mailto or tel address. */
export function isInvalidLink(raw: string): boolean {
  const trimmed = raw.trim();
  return trimmed !== "" && safeLinkHref(trimmed) === null;
}

// A host name as people type it: labels of letters (any script), digits and dashes, then a dot and a
// top-level label of at least two letters; then an optional port, path, query or fragment.
const BARE_HOST = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?::\d{1,5})?(?:[/?#]\S*)?$/u;
const BARE_EMAIL = /^[^\s@/:]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}$/u;

/**
 * What a typed link most likely means (decision 069): `example.org/x` → `https://example.org/x`,
 * `//example.org` → `https://example.org`, `info@museum.fr` → `mailto:info@museum.fr`. Anything already
 * valid, empty or not recognisable comes back trimmed and unchanged, for the field to refuse.
 */
export function normaliseLink(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === "" || safeLinkHref(trimmed) !== null) return trimmed;
  const candidate = trimmed.startsWith("//")
    ? `https:${trimmed}`
    : BARE_EMAIL.test(trimmed)
      ? `mailto:${trimmed}`
      : BARE_HOST.test(trimmed)
        ? `https://${trimmed}`
        : null;
  return candidate !== null && safeLinkHref(candidate) !== null ? candidate : trimmed;
}

/** `list` with the item at `index` swapped with the one before it; the first stays. */
export function moveUp<T>(list: readonly T[], index: number): T[] {
  const next = [...list];
  if (index <= 0 || index >= list.length) return next;
  [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
  return next;
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

type Linkish = { type: string; link?: unknown; details?: unknown };

/** An element with its link's address completed (an accordion's links too), or the same object. */
function completeLinks<E extends Linkish>(element: E): E {
  if (element.type === "link" && typeof element.link === "string") {
    const link = normaliseLink(element.link);
    return link === element.link ? element : { ...element, link };
  }
  if (element.type === "accordion" && Array.isArray(element.details)) {
    const details = (element.details as Linkish[]).map(completeLinks);
    return details.some((d, i) => d !== (element.details as Linkish[])[i]) ? { ...element, details } : element;
  }
  return element;
}

/** The draft with every link's address completed as `normaliseLink` does; the same object when none changes. */
export function withCompletedLinks<D extends { items: readonly { element: { type: string } }[] }>(draft: D): D {
  const items = draft.items.map((item) => {
    const element = completeLinks(item.element as Linkish);
    return element === item.element ? item : { ...item, element };
  });
  return items.some((item, i) => item !== draft.items[i]) ? { ...draft, items } : draft;
}
