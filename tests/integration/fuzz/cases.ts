// Case tables: the cases generated for a JSON call, a GET call and a form call.
import { clip, fx, type Expectation, type FuzzCase, type SessionMode } from "./harness";
import { ERROR_STATUSES, int, MAX_JSON_BYTES, pick, randomString, type Rng } from "./random";
import {
  DEEP_ARRAY,
  DEEP_OBJECT,
  enc,
  HUGE,
  ODD_CORE,
  ODD_STRINGS,
  randomBytes,
  randomValue,
  Raw,
  ser,
  sized,
  streamOf,
  utf8,
  valuesFor,
  type Kind,
  type Named,
} from "./values";

export const JSON_TYPE = "application/json";
export const WRONG_METHODS = ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface JsonField {
  name: string;
  kind: Kind;
  /** Fields a 400 may name instead when this one changes how the others are read. */
  alsoFields?: string[];
  /** "full" for the field the call is about; "lite" (the default) for the others. */
  depth?: "full" | "lite";
}

export interface JsonCall {
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
export const MEDIA_TYPES: { type: string | null; accept: boolean; body?: string }[] = [
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

export function jsonCallCases(spec: JsonCall, rng: Rng): FuzzCase[] {
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
    [
      "UTF-16LE body",
      (i) => new Uint8Array([0xff, 0xfe, ...[...ser(base.body(i))].flatMap((ch) => [ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8])]),
      invalid(),
    ],
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
    const picked =
      /^(valid body|empty body|not JSON|truncated JSON: \{|top level null|top level \[\]|1 MB \+ 1 byte, valid JSON|Content-Type "text\/plain; a=|Content-Type \(none\)|GET instead|PUT instead)/;
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

export interface GetCall {
  call: string;
  path: string;
  api: boolean;
  /** Status of the clean request with a session. */
  ok: number[];
  /** Statuses acceptable for every other GET case with a session (docs: /session is 200 always). */
  always?: number[];
  query?: { name: string; valid: () => string; kind: Kind };
}

export const ACCEPT_LANGUAGES: Named[] = [
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

export function cookieCases(cookie: string): Named[] {
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

export const JUNK_QUERIES = [
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

export function getCallCases(spec: GetCall, rng: Rng): FuzzCase[] {
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
      return {
        ...c,
        session: "none",
        expect: statuses ? [{ rule: "rule 2 (no session)", status: statuses }] : spec.always && c.method === "GET" ? always : [],
      };
    });
  cases.push(...anonymous);
  return cases;
}

/** A form post: fields as URLSearchParams unless a raw body is given. */
export interface FormCall {
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

export const FORM_STRINGS: Named[] = [...ODD_STRINGS, ["100 KB", HUGE]];
export const FORM_CORE: Named[] = [...ODD_CORE, ["100 KB", HUGE]];

export function formCallCases(spec: FormCall, rng: Rng): FuzzCase[] {
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
    add(
      `${field} as a file part`,
      (i) => {
        const form = new FormData();
        for (const [k, v] of Object.entries(spec.base(i))) if (k !== field) form.append(k, v);
        form.append(field, new Blob(["file content"], { type: "text/plain" }), "f.txt");
        return form;
      },
      { contentType: undefined },
    );
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
    [
      "multipart with a wrong boundary",
      "multipart/form-data; boundary=fuzz",
      () => "--other\r\nContent-Disposition: form-data; name=a\r\n\r\nb\r\n--other--\r\n",
    ],
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
