// French sets a space before the high punctuation (: ; ! ?) that must never end a line: a no-break space.
// U+00A0 rather than the narrow U+202F, which some phone fonts lack (a missing-glyph box is worse).
const NO_BREAK_SPACE = "\u00a0";

/** French punctuation spacing: a plain or missing space before `: ; ! ?` becomes a no-break space. */
export function frenchSpacing(text: string): string {
  // Only punctuation that ends a word and is followed by a space or the end: never "10:30" or "https://".
  return text.replace(/([^\s:;!?])?[ \u00a0\u202f]?([:;!?]+)(?=\s|$)/g, (match, before: string | undefined, marks: string) =>
    before === undefined ? match : `${before}${NO_BREAK_SPACE}${marks}`,
  );
}

/** "Label: value" in the interface's language ("Langue : Français" in French). */
export function withColon(label: string, lang: string): string {
  return lang === "fr" ? `${label}${NO_BREAK_SPACE}:` : `${label}:`;
}
