// Value catalogues: the odd, wrong and oversized inputs every call is fed.
import { int, pick, randomString, type Rng } from "./random";

/** Raw JSON text spliced into a body as is (numbers JSON.stringify cannot write, deep nesting). */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON with Raw fragments; `undefined` members are left out (a missing field). */
export function ser(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(ser).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${ser(v)}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const HUGE = "Z".repeat(100 * 1024); // 100 KB
export const DEEP_ARRAY = "[".repeat(10_000) + "]".repeat(10_000);
export const DEEP_OBJECT = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);

export type Named = readonly [label: string, value: unknown];

export const WRONG_TYPES: Named[] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["0", 0],
  ["-1", -1],
  ["1.5", 1.5],
  ["1e300", 1e300],
  ['"x"', "x"],
  ['""', ""],
  ["[]", []],
  ["[1]", [1]],
  ['["a"]', ["a"]],
  ["{}", {}],
  ['{"a":1}', { a: 1 }],
  ["[[]]", [[]]],
];

/** The odd Unicode every string field gets. */
export const ODD_CORE: Named[] = [
  ["lone high surrogate", "\ud800"],
  ["lone low surrogate", "\udfff"],
  ["NUL inside", "a\u0000b"],
  ["C0 controls", "\u0001\u0007\u001b\u001f"],
  ["C1 controls", "\u0080\u0085\u009b\u009f"],
  ["U+202E bidi override", "\u202eabc.exe"],
  ["U+200B zero-width only", "\u200b"],
  ["combining marks", "e\u0301\u0302\u0303\u0304"],
  ["NFC Été", "\u00c9t\u00e9"],
  ["NFD Été", "E\u0301te\u0301"],
  ["emoji with ZWJ", "👩‍👩‍👧‍👦"],
  ["..", ".."],
  [".", "."],
  ["/", "/"],
  ["a/b", "a/b"],
  ["whitespace only", " \t\n "],
  ["101 characters", "c".repeat(101)],
];

/** More odd strings, for the fields that name things (folder names, article names, the museum). */
export const ODD_EXTRA: Named[] = [
  ["reversed surrogate pair", "\udc00\ud800"],
  ["NUL only", "\u0000"],
  ["CR LF tab", "a\r\nb\tc"],
  ["DEL", "x\u007f"],
  ["U+200B inside", "Sal\u200ble"],
  ["BOM first", "\ufeffSalle"],
  ["U+2028 U+2029", "\u2028\u2029"],
  ["100 combining marks", "a" + "\u0301".repeat(100)],
  ["10 ZWJ families (110 code units)", "👩‍👩‍👧‍👦".repeat(10)],
  ["backslash", "a\\b"],
  ["%2F", "a%2Fb"],
  ["NBSP + ideographic space", "\u00a0\u3000"],
  ["empty", ""],
  ["100 characters", "c".repeat(100)],
  ["201 characters", "c".repeat(201)],
  ["SQL", "'; DROP TABLE folders; --"],
  ["HTML", "<script>alert(1)</script>"],
  ["__proto__", "__proto__"],
  ["noncharacters", "\ue000\ufffe\uffff"],
  ["astral around a lone surrogate", "𝄞\ud800𝄞"],
];

export const ODD_STRINGS: Named[] = [...ODD_CORE, ...ODD_EXTRA];

export const ID_VALUES: Named[] = [
  ["-1", -1],
  ["0", 0],
  ["-0", new Raw("-0")],
  ["1.5", 1.5],
  ["1e-7", 1e-7],
  ["2^53", 2 ** 53],
  ["2^53 + 1 (raw)", new Raw("9007199254740993")],
  ["2^63", new Raw("9223372036854775808")],
  ["1e300", 1e300],
  ["1e999 (Infinity)", new Raw("1e999")],
  ["-1e999", new Raw("-1e999")],
  ["30 digits", new Raw("123456789012345678901234567890")],
  ["1E2", new Raw("1E2")],
  ['"-1"', "-1"],
  ['"0"', "0"],
  ['"1.5"', "1.5"],
  ['"NaN"', "NaN"],
  ['"Infinity"', "Infinity"],
  ['"1e3"', "1e3"],
  ['"0x10"', "0x10"],
  ['" 1"', " 1"],
  ['"1 "', "1 "],
  ['"１" (fullwidth)', "１"],
  ['"٣" (Arabic-Indic)', "٣"],
  ['"999999999999999"', "999999999999999"],
  ['"9999999999999999"', "9999999999999999"],
  ['"0000000000000001"', "0000000000000001"],
  ["1,000 digits", "9".repeat(1000)],
];

