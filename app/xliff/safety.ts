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

/**
 * The file's text: UTF-8 (with or without a byte order mark) or UTF-16 with its byte order mark, as XML
 * allows; anything else that is not valid UTF-8 is refused.
 */
export function decodeXliffBytes(bytes: Uint8Array): string {
  if (bytes.length > XLIFF_LIMITS.maxBytes) throw xliffTooLarge();
  let encoding = "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = "utf-16le";
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = "utf-16be";
  try {
    // The decoder drops the byte order mark.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refused("it is not UTF-8 (nor UTF-16 with a byte order mark)");
  }
}

/**
 * Normalises what XML itself normalises (a leading BOM, CRLF and CR line ends) and refuses a document
 * type declaration or entity declaration anywhere, and files with too many tags. Returns the text to parse.
 */
export function checkXmlSafety(input: string): string {
  if (input.length > XLIFF_LIMITS.maxBytes) throw xliffTooLarge();
  const text = input.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
  // No DTD, internal or external: entity expansion ("billion laughs") and external entities (file or
  // network reads) cannot happen when no entity can be declared. Even inside CDATA: no XLIFF needs it.
  if (/<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i.test(text)) throw refused("it declares a document type or entities, which are not accepted");
  let tags = 0;
  for (let at = text.indexOf("<"); at >= 0; at = text.indexOf("<", at + 1)) {
    if (++tags > XLIFF_LIMITS.maxElements) throw new DomainError("too_large", `The file has more than ${XLIFF_LIMITS.maxElements} tags`, "file", "too_many");
  }
  return text;
}
