/**
 * Malformed-input fuzz of every call of the app, asserting the error contract:
 *
 *  1. Never a 5xx, for any input.
 *  2. Every /api/* and JSON /login error is JSON `{ error: { code, message, field? } }` with status 400
 *     (`field` naming the offending field when one is at fault), 401, 404, 405, 409, 413, 415 or 429.
 *  3. 405 responses carry an `Allow` header.
 *  4. An invalid value is never echoed back whole: an error body (other than an HTML page) is under
 *     2,000 characters even when the bad value was 1 MB; an HTML page never contains the bad value.
 *  5. A JSON body over 1 MB (1,048,576 bytes) answers 413 `too_large`, on any JSON call.
 *  6. The JSON content-type check parses the media type: "text/plain; a=application/json" answers 415
 *     `unsupported_media_type`; "application/json; charset=utf-8" is accepted.
 *  7. /login and /settings answer 400 or 415, not 500, to a body of an unexpected content type or none.
 *  8. After the fuzz the museum's data is intact: /api/tree answers 200 JSON with the folder made before.
 *
 * Deterministic: every generated input comes from a seeded PRNG (SEED below), so a failure replays.
 * Each call has its own table of cases (extend the tables, not the `it` blocks); requests run with
 * bounded concurrency and every contract breach is reported with the case, status and body excerpt.
 *
 * Storage is isolated per test: each `it` fuzzes the fixtures written in `beforeAll` and then checks
 * they are intact (rule 8) before its writes are rolled back.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { createSession } from "~/models/auth.server";
import worker from "../../workers/app";
import { BASE, createMuseumWithUser, logIn, postJson, type TestUser } from "./helpers";

const SEED = 0x6d757365; // "muse"
const CONCURRENCY = 8;
const MAX_JSON_BYTES = 1_048_576;
const MAX_ERROR_BODY_CHARS = 2_000;
const ERROR_STATUSES = [400, 401, 404, 405, 409, 413, 415, 429] as const;
const TEST_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------------

type Rng = () => number;

function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One stream per call, so adding cases to one call does not reshuffle the others. */
function rngFor(call: string): Rng {
  let h = SEED;
  for (let i = 0; i < call.length; i++) h = Math.imul(h ^ call.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(h);
}

const pick = <T,>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

function randomString(rng: Rng, maxLength = 120): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e], // printable ASCII
    [0x00, 0x1f], // C0
    [0x7f, 0x9f], // DEL + C1
    [0xd800, 0xdfff], // lone surrogates
    [0x0300, 0x036f], // combining marks
    [0x200b, 0x202e], // zero-width, bidi
    [0x00a0, 0x00ff], // Latin-1
    [0xfff0, 0xffff], // specials, noncharacters
  ];
  let out = "";
  const length = int(rng, 0, maxLength);
  for (let i = 0; i < length; i++) {
    if (rng() < 0.05) {
      out += pick(rng, ["👩‍👩‍👧‍👦", "𝄞", "/", "..", "%", "\\", '"', "'"]);
      continue;
    }
    const [lo, hi] = pick(rng, ranges);
    out += String.fromCharCode(int(rng, lo, hi));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Value catalogues
// ---------------------------------------------------------------------------------------------------

/** Raw JSON text spliced into a body as is (numbers JSON.stringify cannot write, deep nesting). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON with Raw fragments; `undefined` members are left out (a missing field). */
function ser(value: unknown): string {
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

const HUGE = "Z".repeat(100 * 1024); // 100 KB
const DEEP_ARRAY = "[".repeat(10_000) + "]".repeat(10_000);
const DEEP_OBJECT = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);

type Named = readonly [label: string, value: unknown];

const WRONG_TYPES: Named[] = [
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
const ODD_CORE: Named[] = [
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
const ODD_EXTRA: Named[] = [
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

const ODD_STRINGS: Named[] = [...ODD_CORE, ...ODD_EXTRA];

const ID_VALUES: Named[] = [
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

const TYPE_VALUES: Named[] = [
  ['"ARTICLE"', "ARTICLE"],
  ['"Folder"', "Folder"],
  ['"article "', "article "],
  ['"folder\\u0000"', "folder\u0000"],
  ['"museum"', "museum"],
  ['"__proto__"', "__proto__"],
  ['"constructor"', "constructor"],
];

const META = { type: "metadatas", url: "fuzz-article" };
/** Article contents: each wrong in one way (elements, order, limits, URLs, nesting, size). */
const CONTENT_VALUES: Named[] = [
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

const EMAILS: Named[] = [
  ["a@b", "a@b"],
  ["@", "@"],
  ["no at", "nobody.example.org"],
  ["255-character e-mail", `${"a".repeat(243)}@example.org`],
  ["NUL in e-mail", "fuzz@exa\u0000mple.org"],
  ["unicode e-mail", "été@exemple.fr"],
  ["e-mail with CRLF", "fuzz@example.org\r\nBcc: x@y.z"],
  ["SQL e-mail", "' OR 1=1 --@example.org"],
];

type Kind = "path" | "name" | "id" | "itemId" | "type" | "email" | "password" | "content" | "nullableId";

/**
 * The values a field is fuzzed with. "full" is for the field a call is about (a new folder's name,
 * the path of a new item); "lite" keeps every kind of wrong but fewer variants of each, so the whole
 * file stays fast.
 */
function valuesFor(kind: Kind, depth: "full" | "lite" = "full"): Named[] {
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
      return [missing, ...wrong, ...(full ? ID_VALUES : ID_VALUES.filter((_, i) => i % 2 === 0)), ...ODD_CORE.slice(0, full ? 12 : 4), huge, ["100 KB of digits", "9".repeat(100 * 1024)]];
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

function randomValue(rng: Rng, depth = 0): unknown {
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
function randomBytes(rng: Rng): Uint8Array<ArrayBuffer> {
  const alphabet = new TextEncoder().encode('{}[]":,0123456789.-eE truefalsnul\\u"aé');
  const out = new Uint8Array(int(rng, 1, 300));
  for (let i = 0; i < out.length; i++) out[i] = rng() < 0.1 ? int(rng, 0x80, 0xff) : alphabet[int(rng, 0, alphabet.length - 1)]!;
  return out;
}

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(new TextEncoder().encode(text));

/** A body of exactly `bytes` bytes: `build(pad)` with the pad made of `unit` (1 or 2 UTF-8 bytes). */
function sized(bytes: number, build: (pad: string) => string, unit = "x"): Uint8Array<ArrayBuffer> {
  const empty = utf8(build("")).length;
  const unitBytes = utf8(unit).length;
  const room = bytes - empty;
  const pad = unit.repeat(Math.floor(room / unitBytes)) + "x".repeat(room % unitBytes);
  const out = utf8(build(pad));
  if (out.length !== bytes) throw new Error(`sized body is ${out.length} bytes, wanted ${bytes}`);
  return out;
}

function streamOf(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
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
function enc(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...utf8(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
}

// ---------------------------------------------------------------------------------------------------
// Cases, requests and checks
// ---------------------------------------------------------------------------------------------------

/** "user": the fixture user's cookie; "fresh": a session minted for this request alone (logout). */
type SessionMode = "user" | "none" | "fresh" | { cookie: string };

interface Expectation {
  /** The rule this expectation encodes, printed with a breach. */
  rule: string;
  status?: readonly number[];
  notStatus?: readonly number[];
  code?: string;
  /** When the answer is 400, `error.field` must name one of these (or a sub-path of one). */
  fields?: readonly string[];
}

interface FuzzCase {
  label: string;
  method: string;
  path: string;
  /** `null` sends no Content-Type at all; undefined leaves fetch's default. */
  contentType?: string | null;
  headers?: Record<string, string>;
  body?: () => BodyInit;
  session: SessionMode;
  /** Rule 2 applies: errors must be the JSON error body. */
  jsonErrors: boolean;
  /** An /api/* call: besides errors, only 200 is acceptable. */
  api?: boolean;
  /** A value that must never come back whole (rule 4). */
  echo?: string;
  expect?: Expectation[];
}

interface Outcome {
  status: number;
  contentType: string;
  allow: string | null;
  text: string;
  thrown?: string;
}

interface Breach {
  c: FuzzCase;
  r: Outcome;
  problems: string[];
}

interface Fixtures {
  user: TestUser;
  cookie: string;
  articleInSalle: number;
  articleAtRoot: number;
  qrcode: number;
  sentinelArticle: number;
  trashedFolderId: number;
  trashedArticleId: number;
  other: { cookie: string; tree: unknown };
}

let fx: Fixtures;

/**
 * Hands the request straight to the Worker's fetch handler (the same code SELF runs). SELF.fetch
 * would do too, but vitest-pool-workers 0.12 wraps its entrypoint prototype in one more Proxy on
 * every call, so thousands of SELF.fetch calls slow down quadratically and end in "Maximum call
 * stack size exceeded" (createProxyPrototypeClass in its test-internal.mjs).
 */
async function dispatch(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

async function send(c: FuzzCase): Promise<Outcome> {
  const headers = new Headers({ Host: "localhost" });
  if (c.session === "user") headers.set("Cookie", fx.cookie);
  else if (c.session === "fresh") {
    const { token } = await createSession(createDb(env.DB), fx.user.userId);
    headers.set("Cookie", `muselingo_session=${token}`);
  } else if (typeof c.session === "object") headers.set("Cookie", c.session.cookie);
  for (const [name, value] of Object.entries(c.headers ?? {})) headers.set(name, value);
  if (c.contentType) headers.set("Content-Type", c.contentType);
  let body = c.body?.();
  if (c.contentType === null && (typeof body === "string" || body instanceof URLSearchParams)) body = utf8(body.toString());
  try {
    const response = await dispatch(new Request(`${BASE}${c.path}`, { method: c.method, headers, body, redirect: "manual" }));
    return {
      status: response.status,
      contentType: response.headers.get("Content-Type") ?? "",
      allow: response.headers.get("Allow"),
      text: await response.text(),
    };
  } catch (error) {
    return { status: 0, contentType: "", allow: null, text: "", thrown: String(error) };
  }
}

interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (value === null || typeof value !== "object" || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  if (error === null || typeof error !== "object") return false;
  const e = error as Record<string, unknown>;
  return typeof e.code === "string" && typeof e.message === "string" && (e.field === undefined || typeof e.field === "string");
}

function check(c: FuzzCase, r: Outcome): string[] {
  if (r.thrown) return [`rule 1: the request threw: ${r.thrown}`];
  if (r.status >= 500) return [`rule 1: ${r.status}`];
  const problems: string[] = [];
  let json: unknown;
  try {
    json = JSON.parse(r.text);
  } catch {
    json = undefined;
  }
  const isError = r.status >= 400;
  const isHtml = r.contentType.toLowerCase().startsWith("text/html");

  if (c.jsonErrors && isError) {
    if (!(ERROR_STATUSES as readonly number[]).includes(r.status)) problems.push(`rule 2: status ${r.status} is not one of ${ERROR_STATUSES.join("/")}`);
    if (!/^application\/json\b/i.test(r.contentType)) problems.push(`rule 2: Content-Type "${r.contentType}" is not JSON`);
    else if (!isErrorBody(json)) problems.push("rule 2: body is not { error: { code, message, field? } }");
  }
  if (c.api && !isError && r.status !== 200) problems.push(`rule 2: an /api call answered ${r.status}`);
  if (r.status === 405 && !r.allow) problems.push("rule 3: 405 without an Allow header");
  if (isError) {
    if (!isHtml && r.text.length >= MAX_ERROR_BODY_CHARS) problems.push(`rule 4: error body is ${r.text.length} characters`);
    if (c.echo && r.text.includes(c.echo)) problems.push("rule 4: the response echoes the bad value whole");
  }

  for (const e of c.expect ?? []) {
    if (e.status && !e.status.includes(r.status)) {
      problems.push(`${e.rule}: status ${r.status}, expected ${e.status.join(" or ")}`);
      continue;
    }
    if (e.notStatus?.includes(r.status)) {
      problems.push(`${e.rule}: status ${r.status} is not acceptable here`);
      continue;
    }
    if (e.code && isError && (!isErrorBody(json) || json.error.code !== e.code)) {
      problems.push(`${e.rule}: error code ${isErrorBody(json) ? json.error.code : "(none)"}, expected ${e.code}`);
    }
    if (e.fields && r.status === 400 && isErrorBody(json)) {
      const field = json.error.field;
      if (!field || !e.fields.some((f) => field === f || field.startsWith(`${f}.`))) {
        problems.push(`${e.rule}: 400 names field ${field ?? "(none)"}, expected ${e.fields.join(" or ")}`);
      }
    }
  }
  return problems;
}

async function runCases(cases: readonly FuzzCase[], concurrency = CONCURRENCY): Promise<Breach[]> {
  const breaches: Breach[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const r = await send(c);
      const problems = check(c, r);
      if (problems.length > 0) breaches.push({ c, r, problems });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return breaches;
}

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…` : text);

function report(call: string, total: number, breaches: readonly Breach[]): string {
  if (breaches.length === 0) return "";
  const byRule = new Map<string, number>();
  for (const b of breaches) for (const p of b.problems) byRule.set(p.split(":")[0]!, (byRule.get(p.split(":")[0]!) ?? 0) + 1);
  const lines = breaches.map(({ c, r, problems }) => {
    const who = c.session === "none" ? "[no session] " : "";
    const type = c.contentType === null ? " ct=(none)" : c.contentType ? ` ct=${JSON.stringify(c.contentType)}` : "";
    return (
      `  • ${who}${c.label} — ${c.method} ${clip(c.path, 100)}${type}\n` +
      `      → ${r.status} ${JSON.stringify(clip(r.thrown ?? r.text, 200))}\n` +
      `      ${problems.join("\n      ")}`
    );
  });
  return [
    `${call}: ${breaches.length} of ${total} cases break the contract (seed 0x${SEED.toString(16)})`,
    `  by rule: ${[...byRule].map(([rule, n]) => `${rule} ×${n}`).join(", ")}`,
    ...lines,
  ].join("\n");
}

/** Rule 8: the fixtures made before the fuzz are still there, and the other museum is untouched. */
async function intactBreaches(): Promise<Breach[]> {
  const breaches: Breach[] = [];
  const probe = async (label: string, path: string, cookie: string, test: (status: number, body: unknown) => string | null) => {
    const c: FuzzCase = { label, method: "GET", path, session: { cookie }, jsonErrors: true, api: true };
    const r = await send(c);
    let body: unknown;
    try {
      body = JSON.parse(r.text);
    } catch {
      body = undefined;
    }
    const problem = r.thrown ? `rule 8: threw ${r.thrown}` : test(r.status, body);
    if (problem) breaches.push({ c, r, problems: [problem] });
  };
  await probe("after the fuzz: the tree", "/api/tree", fx.cookie, (status, body) => {
    if (status !== 200 || !Array.isArray(body)) return `rule 8: /api/tree answered ${status} ${Array.isArray(body) ? "" : "without a JSON array"}`;
    const sentinel = (body as { id: unknown; children?: { id: unknown; children?: { id: unknown }[] }[] }[]).find((n) => n.id === "Sentinelle");
    const inner = sentinel?.children?.find((n) => n.id === "Intérieur");
    if (!inner) return "rule 8: folder Sentinelle/Intérieur made before the fuzz is gone";
    if (!inner.children?.some((n) => n.id === fx.sentinelArticle)) return "rule 8: the article in Sentinelle/Intérieur is gone";
    return null;
  });
  await probe("after the fuzz: the sentinel article", `/api/read/article?articleId=${fx.sentinelArticle}`, fx.cookie, (status) =>
    status === 200 ? null : `rule 8: the sentinel article answers ${status}`,
  );
  await probe("after the fuzz: another museum's tree", "/api/tree", fx.other.cookie, (status, body) =>
    status === 200 && JSON.stringify(body) === JSON.stringify(fx.other.tree) ? null : "rule 8: another museum's tree changed",
  );
  return breaches;
}

async function fuzz(call: string, cases: readonly FuzzCase[], opts: { concurrency?: number; together?: readonly FuzzCase[] } = {}) {
  const breaches = await runCases(cases, opts.concurrency);
  // Cases sent all at once, for races between valid requests.
  if (opts.together) {
    const outcomes = await Promise.all(opts.together.map(send));
    opts.together.forEach((c, i) => {
      const problems = check(c, outcomes[i]!);
      if (problems.length > 0) breaches.push({ c, r: outcomes[i]!, problems });
    });
  }
  breaches.push(...(await intactBreaches()));
  const text = report(call, cases.length + (opts.together?.length ?? 0), breaches);
  expect(breaches.length, text).toBe(0);
}

// ---------------------------------------------------------------------------------------------------
// Case tables
// ---------------------------------------------------------------------------------------------------

const JSON_TYPE = "application/json";
const WRONG_METHODS = ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

interface JsonField {
  name: string;
  kind: Kind;
  /** Fields a 400 may name instead when this one changes how the others are read. */
  alsoFields?: string[];
  /** "full" for the field the call is about; "lite" (the default) for the others. */
  depth?: "full" | "lite";
}

interface JsonCall {
  call: string;
  path: string;
  login?: boolean;
  /**
   * Valid bodies the fields are mutated from, one at a time; `i` makes each case's body unique.
   * `fields` limits which fields a base mutates (every field when absent).
   */
  bases: { label: string; body: (i: number) => Record<string, unknown>; fields?: string[] }[];
  fields: JsonField[];
  /** A string field that can carry 1 MB. */
  bigField: string;
  headers?: (i: number) => Record<string, string>;
}

/** Rule 6/7 media types: `accept` ones must get past the content-type check. */
const MEDIA_TYPES: { type: string | null; accept: boolean; body?: string }[] = [
  { type: "application/json; charset=utf-8", accept: true },
  { type: "application/json;charset=UTF-8", accept: true },
  { type: "Application/JSON", accept: true },
  { type: "text/plain", accept: false },
  { type: "text/plain; a=application/json", accept: false },
  { type: null, accept: false },
  { type: "application/jsonx", accept: false },
  { type: "application/x-www-form-urlencoded", accept: false, body: "pathArray=x&id=y" },
  { type: "multipart/form-data; boundary=fuzz", accept: false, body: "--fuzz\r\nnot a part\r\n" },
  { type: "multipart/form-data", accept: false, body: "no boundary at all" },
  { type: "application/octet-stream", accept: false },
];

function jsonCallCases(spec: JsonCall, rng: Rng): FuzzCase[] {
  const cases: FuzzCase[] = [];
  let serial = 0;
  const api = !spec.login;
  const base = spec.bases[0]!;
  const add = (label: string, body: (i: number) => BodyInit, extra: Partial<FuzzCase> = {}) => {
    const i = serial++;
    cases.push({
      label,
      method: "POST",
      path: spec.path,
      contentType: JSON_TYPE,
      body: () => body(i),
      session: api ? "user" : "none",
      jsonErrors: true,
      api,
      headers: spec.headers?.(i),
      ...extra,
    });
    return i;
  };
  const invalid = (rule = "rule 2"): Expectation[] => [{ rule, status: [400], code: "invalid_input" }];

  // The clean request, so a broken base is visible.
  for (const b of spec.bases) {
    add(`valid body (${b.label})`, (i) => ser(b.body(i)), { expect: [{ rule: "sanity", notStatus: [400, 413, 415] }] });
  }

  // Bodies that are not the expected JSON at all.
  const raw: [string, (i: number) => BodyInit, Expectation[]?][] = [
    ["empty body", () => "", invalid()],
    ["not JSON", () => "hello", invalid()],
    ["form-encoded text sent as JSON", () => "pathArray=x&id=y", invalid()],
    ["truncated JSON: {", () => "{", invalid()],
    ["truncated JSON: half the body", (i) => ser(base.body(i)).slice(0, Math.floor(ser(base.body(i)).length / 2)), invalid()],
    ["truncated JSON: last byte cut", (i) => ser(base.body(i)).slice(0, -1), invalid()],
    ["truncated escape", () => '{"a":"\\u12', invalid()],
    ["trailing garbage", (i) => `${ser(base.body(i))}x`, invalid()],
    ["two JSON documents", (i) => ser(base.body(i)).repeat(2), invalid()],
    // An empty object has no quotes to swap: give it a member, so the body is JSON5-ish, not JSON.
    ["single quotes", (i) => (ser(base.body(i)) === "{}" ? "{'a':1}" : ser(base.body(i))).replaceAll('"', "'"), invalid()],
    ["trailing comma", (i) => `${ser(base.body(i)).slice(0, -1)},}`, invalid()],
    ["comment", (i) => `// comment\n${ser(base.body(i))}`],
    ["top level null", () => "null", invalid()],
    ["top level 42", () => "42", invalid()],
    ['top level "x"', () => '"x"', invalid()],
    ["top level []", () => "[]", invalid()],
    ["top level true", () => "true", invalid()],
    ["top level false", () => "false", invalid()],
    ["top level [valid body]", (i) => `[${ser(base.body(i))}]`, invalid()],
    ["top level {}", () => "{}"],
    ["depth-10,000 nested array as the body", () => DEEP_ARRAY, invalid()],
    ["depth-10,000 nested object as the body", () => DEEP_OBJECT],
    ["duplicate keys, last one a number", (i) => `${ser(base.body(i)).slice(0, -1)},${JSON.stringify(spec.bigField)}:42}`],
    ["__proto__ member", (i) => `${ser(base.body(i)).slice(0, -1)},"__proto__":{"polluted":true}}`],
    ["constructor.prototype member", (i) => `${ser(base.body(i)).slice(0, -1)},"constructor":{"prototype":{"polluted":true}}}`],
    ["BOM before the JSON", (i) => `\ufeff${ser(base.body(i))}`],
    ["invalid UTF-8 inside a string", () => new Uint8Array([...utf8(`{${JSON.stringify(spec.bigField)}:"`), 0xc3, 0x28, 0xff, ...utf8('"}')])],
    ["UTF-16LE body", (i) => new Uint8Array([0xff, 0xfe, ...[...ser(base.body(i))].flatMap((ch) => [ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8])]), invalid()],
  ];
  for (const [label, body, expectation] of raw) add(label, body, { expect: expectation });

  // Rule 5: size. `pad` is a member the schemas do not know, so only the size is wrong.
  const tooLarge: Expectation[] = [{ rule: "rule 5", status: [413], code: "too_large" }];
  const withPad = (i: number) => (pad: string) => ser({ ...base.body(i), pad });
  const inField = (i: number) => (pad: string) => ser({ ...base.body(i), [spec.bigField]: pad });
  add("1 MB + 1 byte, valid JSON with an unknown member", (i) => sized(MAX_JSON_BYTES + 1, withPad(i)), { expect: tooLarge });
  add(`1 MB + 1 byte in ${spec.bigField}`, (i) => sized(MAX_JSON_BYTES + 1, inField(i)), { expect: tooLarge });
  add("1 MB + 1 byte of 2-byte characters (under 1 M characters)", (i) => sized(MAX_JSON_BYTES + 1, withPad(i), "é"), { expect: tooLarge });
  add("1 MB + 1 byte, not JSON", () => sized(MAX_JSON_BYTES + 1, (pad) => `{${pad}`), { expect: tooLarge });
  add("1 MB + 1 byte streamed, no Content-Length", (i) => streamOf(sized(MAX_JSON_BYTES + 1, withPad(i))), { expect: tooLarge });
  add("exactly 1 MB, valid JSON", (i) => sized(MAX_JSON_BYTES, withPad(i)), { expect: [{ rule: "rule 5", notStatus: [413] }] });

  // Rules 6 and 7: media types.
  for (const m of MEDIA_TYPES) {
    const label = `Content-Type ${m.type === null ? "(none)" : JSON.stringify(m.type)}`;
    const body = (i: number) => m.body ?? ser(base.body(i));
    let expectation: Expectation[];
    if (m.accept) expectation = [{ rule: "rule 6", notStatus: [400, 413, 415] }];
    else if (m.type === "text/plain; a=application/json" || !spec.login) expectation = [{ rule: "rule 6", status: [415], code: "unsupported_media_type" }];
    else expectation = [{ rule: "rule 7", status: [400, 415] }];
    // Only a JSON media type promises a JSON answer from /login.
    add(label, body, { contentType: m.type, expect: expectation, jsonErrors: api || m.accept || m.type === "text/plain; a=application/json" });
  }

  // Wrong methods.
  if (api) {
    for (const method of WRONG_METHODS) {
      cases.push({
        label: `${method} instead of POST`,
        method,
        path: spec.path,
        body: method === "GET" ? undefined : () => ser(base.body(0)),
        contentType: method === "GET" ? undefined : JSON_TYPE,
        session: "user",
        jsonErrors: true,
        api: true,
        expect: [{ rule: "rule 2/3", status: [405] }],
      });
    }
  }

  // Every field, one at a time, from every base.
  for (const b of spec.bases) {
    for (const field of spec.fields.filter((f) => !b.fields || b.fields.includes(f.name))) {
      for (const [label, value] of valuesFor(field.kind, field.depth)) {
        const body = (i: number) => ser({ ...b.body(i), [field.name]: value });
        add(`${field.name} = ${label} (${b.label})`, body, {
          echo: typeof value === "string" && value.length >= 1000 ? value : undefined,
          expect: [{ rule: "rule 2 (field)", fields: [field.name, ...(field.alsoFields ?? [])] }],
        });
      }
    }
  }

  // Seeded random mutations, byte soup and truncations.
  for (let n = 0; n < 20; n++) {
    const b = pick(rng, spec.bases);
    const body: Record<string, unknown> = { ...b.body(serial) };
    const changes: string[] = [];
    for (let k = int(rng, 1, 3); k > 0; k--) {
      const field = pick(rng, [...spec.fields.map((f) => f.name), "extra"]);
      if (rng() < 0.2) {
        body[field] = undefined;
        changes.push(`${field} missing`);
      } else {
        body[field] = randomValue(rng);
        changes.push(`${field}=${clip(ser(body[field]), 40)}`);
      }
    }
    const text = ser(body);
    add(`random #${n}: ${changes.join(", ")}`, () => text);
  }
  for (let n = 0; n < 8; n++) {
    const bytes = randomBytes(rng);
    add(`random bytes #${n} (${bytes.length} bytes)`, () => bytes);
  }
  for (let n = 0; n < 5; n++) {
    const text = ser({ ...base.body(serial), [pick(rng, spec.fields).name]: randomValue(rng) });
    const cut = int(rng, 0, text.length - 1);
    add(`random truncation #${n} at ${cut}/${text.length}`, () => text.slice(0, cut), { expect: invalid() });
  }

  // Without a session: the clean bodies, a few of each kind of wrong body, and a sample of the rest.
  if (api) {
    const picked = /^(valid body|empty body|not JSON|truncated JSON: \{|top level null|top level \[\]|1 MB \+ 1 byte, valid JSON|Content-Type "text\/plain; a=|Content-Type \(none\)|GET instead|PUT instead)/;
    const anonymous = cases
      .filter((c) => picked.test(c.label) || rng() < 0.03)
      .map((c): FuzzCase => {
        const sizeCase = c.expect?.some((e) => e.status?.includes(413));
        const methodCase = c.method !== "POST";
        const status = methodCase ? [401, 405] : sizeCase ? [401, 413] : c.label.startsWith("valid body") ? [401] : [...ERROR_STATUSES];
        return { ...c, session: "none", expect: [{ rule: "rule 2 (no session)", status }] };
      });
    cases.push(...anonymous);
  }
  return cases;
}

interface GetCall {
  call: string;
  path: string;
  api: boolean;
  /** Status of the clean request with a session. */
  ok: number[];
  /** Statuses acceptable for every other GET case with a session (docs: /session is 200 always). */
  always?: number[];
  query?: { name: string; valid: () => string; kind: Kind };
}

const ACCEPT_LANGUAGES: Named[] = [
  ["*", "*"],
  ["empty", ""],
  ["xx", "xx"],
  ["q=abc", "en;q=abc"],
  ["q out of range", "en;q=2,fr;q=-1"],
  ["extension subtags", "zz-ZZZZ-u-co-phonebk-x-private"],
  ["grandfathered tag", "i-klingon"],
  ["dangling hyphen", "en-"],
  ["punctuation", ",,,;;;=="],
  ["8 KB tag", "a".repeat(8192)],
  ["2,000 languages", "en-US,".repeat(2000)],
];

function cookieCases(cookie: string): Named[] {
  return [
    ["session cookie %", "muselingo_session=%"],
    ["session cookie %E0%A4%A", "muselingo_session=%E0%A4%A"],
    ["session cookie empty", "muselingo_session="],
    ["session cookie without =", "muselingo_session"],
    ["made-up token", `muselingo_session=${"A".repeat(43)}`],
    ["4 KB token", `muselingo_session=${"B".repeat(4096)}`],
    ["200 cookies", Array.from({ length: 200 }, (_, i) => `c${i}=v`).join("; ")],
    ["lng=%%%", `${cookie}; lng=%%%`],
    ["lng not base64", `${cookie}; lng=!!!`],
    ["lng JSON of an object", `${cookie}; lng=${btoa(JSON.stringify({ a: 1 }))}`],
    ["valid session then %", `${cookie}; muselingo_session=%`],
    ["% then valid session", `muselingo_session=%; ${cookie}`],
    [";;;=;", ";;;=;"],
  ];
}

const JUNK_QUERIES = [
  "?",
  "?a=1&a=2&a=3",
  "?%E0%A4%A=1",
  "?x=%00",
  "?x=%FF%FE",
  "?x=%",
  "?_data=routes%2Fnope",
  "?_data=",
  "?index",
  "?__proto__=1&constructor=2",
  `?q=${"q".repeat(8 * 1024)}`,
];

function getCallCases(spec: GetCall, rng: Rng): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const base = spec.query ? `${spec.path}?${spec.query.name}=${spec.query.valid()}` : spec.path;
  const always: Expectation[] = spec.always ? [{ rule: "docs", status: spec.always }] : [];
  const add = (label: string, path: string, extra: Partial<FuzzCase> = {}) =>
    cases.push({ label, method: "GET", path, session: "user", jsonErrors: spec.api, api: spec.api, expect: always, ...extra });

  add("clean request", base, { expect: [{ rule: "sanity", status: spec.ok }] });
  for (const q of JUNK_QUERIES) add(`query ${clip(q, 40)}`, `${spec.path}${q}`);
  for (const q of JUNK_QUERIES.slice(0, 4)) add(`valid request + query ${q}`, `${base}${base.includes("?") ? "&" : "?"}${q.slice(1)}`);
  add("100 KB query", `${spec.path}?q=${HUGE}`, { echo: HUGE });
  for (const [label, value] of ACCEPT_LANGUAGES) add(`Accept-Language ${label}`, base, { headers: { "Accept-Language": value as string } });
  add("Accept: text/html", base, { headers: { Accept: "text/html" } });
  add("Content-Type on a GET", base, { headers: { "Content-Type": "text/plain; a=application/json" } });
  for (const [label, cookie] of cookieCases(fx.cookie)) add(`Cookie: ${label}`, base, { session: { cookie: cookie as string } });

  if (spec.query) {
    const q = spec.query;
    const field: Expectation[] = [{ rule: "rule 2 (field)", fields: [q.name] }];
    for (const [label, value] of valuesFor(q.kind)) {
      if (value === undefined) add(`${q.name} missing`, spec.path, { expect: [...always, ...field, { rule: "docs", status: [400] }] });
      else if (value instanceof Raw) add(`${q.name} = ${label}`, `${spec.path}?${q.name}=${enc(value.text)}`, { expect: [...always, ...field] });
      else {
        const text = typeof value === "string" ? value : JSON.stringify(value);
        add(`${q.name} = ${label}`, `${spec.path}?${q.name}=${enc(text)}`, {
          expect: [...always, ...field],
          echo: text.length >= 1000 ? text : undefined,
        });
      }
    }
    const valid = q.valid();
    for (const [label, query] of [
      ["repeated, valid then junk", `${q.name}=${valid}&${q.name}=abc`],
      ["repeated, junk then valid", `${q.name}=abc&${q.name}=${valid}`],
      ["repeated, valid twice", `${q.name}=${valid}&${q.name}=${valid}`],
      ["bracket syntax", `${q.name}[]=${valid}`],
      ["other case", `${q.name.toUpperCase()}=${valid}`],
      ["empty value", `${q.name}=`],
      ["raw CESU surrogate", `${q.name}=%ED%A0%80`],
      ["raw invalid UTF-8", `${q.name}=%FF`],
      ["bad percent escape", `${q.name}=%E0%A4%A`],
      ["lone %", `${q.name}=%`],
      ["plus sign", `${q.name}=+1`],
    ] as const) {
      add(`${q.name} ${label}`, `${spec.path}?${query}`, { expect: [...always, ...field] });
    }
    for (let n = 0; n < 20; n++) {
      const text = randomString(rng, 30);
      add(`random ${q.name} #${n}: ${JSON.stringify(clip(text, 30))}`, `${spec.path}?${q.name}=${enc(text)}`, { expect: [...always, ...field] });
    }
  }

  for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
    cases.push({
      label: `${method} instead of GET`,
      method,
      path: base,
      contentType: JSON_TYPE,
      body: () => "{}",
      session: "user",
      jsonErrors: spec.api,
      api: spec.api,
      // Remix answers OPTIONS with the loader, like a GET: only the other methods must be refused.
      expect: spec.api && method !== "OPTIONS" ? [{ rule: "rule 2/3", status: [405] }] : [],
    });
  }

  // Without a session.
  const anonymous = cases
    .filter((c) => !(typeof c.session === "object"))
    .filter((_, i) => i < 10 || rng() < 0.3)
    .map((c): FuzzCase => {
      const statuses = spec.api ? (c.method === "GET" || c.method === "OPTIONS" ? [401] : [401, 405]) : undefined;
      return { ...c, session: "none", expect: statuses ? [{ rule: "rule 2 (no session)", status: statuses }] : spec.always && c.method === "GET" ? always : [] };
    });
  cases.push(...anonymous);
  return cases;
}

/** A form post: fields as URLSearchParams unless a raw body is given. */
interface FormCall {
  call: string;
  path: string;
  base: (i: number) => Record<string, string>;
  fields: string[];
  session: SessionMode;
  /** Expected statuses for a bad field value (docs), if any. */
  badField?: (field: string) => Expectation[];
  /** Rule 7 applies to odd content types. */
  rule7: boolean;
  headers?: (i: number) => Record<string, string>;
  extraQuery?: string;
  /** Fields that get every odd string; the others get the core ones. */
  fullFields?: string[];
}

const FORM_STRINGS: Named[] = [...ODD_STRINGS, ["100 KB", HUGE]];
const FORM_CORE: Named[] = [...ODD_CORE, ["100 KB", HUGE]];

function formCallCases(spec: FormCall, rng: Rng): FuzzCase[] {
  const cases: FuzzCase[] = [];
  let serial = 0;
  const path = `${spec.path}${spec.extraQuery ?? ""}`;
  const add = (label: string, body: (i: number) => BodyInit, extra: Partial<FuzzCase> = {}) => {
    const i = serial++;
    cases.push({ label, method: "POST", path, body: () => body(i), session: spec.session, jsonErrors: false, headers: spec.headers?.(i), ...extra });
    return i;
  };
  const params = (fields: Record<string, string | undefined>) => {
    const out = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) out.append(k, v);
    return out;
  };

  add("valid form", (i) => params(spec.base(i)));
  for (const field of spec.fields) {
    for (const [label, value] of spec.fullFields?.includes(field) ? FORM_STRINGS : FORM_CORE) {
      add(`${field} = ${label}`, (i) => params({ ...spec.base(i), [field]: value as string }), {
        echo: (value as string).length >= 1000 ? (value as string) : undefined,
        expect: spec.badField?.(field),
      });
    }
    add(`${field} missing`, (i) => params({ ...spec.base(i), [field]: undefined }));
    add(`${field} repeated`, (i) => {
      const p = params(spec.base(i));
      p.append(field, "second");
      return p;
    });
    add(`${field} = 1 MB + 1 byte`, (i) => params({ ...spec.base(i), [field]: "M".repeat(MAX_JSON_BYTES + 1) }));
    add(`${field} as a file part`, (i) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(spec.base(i))) if (k !== field) form.append(k, v);
      form.append(field, new Blob(["file content"], { type: "text/plain" }), "f.txt");
      return form;
    }, { contentType: undefined });
  }

  const rule7: Expectation[] = spec.rule7 ? [{ rule: "rule 7", status: [400, 415] }] : [];
  const encoded = (i: number) => params(spec.base(i)).toString();
  for (const [label, type, body] of [
    ["text/plain body", "text/plain", encoded],
    ["text/plain; a=application/x-www-form-urlencoded", "text/plain; a=application/x-www-form-urlencoded", encoded],
    ["no Content-Type", null, encoded],
    ["no Content-Type, empty body", null, () => ""],
    ["JSON body", "application/json", (i: number) => JSON.stringify(spec.base(i))],
    ["octet-stream", "application/octet-stream", encoded],
    ["multipart without boundary", "multipart/form-data", () => "garbage"],
    ["multipart with a wrong boundary", "multipart/form-data; boundary=fuzz", () => "--other\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--other--\r\n"],
    ["multipart truncated", "multipart/form-data; boundary=fuzz", () => '--fuzz\r\nContent-Disposition: form-data; name="intent"\r\n\r\nmus'],
  ] as const) {
    // JSON is a content type /login expects (its JSON API), so rule 7 does not apply to it there.
    const expected = type === "application/json" && spec.path === "/login" ? [] : rule7;
    add(label, body, { contentType: type, expect: expected });
  }
  for (const [label, body] of [
    ["bad percent escapes", () => "intent=%E0%A4%A&name=%&email=%ZZ"],
    ["raw CESU surrogate", () => "intent=museum&name=%ED%A0%80&email=%ED%A0%80"],
    ["raw invalid UTF-8", () => new Uint8Array([...utf8("name="), 0xff, 0xfe, ...utf8("&email=a")])],
    ["only separators", () => "&&&==&="],
    ["1 MB + 1 byte of separators", () => "&".repeat(MAX_JSON_BYTES + 1)],
    ["10,000 fields", () => Array.from({ length: 10_000 }, (_, i) => `f${i}=v`).join("&")],
  ] as const) {
    add(label, body, { contentType: "application/x-www-form-urlencoded" });
  }
  for (let n = 0; n < 10; n++) {
    const fields: Record<string, string> = { ...spec.base(serial) };
    const changes: string[] = [];
    for (let k = int(rng, 1, 3); k > 0; k--) {
      const field = pick(rng, [...spec.fields, "extra"]);
      fields[field] = randomString(rng);
      changes.push(`${field}=${JSON.stringify(clip(fields[field]!, 20))}`);
    }
    add(`random #${n}: ${changes.join(", ")}`, () => params(fields));
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------------

async function call(cookie: string, name: string, body: unknown) {
  const response = await postJson(`/api/manage/${name}`, body, { Cookie: cookie });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`fixture ${name} failed: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  const user = await createMuseumWithUser();
  const cookie = await logIn(user);
  await call(cookie, "add_folder", { pathArray: [], id: "Sentinelle" });
  await call(cookie, "add_folder", { pathArray: ["Sentinelle"], id: "Intérieur" });
  const sentinel = await call(cookie, "add_article", { pathArray: ["Sentinelle", "Intérieur"] });
  await call(cookie, "add_folder", { pathArray: [], id: "Salle" });
  await call(cookie, "add_folder", { pathArray: [], id: "Dest" });
  const inSalle = await call(cookie, "add_article", { pathArray: ["Salle"] });
  const atRoot = await call(cookie, "add_article", { pathArray: [] });
  await call(cookie, "add_folder", { pathArray: [], id: "Corbeille" });
  await call(cookie, "delete_item", { type: "folder", id: "Corbeille", pathArray: [] });
  const trashedArticle = await call(cookie, "add_article", { pathArray: [] });
  await call(cookie, "delete_item", { type: "article", id: trashedArticle.id, pathArray: [] });
  const trash = (await (await SELF.fetch(`${BASE}/api/read/trash`, { headers: { Cookie: cookie } })).json()) as { type: string; id: number }[];

  const qrcode = (await call(cookie, "add_qrcode", {})) as { id: number };

  const otherUser = await createMuseumWithUser();
  const otherCookie = await logIn(otherUser);
  await call(otherCookie, "add_folder", { pathArray: [], id: "Ailleurs" });
  await call(otherCookie, "add_article", { pathArray: ["Ailleurs"] });
  const otherTree = await (await SELF.fetch(`${BASE}/api/tree`, { headers: { Cookie: otherCookie } })).json();

  fx = {
    user,
    cookie,
    articleInSalle: inSalle.id as number,
    articleAtRoot: atRoot.id as number,
    qrcode: qrcode.id,
    sentinelArticle: sentinel.id as number,
    trashedFolderId: trash.find((t) => t.type === "folder")!.id,
    trashedArticleId: trash.find((t) => t.type === "article")!.id,
    other: { cookie: otherCookie, tree: otherTree },
  };
});

/** An unknown e-mail that has used up its failed logins, so further attempts answer 429 at once. */
async function blockedEmail(): Promise<string> {
  const email = `blocked-${Date.now().toString(36)}@example.org`;
  for (let i = 0; i < 10; i++) {
    const response = await postJson("/login", { email, password: `wrong ${i}` }, clientIp(60_000 + i));
    await response.body?.cancel();
  }
  return email;
}

/** A distinct client address per login case, so the rate limiter does not hide the input checks. */
const clientIp = (i: number) => ({ "CF-Connecting-IP": `198.18.${(i >> 8) & 255}.${i & 255}` });

const manageCalls = (): JsonCall[] => [
  {
    call: "POST /api/manage/add_article",
    path: "/api/manage/add_article",
    bases: [{ label: "in Salle", body: () => ({ pathArray: ["Salle"] }) }],
    fields: [{ name: "pathArray", kind: "path", depth: "full" }],
    bigField: "pathArray",
    headers: (i): Record<string, string> => (i % 3 === 0 ? { "Accept-Language": pick(rngFor(`al${i}`), ACCEPT_LANGUAGES)[1] as string } : {}),
  },
  {
    call: "POST /api/manage/add_folder",
    path: "/api/manage/add_folder",
    bases: [{ label: "in Salle", body: (i) => ({ pathArray: ["Salle"], id: `Nouveau ${i}` }) }],
    fields: [
      { name: "pathArray", kind: "path" },
      { name: "id", kind: "name", depth: "full" },
    ],
    bigField: "id",
  },
  {
    call: "POST /api/manage/rename_article",
    path: "/api/manage/rename_article",
    bases: [{ label: "article in Salle", body: () => ({ articleId: fx.articleInSalle, newName: "Amphore" }) }],
    fields: [
      { name: "articleId", kind: "id", depth: "full" },
      { name: "newName", kind: "name", depth: "full" },
    ],
    bigField: "newName",
  },
  {
    call: "POST /api/manage/rename_folder",
    path: "/api/manage/rename_folder",
    bases: [{ label: "Salle", body: (i) => ({ pathArray: [], itemName: "Salle", newName: `Salle ${i}` }) }],
    fields: [
      { name: "pathArray", kind: "path" },
      { name: "itemName", kind: "name" },
      { name: "newName", kind: "name", depth: "full" },
    ],
    bigField: "newName",
  },
  {
    call: "POST /api/manage/delete_item",
    path: "/api/manage/delete_item",
    bases: [
      { label: "article", body: () => ({ type: "article", id: fx.articleInSalle, pathArray: ["Salle"] }) },
      { label: "folder", body: () => ({ type: "folder", id: "Dest", pathArray: [] }), fields: ["id"] },
    ],
    fields: [
      { name: "type", kind: "type", alsoFields: ["id"] },
      { name: "id", kind: "itemId" },
      { name: "pathArray", kind: "path" },
    ],
    bigField: "pathArray",
  },
  {
    call: "POST /api/manage/move_item",
    path: "/api/manage/move_item",
    bases: [
      { label: "article", body: () => ({ fromPathArray: ["Salle"], itemId: fx.articleInSalle, toPathArray: [], toFolderId: "Dest" }) },
      { label: "folder", body: () => ({ fromPathArray: [], itemId: "Salle", type: "folder", toPathArray: [], toFolderId: "Dest" }), fields: ["itemId", "type"] },
    ],
    fields: [
      { name: "fromPathArray", kind: "path" },
      { name: "itemId", kind: "itemId" },
      { name: "type", kind: "type", alsoFields: ["itemId"] },
      { name: "toPathArray", kind: "path", alsoFields: ["toFolderId"] },
      { name: "toFolderId", kind: "name" },
    ],
    bigField: "toFolderId",
  },
  {
    call: "POST /api/manage/update_article",
    path: "/api/manage/update_article",
    bases: [
      {
        label: "article at the root",
        body: (i) => ({ articleId: fx.articleAtRoot, newContent: [{ type: "metadatas", url: `fuzz-${i}` }], unformatted_name: "Amphore" }),
      },
    ],
    fields: [
      { name: "articleId", kind: "id" },
      { name: "newContent", kind: "content", depth: "full" },
      { name: "unformatted_name", kind: "name" },
    ],
    bigField: "unformatted_name",
  },
  {
    call: "POST /api/manage/add_qrcode",
    path: "/api/manage/add_qrcode",
    bases: [{ label: "empty object", body: () => ({}) }],
    // No field is accepted: whatever comes is refused (the call takes no payload).
    fields: [{ name: "extra", kind: "name" }],
    bigField: "extra",
  },
  {
    call: "POST /api/manage/update_qrcode",
    path: "/api/manage/update_qrcode",
    bases: [{ label: "link to the article at the root", body: () => ({ qrcodeId: fx.qrcode, articleId: fx.articleAtRoot }) }],
    fields: [
      { name: "qrcodeId", kind: "id", depth: "full" },
      { name: "articleId", kind: "nullableId" },
    ],
    bigField: "articleId",
  },
  {
    call: "POST /api/manage/restore_item",
    path: "/api/manage/restore_item",
    bases: [
      { label: "folder", body: () => ({ type: "folder", id: fx.trashedFolderId }) },
      { label: "article", body: () => ({ type: "article", id: fx.trashedArticleId }), fields: ["type"] },
    ],
    fields: [
      { name: "type", kind: "type" },
      { name: "id", kind: "id" },
    ],
    bigField: "type",
  },
];

// ---------------------------------------------------------------------------------------------------
// One `it` per call
// ---------------------------------------------------------------------------------------------------

describe("malformed-input fuzz", () => {
  it("GET /session", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("GET /session");
    await fuzz("GET /session", getCallCases({ call: "GET /session", path: "/session", api: false, ok: [200], always: [200] }, rng));
  });

  it("POST /login (JSON)", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("POST /login (JSON)");
    const blocked = await blockedEmail();
    const spec: JsonCall = {
      call: "POST /login (JSON)",
      path: "/login",
      login: true,
      bases: [
        { label: "unknown account", body: (i) => ({ email: `fuzz-${i}@example.org`, password: "not the password" }), fields: ["email"] },
        // A rate-limited account: a password the schema accepts answers 429 without hashing (fast).
        { label: "rate-limited account", body: () => ({ email: blocked, password: "not the password" }), fields: ["password"] },
      ],
      fields: [
        { name: "email", kind: "email", depth: "full" },
        { name: "password", kind: "password", depth: "full" },
      ],
      bigField: "password",
      headers: clientIp,
    };
    const cases = jsonCallCases(spec, rng);
    // Odd passwords that do reach the password hash.
    for (const [label, password] of [...ODD_CORE.slice(0, 4), ["1,024 characters", "p".repeat(1024)] as Named]) {
      const i = 8000 + cases.length;
      cases.push({
        label: `password = ${label} (unknown account, reaches the hash)`,
        method: "POST",
        path: "/login",
        contentType: JSON_TYPE,
        body: () => JSON.stringify({ email: `fuzz-hash-${i}@example.org`, password }),
        headers: clientIp(i),
        session: "none",
        jsonErrors: true,
        expect: [{ rule: "docs", status: [401] }],
      });
    }
    // Rule 6 with the right credentials: a JSON media type with parameters logs in.
    for (const type of ["application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON"]) {
      cases.push({
        label: `valid login, Content-Type ${JSON.stringify(type)}`,
        method: "POST",
        path: "/login",
        contentType: type,
        body: () => JSON.stringify({ email: fx.user.email, password: fx.user.password }),
        headers: clientIp(9000 + cases.length),
        session: "none",
        jsonErrors: true,
        expect: [{ rule: "rule 6", status: [200] }],
      });
    }
    await fuzz("POST /login (JSON)", cases);
  });

  it("POST /login (form)", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("POST /login (form)");
    const blocked = await blockedEmail();
    // Most cases as Remix data requests (the action alone), the content-type ones also as documents.
    const cases = formCallCases(
      {
        call: "POST /login (form)",
        path: "/login",
        extraQuery: "?_data=routes%2Flogin",
        base: () => ({ email: blocked, password: "not the password", redirectTo: "/dashboard" }),
        fields: ["email", "password", "redirectTo"],
        fullFields: ["email"],
        session: "none",
        rule7: true,
        headers: (i) => clientIp(20_000 + i),
      },
      rng,
    );
    cases.push(
      ...cases
        .filter((c) => c.expect?.some((e) => e.rule === "rule 7") || /^(valid form|email = 100 KB)/.test(c.label))
        .map((c): FuzzCase => ({ ...c, label: `${c.label} (document)`, path: "/login" })),
    );
    // The right credentials, so odd redirectTo values reach the redirect.
    const redirects: Named[] = [
      ["//evil.example", "//evil.example"],
      ["/\\evil.example", "/\\evil.example"],
      ["CR LF header injection", "/\r\nSet-Cookie: pwned=1"],
      ["emoji path", "/👩‍👩‍👧‍👦"],
      ["Latin-1 path", "/Été"],
      ["lone surrogate", "/\ud800"],
      ["NUL", "/a\u0000b"],
      ["javascript:", "javascript:alert(1)"],
      ["8 KB path", `/${"r".repeat(8192)}`],
    ];
    for (const [label, redirectTo] of redirects) {
      const i = 30_000 + cases.length;
      cases.push({
        label: `valid login, redirectTo ${label}`,
        method: "POST",
        path: "/login",
        body: () => new URLSearchParams({ email: fx.user.email, password: fx.user.password, redirectTo: redirectTo as string }),
        headers: clientIp(i),
        session: "none",
        jsonErrors: false,
      });
    }
    await fuzz("POST /login (form)", cases);
  });

  it("POST /logout", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("POST /logout");
    const docs: Expectation[] = [{ rule: "docs", status: [200] }];
    const cases: FuzzCase[] = [];
    const bodies: [string, string | null, () => BodyInit][] = [
      ["no body", null, () => ""],
      ["JSON body", JSON_TYPE, () => '{"a":1}'],
      ["malformed JSON", JSON_TYPE, () => "{"],
      ["text/plain", "text/plain", () => "x"],
      ["form", "application/x-www-form-urlencoded", () => "a=%"],
      ["malformed multipart", "multipart/form-data; boundary=fuzz", () => "garbage"],
      ["1 MB + 1 byte JSON", JSON_TYPE, () => sized(MAX_JSON_BYTES + 1, (pad) => ser({ pad }))],
    ];
    for (const [label, type, body] of bodies) {
      for (const session of ["fresh", "none"] as const) {
        cases.push({ label: `${label} (${session} session)`, method: "POST", path: "/logout", contentType: type, body, session, jsonErrors: false, expect: docs });
      }
    }
    for (const [label, cookie] of cookieCases("muselingo_session=" + "C".repeat(43))) {
      cases.push({ label: `Cookie: ${label}`, method: "POST", path: "/logout", session: { cookie: cookie as string }, jsonErrors: false, expect: docs });
    }
    for (const q of JUNK_QUERIES) cases.push({ label: `query ${clip(q, 40)}`, method: "POST", path: `/logout${q}`, session: "fresh", jsonErrors: false });
    for (const method of WRONG_METHODS) cases.push({ label: `${method} instead of POST`, method, path: "/logout", session: "fresh", jsonErrors: false });
    for (let n = 0; n < 10; n++) {
      const bytes = randomBytes(rng);
      cases.push({ label: `random bytes #${n}`, method: "POST", path: "/logout", contentType: pick(rng, [JSON_TYPE, "text/plain", null]), body: () => bytes, session: "fresh", jsonErrors: false, expect: docs });
    }
    await fuzz("POST /logout", cases);
  });

  it("GET /settings", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("GET /settings");
    const cases = getCallCases({ call: "GET /settings", path: "/settings", api: false, ok: [200] }, rng).filter(
      // The page is heavy to render; keep a sample of it.
      (c, i) => i < 12 || c.method !== "GET" || rng() < 0.4,
    );
    await fuzz("GET /settings", cases);
  });

  it("POST /settings", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("POST /settings");
    const museum = formCallCases(
      {
        call: "POST /settings intent=museum",
        path: "/settings",
        extraQuery: "?_data=routes%2Fsettings",
        base: () => ({ intent: "museum", name: "Musée fuzz", sourceLang: "fr", timezone: "Europe/Paris" }),
        fields: ["intent", "name", "sourceLang", "timezone"],
        fullFields: ["name"],
        session: "user",
        rule7: true,
      },
      rng,
    );
    const password = formCallCases(
      {
        call: "POST /settings intent=password",
        path: "/settings",
        extraQuery: "?_data=routes%2Fsettings",
        // The confirmation never matches, so no case changes the password.
        base: () => ({ intent: "password", currentPassword: fx.user.password, newPassword: "a brand new secret", confirmPassword: "does not match it" }),
        fields: ["currentPassword", "newPassword", "confirmPassword"],
        session: "user",
        rule7: true,
      },
      rng,
    );
    const odd = ["", "MUSEUM", "museum\u0000", "drop-tables", "__proto__", "constructor", "\ud800", HUGE].map(
      (intent): FuzzCase => ({
        label: `intent = ${JSON.stringify(clip(intent, 20))}`,
        method: "POST",
        path: "/settings?_data=routes%2Fsettings",
        body: () => new URLSearchParams({ intent }),
        session: "user",
        jsonErrors: false,
        echo: intent.length >= 1000 ? intent : undefined,
        expect: [{ rule: "docs", status: [400] }],
      }),
    );
    // The same form posts as a document request (no _data): the page renders the answer.
    const documents = [...museum.slice(0, 3), ...museum.filter((c) => c.expect?.some((e) => e.rule === "rule 7")), ...museum.filter((c) => c.echo).slice(0, 2)].map(
      (c): FuzzCase => ({ ...c, label: `${c.label} (document)`, path: "/settings" }),
    );
    const anonymous = museum.slice(0, 10).map((c): FuzzCase => ({ ...c, label: `${c.label}`, session: "none" }));
    await fuzz("POST /settings", [...museum, ...password, ...odd, ...documents, ...anonymous]);
  });

  it("POST /resources/language", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("POST /resources/language");
    const cases = formCallCases(
      {
        call: "POST /resources/language",
        path: "/resources/language",
        base: () => ({ lng: "en", redirectTo: "/dashboard" }),
        fields: ["lng", "redirectTo"],
        session: "user",
        rule7: false,
        badField: (field) => (field === "lng" ? [{ rule: "docs", status: [400] }] : []),
      },
      rng,
    );
    for (const [label, redirectTo] of [
      ["CR LF header injection", "/\r\nSet-Cookie: pwned=1"],
      ["emoji path", "/👩‍👩‍👧‍👦"],
      ["//evil.example", "//evil.example"],
    ]) {
      cases.push({
        label: `redirectTo ${label}`,
        method: "POST",
        path: "/resources/language",
        body: () => new URLSearchParams({ lng: "fr", redirectTo: redirectTo! }),
        session: "user",
        jsonErrors: false,
      });
    }
    for (const method of WRONG_METHODS) {
      cases.push({ label: `${method} instead of POST`, method, path: "/resources/language", session: "user", jsonErrors: false, expect: [{ rule: "rule 3", status: [405] }] });
    }
    cases.push(...cases.slice(0, 15).map((c): FuzzCase => ({ ...c, session: "none" })));
    await fuzz("POST /resources/language", cases);
  });

  it("GET /api/tree", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz("GET /api/tree", getCallCases({ call: "GET /api/tree", path: "/api/tree", api: true, ok: [200] }, rngFor("GET /api/tree")));
  });

  it("GET /api/read/articles", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz(
      "GET /api/read/articles",
      getCallCases({ call: "GET /api/read/articles", path: "/api/read/articles", api: true, ok: [200] }, rngFor("GET /api/read/articles")),
    );
  });

  it("GET /api/read/article", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz(
      "GET /api/read/article",
      getCallCases(
        {
          call: "GET /api/read/article",
          path: "/api/read/article",
          api: true,
          ok: [200],
          query: { name: "articleId", valid: () => String(fx.articleInSalle), kind: "id" },
        },
        rngFor("GET /api/read/article"),
      ),
    );
  });

  it("GET /api/read/trash", { timeout: TEST_TIMEOUT_MS }, async () => {
    await fuzz("GET /api/read/trash", getCallCases({ call: "GET /api/read/trash", path: "/api/read/trash", api: true, ok: [200] }, rngFor("GET /api/read/trash")));
  });

  for (const [path, query] of [
    ["/api/read/qrcodes", undefined],
    ["/api/read/qrcode", "qrcodeId"],
    ["/api/read/qrcode_image", "qrcodeId"],
  ] as const) {
    it(`GET ${path}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const call = `GET ${path}`;
      await fuzz(
        call,
        getCallCases(
          { call, path, api: true, ok: [200], ...(query ? { query: { name: query, valid: () => String(fx.qrcode), kind: "id" as const } } : {}) },
          rngFor(call),
        ),
      );
    });
  }

  for (const name of ["add_article", "add_folder", "rename_article", "rename_folder", "delete_item", "move_item", "restore_item", "update_article", "add_qrcode", "update_qrcode"]) {
    it(`POST /api/manage/${name}`, { timeout: TEST_TIMEOUT_MS }, async () => {
      const spec = manageCalls().find((c) => c.path.endsWith(`/${name}`))!;
      const cases = jsonCallCases(spec, rngFor(spec.call));
      if (name !== "add_article") return fuzz(spec.call, cases);
      // Two add_article at once pick the same next number; run the fuzz one request at a time so that
      // race shows up once, in its own case, instead of as random 500s among the fuzz cases.
      const together = [1, 2].map(
        (n): FuzzCase => ({
          label: `valid add_article sent together with another (#${n})`,
          method: "POST",
          path: spec.path,
          contentType: JSON_TYPE,
          body: () => ser({ pathArray: [] }),
          session: "user",
          jsonErrors: true,
          api: true,
          expect: [{ rule: "rule 1 (concurrent requests)", status: [200] }],
        }),
      );
      await fuzz(spec.call, cases, { concurrency: 1, together });
    });
  }

  it("unknown /api/nope", { timeout: TEST_TIMEOUT_MS }, async () => {
    const rng = rngFor("unknown /api/nope");
    const cases: FuzzCase[] = [];
    const paths = [
      "/api/nope",
      "/api/nope?x=1&x=2",
      "/api/",
      "/api/manage/nope",
      "/api/manage/",
      "/api/tree/extra",
      "/api/read/article/12",
      "/api/%E0%A4%A",
      "/api/%00",
      "/api/..%2F..%2Fsession",
      "/api//tree",
      `/api/${"n".repeat(8192)}`,
      `/api/${enc(randomString(rng, 40))}`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        for (const session of ["user", "none"] as const) {
          const withBody = method !== "GET";
          cases.push({
            label: `${method} ${clip(path, 40)} (${session} session)`,
            method,
            path,
            contentType: withBody ? JSON_TYPE : undefined,
            body: withBody ? () => '{"pathArray":[]}' : undefined,
            session,
            jsonErrors: true,
            api: true,
            expect: [{ rule: "docs", status: session === "user" ? [404, 405] : [401, 404, 405] }],
          });
        }
      }
    }
    cases.push({
      label: "1 MB + 1 byte JSON to an unknown call",
      method: "POST",
      path: "/api/nope",
      contentType: JSON_TYPE,
      body: () => sized(MAX_JSON_BYTES + 1, (pad) => ser({ pad })),
      session: "user",
      jsonErrors: true,
      api: true,
    });
    await fuzz("unknown /api/nope", cases);
  });
});