export const TYPE_VALUES: Named[] = [
  ['"ARTICLE"', "ARTICLE"],
  ['"Folder"', "Folder"],
  ['"article "', "article "],
  ['"folder\\u0000"', "folder\u0000"],
  ['"museum"', "museum"],
  ['"__proto__"', "__proto__"],
  ['"constructor"', "constructor"],
];

export const META = { type: "metadatas", url: "fuzz-article" };
/** Article contents: each wrong in one way (elements, order, limits, URLs, nesting, size). */
export const CONTENT_VALUES: Named[] = [
  ["[] (no metadatas)", []],
  ["text first", [{ type: "text", content: "x" }, META]],
  ["two metadatas", [META, META]],
  ["metadatas with a bad url", [{ type: "metadatas", url: "Pas une adresse !" }]],
  ["metadatas with a 1 MB-ish url", [{ type: "metadatas", url: "a".repeat(100 * 1024) }]],
  ["unknown element", [META, { type: "marquee" }]],
  ["element without type", [META, { content: "x" }]],
  ["element __proto__", [META, { type: "__proto__" }]],
  ["javascript: link", [META, { type: "link", link: "javascript:alert(1)", content: "x" }]],
  ["data: link", [META, { type: "link", link: "data:text/html,<b>x</b>", content: "x" }]],
  ["relative link", [META, { type: "link", link: "/admin", content: "x" }]],
  ["image from http:", [META, { type: "image", src: "http://example.org/a.png" }]],
  ["image from ../", [META, { type: "image", src: "/media/../secret" }]],
  ["video id of 5", [META, { type: "video", src: "", videoId: "abcde" }]],
  ["size 0", [META, { type: "text", content: "x", size: 0 }]],
  ["size 101", [META, { type: "text", content: "x", size: 101 }]],
  ["fontSize -1", [META, { type: "text", content: "x", fontSize: -1 }]],
  ["fontSize NaN string", [META, { type: "text", content: "x", fontSize: "NaN" }]],
  ["colour not hex", [META, { type: "text", content: "x", color: "red; background:url(x)" }]],
  ["justify bogus", [META, { type: "text", content: "x", justify: "space-between" }]],
  ["nested accordion", [META, { type: "accordion", header: { content: "h" }, details: [{ type: "accordion", header: { content: "h" }, details: [] }] }]],
  ["video in accordion", [META, { type: "accordion", header: { content: "h" }, details: [{ type: "video", src: "", videoId: "abc123" }] }]],
  ["501 elements", [META, ...Array.from({ length: 500 }, () => ({ type: "space" }))]],
  ["300 KB of text (413)", [META, ...Array.from({ length: 15 }, () => ({ type: "text", content: "é".repeat(10_000) }))]],
  ["odd Unicode text (accepted)", [META, { type: "text", content: ODD_STRINGS.map(([, v]) => String(v)).join(" ") }]],
];

export const EMAILS: Named[] = [
  ["a@b", "a@b"],
  ["@", "@"],
  ["no at", "nobody.example.org"],
  ["255-character e-mail", `${"a".repeat(243)}@example.org`],
  ["NUL in e-mail", "fuzz@exa\u0000mple.org"],
  ["unicode e-mail", "été@exemple.fr"],
  ["e-mail with CRLF", "fuzz@example.org\r\nBcc: x@y.z"],
  ["SQL e-mail", "' OR 1=1 --@example.org"],
];

export type Kind = "path" | "name" | "id" | "itemId" | "type" | "email" | "password" | "content" | "nullableId";

/**
 * The values a field is fuzzed with. "full" is for the field a call is about (a new folder's name,
 * the path of a new item); "lite" keeps every kind of wrong but fewer variants of each, so the whole
 * file stays fast.
 */
