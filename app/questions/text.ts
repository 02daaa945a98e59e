// Text a visitor or a member types for visitors' pages (decision 151), cleaned as reports are (decision 034): NFC,
// line breaks as "\n", no control, bidirectional-override or byte-order characters, no lone surrogate, trimmed.

// Soft hyphens, zero-width spaces and word joiners are removed too; the zero-width (non-)joiners (U+200C, U+200D) stay:
// Persian, the Indic scripts and emoji need them (retrieval ignores them).
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const INVISIBLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function cleanVisitorText(text: string): string {
  return text.replace(LONE_SURROGATE, "").normalize("NFC").replace(/\r\n?/g, "\n").replace(INVISIBLE, "").trim();
}
