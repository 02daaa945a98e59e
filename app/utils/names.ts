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