export function valuesFor(kind: Kind, depth: "full" | "lite" = "full"): Named[] {
  const full = depth === "full";
  const missing: Named = ["missing", undefined];
  const huge: Named = ["100 KB string", HUGE];
  const wrong = full ? WRONG_TYPES : WRONG_TYPES.filter(([l]) => ["null", "true", "-1", "1.5", '"x"', "[]", "{}"].includes(l));
  const odd = full ? ODD_STRINGS : ODD_CORE;
  switch (kind) {
    case "path":
      return [
        missing,
        ...wrong.filter(([, v]) => !Array.isArray(v)),
        ...(full ? WRONG_TYPES.filter(([, v]) => typeof v !== "string") : WRONG_TYPES.filter(([l]) => ["null", "0", "[]", "{}"].includes(l))).map(
          ([l, v]): Named => [`[${l}]`, [v]],
        ),
        ...(full ? ODD_STRINGS : ODD_CORE.filter((_, i) => i % 3 === 0)).map(([l, v]): Named => [`[${l}]`, [v]]),
        ["[100 KB name]", [HUGE]],
        ['["Salle", ".."]', ["Salle", ".."]],
        ["51 names", Array.from({ length: 51 }, () => "a")],
        ["10,000 names", Array.from({ length: 10_000 }, () => "a")],
        ["10,000 numbers", Array.from({ length: 10_000 }, () => 1)],
        ["depth-10,000 nested array", new Raw(DEEP_ARRAY)],
        ["[depth-10,000 nested array]", new Raw(`[${DEEP_ARRAY}]`)],
        ...(full ? [["depth-10,000 nested object", new Raw(DEEP_OBJECT)] as Named, ['["..", "Salle"]', ["..", "Salle"]] as Named] : []),
      ];
    case "name":
      return [missing, ...wrong, ...odd, huge];
    case "id":
      return [
        missing,
        ...wrong,
        ...(full ? ID_VALUES : ID_VALUES.filter((_, i) => i % 2 === 0)),
        ...ODD_CORE.slice(0, full ? 12 : 4),
        huge,
        ["100 KB of digits", "9".repeat(100 * 1024)],
      ];
    case "itemId":
      return [missing, ...wrong, ...(full ? ID_VALUES : ID_VALUES.filter((_, i) => i % 2 === 0)), ...odd, huge];
    case "type":
      return [missing, ...wrong, ...TYPE_VALUES, ...ODD_CORE.slice(0, full ? 12 : 4), huge];
    case "email":
      return [missing, ...wrong, ...odd, ...EMAILS, huge, ["100 KB e-mail", `${HUGE}@example.org`]];
    case "password":
      return [missing, ...wrong, ...odd, ["1,024 characters", "p".repeat(1024)], ["1,025 characters", "p".repeat(1025)], huge];
    case "nullableId":
      return [missing, ...wrong.filter(([l]) => l !== "null"), ...ID_VALUES.filter((_, i) => i % 2 === 0), huge];
    case "content":
      return [missing, ...wrong, ...CONTENT_VALUES, ["100 KB string", HUGE]];
  }
}

export function randomValue(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (roll < 0.25) return pick(rng, WRONG_TYPES)[1];
  if (roll < 0.45) return pick(rng, ODD_STRINGS)[1];
  if (roll < 0.6) return pick(rng, ID_VALUES)[1];
  if (roll < 0.75) return randomString(rng);
  if (roll < 0.87 && depth < 4) return Array.from({ length: int(rng, 0, 4) }, () => randomValue(rng, depth + 1));
  if (depth < 4) {
    const out: Record<string, unknown> = {};
    for (let i = int(rng, 0, 3); i > 0; i--) out[pick(rng, ["a", "id", "type", "pathArray", "__proto__", randomString(rng, 8)])] = randomValue(rng, depth + 1);
    return out;
  }
  return int(rng, -5, 5);
}

/** Bytes that are mostly JSON punctuation, sometimes invalid UTF-8. */
export function randomBytes(rng: Rng): Uint8Array<ArrayBuffer> {
  const alphabet = new TextEncoder().encode('{}[]":,0123456789.-eE truefalsnul\\u"aé');
  const out = new Uint8Array(int(rng, 1, 300));
  for (let i = 0; i < out.length; i++) out[i] = rng() < 0.1 ? int(rng, 0x80, 0xff) : alphabet[int(rng, 0, alphabet.length - 1)]!;
  return out;
}

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(new TextEncoder().encode(text));

/** A body of exactly `bytes` bytes: `build(pad)` with the pad made of `unit` (1 or 2 UTF-8 bytes). */
export function sized(bytes: number, build: (pad: string) => string, unit = "x"): Uint8Array<ArrayBuffer> {
  const empty = utf8(build("")).length;
  const unitBytes = utf8(unit).length;
  const room = bytes - empty;
  const pad = unit.repeat(Math.floor(room / unitBytes)) + "x".repeat(room % unitBytes);
  const out = utf8(build(pad));
  if (out.length !== bytes) throw new Error(`sized body is ${out.length} bytes, wanted ${bytes}`);
  return out;
}

export function streamOf(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 65_536));
      offset += 65_536;
    },
  });
}

/** Percent-encodes like a browser, even lone surrogates (as U+FFFD), which encodeURIComponent refuses. */
export function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...utf8(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
}
