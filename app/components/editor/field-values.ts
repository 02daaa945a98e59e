// Pure rules of the field editors, kept apart so they are tested without a browser.
import { HEX_COLOR } from "~/content/schema";
import { safeLinkHref } from "~/content/urls";

/**
 * The integer a number input stands for, kept within [min, max]; `fallback` when the text is not a
 * number at all (empty, "-", "e"), so a field never emits NaN.
 */
export function clampInteger(raw: string, min: number, max: number, fallback: number): number {
  const trimmed = raw.trim();
  const number = trimmed === "" ? NaN : Number(trimmed);
  if (!Number.isFinite(number)) return Math.min(max, Math.max(min, fallback));
  return Math.min(max, Math.max(min, Math.round(number)));
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
