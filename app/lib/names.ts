/**
 * The spec's default-name rule: "<base> N" where N is one more than the highest number among existing
 * names of that shape, an unnumbered "<base>" counting as 0 (so the first one is "<base> 1").
 */
export function nextNumberedName(base: string, existing: Iterable<string>): string {
  return `${base} ${highestNumber(base, existing) + 1}`;
}

/** The highest N among `<base><separator>N` (and a bare `<base>`, counting as 0) in `existing`; 0 if none. */
export function highestNumber(base: string, existing: Iterable<string>, separator = " "): number {
  const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^${escaped(base)}(?:${escaped(separator)}(\\d+))?$`);
  let highest = 0;
  for (const name of existing) {
    const match = pattern.exec(name.trim());
    if (match) highest = Math.max(highest, match[1] ? Number(match[1]) : 0);
  }
  return highest;
}

/** A URL slug: lowercase ASCII letters, digits and dashes standing for spaces (spec §5). */
export function slugify(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug || "article";
}

/** The first of `slug`, `slug-2`, `slug-3`… not in `taken`. */
export function uniqueSlug(slug: string, taken: ReadonlySet<string>): string {
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export const NAME_MAX_LENGTH = 100;

export type NameProblem = "empty" | "too_long" | "slash" | "dot_name" | "forbidden_characters";

// C0 and C1 controls, DEL, line/paragraph separators, bidi embeddings, overrides and isolates, and
// invisible characters that only serve to make two names look alike.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u180e]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// ZWNJ and ZWJ are real letters' glue in Persian, Indic scripts and emoji, so they may stand between two
// visible characters, never at an end or beside a space, where they would only hide a difference.
const LOOSE_JOINER = /(?:^|\s)[\u200c\u200d]|[\u200c\u200d](?:\s|$)/u;

/**
 * Something a reader can see: a letter, digit, symbol or punctuation. A name of direction marks, combining
 * marks or joiners alone (each allowed inside real words) would print as an empty heading ("empty").
 */
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;

/**
 * The one rule for folder and article names, which are also segments of `/articles/*` paths: NFC,
 * trimmed, 1–100 characters, no `/`, not `.` or `..`, no control, bidi-override or stray invisible
 * characters, no lone surrogates. Returns the name to store, or what is wrong with it.
 */
export function checkItemName(raw: string): { ok: true; name: string } | { ok: false; problem: NameProblem } {
  if (LONE_SURROGATE.test(raw)) return { ok: false, problem: "forbidden_characters" };
  const name = raw.normalize("NFC").trim();
  if (name.length === 0 || !VISIBLE.test(name)) return { ok: false, problem: "empty" };
  if (name.length > NAME_MAX_LENGTH) return { ok: false, problem: "too_long" };
  if (name.includes("/")) return { ok: false, problem: "slash" };
  if (name === "." || name === "..") return { ok: false, problem: "dot_name" };
  if (FORBIDDEN.test(name) || LOOSE_JOINER.test(name)) return { ok: false, problem: "forbidden_characters" };
  return { ok: true, name };
}

export type TextProblem = "empty" | "too_long" | "forbidden_characters";

/**
 * The same character rule as names, for short labels that may hold "/" (glossary terms): NFC, trimmed,
 * 1–`max` characters, no control, bidi-override or stray invisible characters, no lone surrogates.
 */
export function checkPlainText(raw: string, max: number): { ok: true; text: string } | { ok: false; problem: TextProblem } {
  if (LONE_SURROGATE.test(raw)) return { ok: false, problem: "forbidden_characters" };
  const text = raw.normalize("NFC").trim();
  if (text.length === 0 || !VISIBLE.test(text)) return { ok: false, problem: "empty" };
  if ([...text].length > max) return { ok: false, problem: "too_long" };
  if (FORBIDDEN.test(text) || LOOSE_JOINER.test(text)) return { ok: false, problem: "forbidden_characters" };
  return { ok: true, text };
}
