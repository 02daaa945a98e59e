// What a translator's file must pass before any XML parser sees it (decision 060): a bounded size, a
// known encoding, no document type declaration (so no entity is ever defined, expanded or fetched), a
// bounded number of elements; the parser then bounds the depth. Pure.
import { DomainError } from "~/errors";

export const XLIFF_LIMITS = {
  /** The largest file accepted, in bytes: a whole museum in one language fits many times over. */
  maxBytes: 20 * 1024 * 1024,
  /** Tags in the file (an upper bound counted before parsing). */
  maxElements: 400_000,
  /** Nesting of elements. XLIFF needs about ten; inline markup a few more. */
  maxDepth: 48,
  /** Units in one file. */
  maxUnits: 50_000,
} as const;

const refused = (detail: string) => new DomainError("invalid_input", `The file is refused: ${detail}`, "file", "invalid");

export const xliffTooLarge = () => new DomainError("too_large", `The file is larger than ${XLIFF_LIMITS.maxBytes / 1024 / 1024} MB`, "file", "too_long");

// What windows-1252 has at 0x80-0x9F (WHATWG, where "iso-8859-1" and "latin1" are labels of windows-1252,
// as browsers and the tools that write such files mean them); 0 where it has nothing.
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
  0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Single-byte encodings read by their declaration: Latin-1 and its Windows superset, and ASCII. */
const SINGLE_BYTE = new Set([
  "iso-8859-1",
  "iso8859-1",
  "latin1",
  "l1",
  "iso_8859-1",
  "iso-ir-100",
  "cp819",
  "ibm819",
  "windows-1252",
  "cp1252",
  "x-cp1252",
  "us-ascii",
  "ascii",
]);

function decodeSingleByte(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] || b : b));
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** The `encoding` of the XML declaration, read from the first bytes as ASCII; null without one. */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.subarray(0, 200));
  const match = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']/.exec(head);
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * The file's text, as XML reads it: a byte order mark (UTF-8, UTF-16) wins; else the declaration's
 * encoding: UTF-8, UTF-16 (by its first character), ISO-8859-1 / windows-1252 / US-ASCII. Any other
 * declared encoding is refused by name, and bytes that are not what they claim are refused.
 */
export function decodeXliffBytes(bytes: Uint8Array): string {
  if (bytes.length > XLIFF_LIMITS.maxBytes) throw xliffTooLarge();
  let encoding = "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = "utf-16le";
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = "utf-16be";
  else if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) encoding = "utf-16le";
  else if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) encoding = "utf-16be";
  else if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)) {
    const declared = declaredEncoding(bytes);
    if (declared !== null && SINGLE_BYTE.has(declared)) {
      if (declared.includes("ascii") && bytes.some((b) => b > 0x7f)) throw refused("it declares US-ASCII but holds other bytes");
      return decodeSingleByte(bytes);
    }
    if (declared !== null && !["utf-8", "utf8", "utf-16", "utf16"].includes(declared)) {
      throw refused(`its encoding ${declared.toUpperCase()} is not read: save it as UTF-8 (or UTF-16, ISO-8859-1)`);
    }
  }
  try {
    // The decoder drops the byte order mark.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refused(encoding === "utf-8" ? "it is not valid UTF-8 (and declares no other encoding)" : `it is not valid ${encoding.toUpperCase()}`);
  }
}

/**
 * Normalises what XML itself normalises (a leading BOM, CRLF and CR line ends) and refuses a document
 * type declaration or entity declaration, and files with too many tags. Returns the text to parse.
 *
 * The markup is scanned as XML reads it: comments, CDATA sections, processing instructions and quoted
 * attribute values are skipped, so a `<!DOCTYPE` a tool left inside a comment (the file declares none)
 * is not one; a declaration anywhere else is refused.
 */
export function checkXmlSafety(input: string): string {
  if (input.length > XLIFF_LIMITS.maxBytes) throw xliffTooLarge();
  const text = input.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
  // No DTD, internal or external: entity expansion ("billion laughs") and external entities (file or
  // network reads) cannot happen when no entity can be declared.
  const declaration = () => refused("it declares a document type or entities, which are not accepted");
  const skipTo = (from: number, end: string) => {
    const at = text.indexOf(end, from);
    return at < 0 ? text.length : at + end.length;
  };
  let tags = 0;
  let at = text.indexOf("<");
  while (at >= 0) {
    if (++tags > XLIFF_LIMITS.maxElements) throw new DomainError("too_large", `The file has more than ${XLIFF_LIMITS.maxElements} tags`, "file", "too_many");
    let next: number;
    if (text.startsWith("<!--", at)) next = skipTo(at + 4, "-->");
    else if (text.startsWith("<![CDATA[", at)) next = skipTo(at + 9, "]]>");
    else if (text.startsWith("<?", at)) next = skipTo(at + 2, "?>");
    else if (text.startsWith("<!", at)) throw declaration();
    else {
      // A tag: to its closing `>`, past quoted attribute values (which may hold `>`, never `<`: a `<`
      // before the closing quote starts markup again, so nothing hides in a quote left open).
      next = at + 1;
      while (next < text.length && text[next] !== ">" && text[next] !== "<") {
        const c = text[next]!;
        if (c === '"' || c === "'") {
          const close = text.indexOf(c, next + 1);
          const open = text.indexOf("<", next + 1);
          next = close < 0 ? text.length : open >= 0 && open < close ? open : close + 1;
        } else next++;
      }
    }
    at = text.indexOf("<", next);
  }
  return text;
}
