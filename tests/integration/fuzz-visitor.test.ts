/**
 * Malformed-input fuzz of the public visitor routes (`/r/…`, `/v/…`, their `/languages` and `/report`,
 * unknown codes, `/vtt`). The contract:
 *
 *  1. Never a 5xx, whatever the cookies, Accept-Language, query, method, body or path.
 *  2. A GET of a visitor page answers an HTML document (200 or the 404 page).
 *  3. A method a route does not take answers 405 with an `Allow` header naming what it does take.
 *  4. The report form answers 200, 400, 404, 413, 415 or 429: never anything else.
 *  5. A hostile value is never echoed unescaped into a page.
 *
 * Header values are ASCII, as a browser's fetch sends them; odd Unicode reaches a header percent-encoded
 * (cookies) or, for a few raw UTF-8 cases, through workerd's quirk of encoding a non-ASCII value as UTF-8
 * (it warns once per value). Deterministic: values come from a seeded PRNG, so a failure replays.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { dispatch } from "./fuzz/harness";
import { CONCURRENCY, pick as pickWith, rngFor } from "./fuzz/random";
import { BASE, publishNow, staffSession } from "./helpers";

const MARKER = "<svg/onload=alert(1)>";
const TIMEOUT_MS = 120_000;
const rng = rngFor("visitor routes");
const pick = <T>(list: readonly T[]): T => pickWith(rng, list);

/** Strings for any field: broken percent escapes, odd Unicode, markup, huge. */
const ODD = [
  "%",
  "%E0%A4%A",
  "%FF",
  "%%",
  "%00",
  "%u0041",
  "%C0%AF",
  "%ED%A0%80",
  "de%",
  "ar%2",
  "\u202eabc",
  "\u200b",
  "e\u0301\u0302",
  "👩‍👩‍👧‍👦",
  "𝄞",
  "\ud800",
  "\udfff",
  "\u0000",
  "\u0085",
  "\ufeffde",
  "\uffff",
  MARKER,
  "'; DROP TABLE museums; --",
  "x".repeat(5000),
  "de-".repeat(300),
  "",
  " ",
  "=",
  ";",
  ",",
  "__proto__",
  "constructor",
  "zh-Hant-TW",
  "ar-Latn-XX-u-nu-arab",
  "DE",
  "i-klingon",
  "*",
];

/** Values a Cookie header may carry: the language cookie broken in every way, and other cookies' junk. */
function cookies(): string[] {
  const out = new Set<string>([
    "muselingo_lang=%",
    "muselingo_lang=%E0%A4%A",
    "muselingo_lang=%E0%A4%A; muselingo_lang=ar",
    "muselingo_lang=ar; muselingo_lang=%",
    "muselingo_lang",
    "muselingo_lang=",
    "=muselingo_lang",
    ";;;; ; =; ==",
    'muselingo_lang="ar"',
    'muselingo_lang="%"',
    "muselingo_lang=%61%72",
    "MUSELINGO_LANG=ar",
    "muselingo_session=%; muselingo_lang=%",
    "muselingo_session=%E0%A4%A",
    "lng=%",
    "toast=%",
    "toast=e30%3D%",
    `muselingo_lang=${"a".repeat(8000)}`,
    Array.from({ length: 300 }, (_, i) => `c${i}=%`).join("; "),
  ]);
  for (const value of ODD) {
    out.add(`muselingo_lang=${value}`);
    out.add(`muselingo_lang=${encodeURIComponent(safeForUri(value)).replace(/%/g, pick(["%", "%25", "%%"]))}`);
  }
  return [...out].filter(headerValueOk);
}

function acceptLanguages(): string[] {
  const out = new Set<string>([
    "de;q=",
    "de;q=abc, ar;q=0.5",
    "de;q=1.5",
    "*;q=0",
    ",,,,",
    ";;;;",
    "de-DE,de;q=0.9,".repeat(400),
    "ar;q=0.8, ar;q=0, ar",
    "fr-CA, fr;q=0",
  ]);
  for (const value of ODD) out.add(value);
  return [...out].filter(headerValueOk);
}

/** Query strings: raw (not re-encoded), so broken escapes reach the server as a client sends them. */
function queries(): string[] {
  const out = new Set<string>([
    "q=%&lang=%E0%A4%A",
    "lang",
    "lang=",
    "lang&lang=de&lang=%",
    "original=1&lang=%",
    "original=%&lang=ar",
    "ignoreStats=%",
    "%=%",
    "&&&",
    "lang=de#frag",
  ]);
  for (const value of ODD) {
    const raw = pick([value, encodeURIComponent(safeForUri(value))]);
    out.add(`lang=${raw}`);
    out.add(`q=${raw}`);
    out.add(`lang=ar&original=${raw}`);
  }
  return [...out];
}

function safeForUri(value: string): string {
  return value.replace(/[\ud800-\udfff]/g, "\ufffd");
}

/** What a browser's fetch may put in a header: printable ASCII, no surrounding spaces. */
function headerValueOk(value: string): boolean {
  return /^[\u0020-\u007e\t]*$/.test(value) && value.trim() === value;
}

interface Case {
  label: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: BodyInit;
}

interface Outcome {
  status: number;
  contentType: string;
  allow: string | null;
  body: string;
}

async function send(c: Case): Promise<Outcome> {
  // Straight to the Worker's fetch handler: SELF.fetch slows down with every call (see fuzz/harness.ts).
  // As a crawler, so no view is counted: hundreds of scan events would pile up in the local queue, which
  // has no consumer here, and the pool's storage pop after the test then failed now and then.
  const headers = { Host: "localhost", "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1)", ...c.headers };
  const response = await dispatch(new Request(`${BASE}${c.path}`, { method: c.method, headers, body: c.body, redirect: "manual" }));
  return {
    status: response.status,
    contentType: response.headers.get("Content-Type") ?? "",
    allow: response.headers.get("Allow"),
    body: c.method === "HEAD" ? "" : await response.text(),
  };
}

/** Runs every case with bounded concurrency; returns the breaches of `check`, each named by its case. */
async function fuzz(cases: Case[], check: (c: Case, o: Outcome) => string | null): Promise<string[]> {
  const breaches: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      let outcome: Outcome;
      try {
        outcome = await send(c);
      } catch (error) {
        breaches.push(`${c.label}: threw ${String(error)}`);
        continue;
      }
      const problem = outcome.status >= 500 ? `status ${outcome.status}` : check(c, outcome);
      if (problem) breaches.push(`${c.label} → ${problem}: ${outcome.body.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return breaches;
}

let pages: { article: string; inactive: string; address: string; unknown: string; languages: string; report: string; addressReport: string }[] = [];

beforeAll(async () => {
  const s = await staffSession();
  const added = await s.call("add_article", { pathArray: [] });
  const articleId = added.body.id as number;
  const article = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number; name: string };
  await s.call("update_article", { articleId, version: article.version, newContent: [article.content[0], { type: "text", content: "Une amphore attique." }] });
  await publishNow(s, articleId);
  const code = await s.call("add_qrcode", {});
  await s.call("update_qrcode", { qrcodeId: code.body.id, articleId });
  const inactive = await s.call("add_qrcode", {});
  const link = code.body.link as string;
  const address = `/v/${s.user.museumSlug}/${article.name}`;
  pages = [
    {
      article: `/r/${link}`,
      inactive: `/r/${inactive.body.link as string}`,
      address,
      unknown: "/r/zzzzzzzz",
      languages: `/r/${link}/languages`,
      report: `/r/${link}/report`,
      addressReport: `${address}/report`,
    },
  ];
});

const visitorGets = () => {
  const p = pages[0]!;
  return [
    p.article,
    p.inactive,
    p.address,
    p.unknown,
    p.languages,
    `${p.address}/languages`,
    `${p.unknown}/languages`,
    p.report,
    p.addressReport,
    `${p.unknown}/report`,
    `${p.inactive}/report`,
  ];
};

/**
 * Each value against `perValue` routes drawn at random, and the first value of the list against all of
 * them: every route meets broken input, in a few hundred requests rather than thousands.
 */
function spread(values: readonly string[], perValue: number, make: (path: string, value: string) => Case): Case[] {
  const paths = visitorGets();
  return values.flatMap((value, i) => (i === 0 ? paths : Array.from({ length: perValue }, () => pick(paths))).map((path) => make(path, value)));
}

const isHtmlPage = (o: Outcome) => (o.status === 200 || o.status === 404) && o.contentType.startsWith("text/html");

describe("visitor routes under malformed input", () => {
  it(
    "cookies: a broken language cookie (or any other) never breaks a page",
    async () => {
      const cases = spread(cookies(), 3, (path, cookie) => ({
        label: `GET ${path} Cookie: ${cookie.slice(0, 60)}`,
        method: "GET",
        path,
        headers: { Cookie: cookie },
      }));
      const breaches = await fuzz(cases, (_, o) => (isHtmlPage(o) ? null : `status ${o.status} ${o.contentType}`));
      expect(breaches).toEqual([]);
      expect(cases.length).toBeGreaterThan(100);
    },
    TIMEOUT_MS,
  );

  it(
    "a broken language cookie is ignored: the page follows Accept-Language",
    async () => {
      for (const cookie of ["muselingo_lang=%", "muselingo_lang=%E0%A4%A"]) {
        const response = await dispatch(new Request(`${BASE}${pages[0]!.article}`, { headers: { Cookie: cookie, "Accept-Language": "de" } }));
        expect(response.status).toBe(200);
        expect(await response.text()).toMatch(/<html lang="de"/);
      }
    },
    TIMEOUT_MS,
  );

  it(
    "Accept-Language: junk, huge or raw UTF-8 headers give a page",
    async () => {
      const cases = spread(acceptLanguages(), 3, (path, value) => ({
        label: `GET ${path} AL: ${value.slice(0, 60)}`,
        method: "GET",
        path,
        headers: { "Accept-Language": value },
      }));
      // Raw UTF-8 in the header (sent by workerd's quirk): a bidi override, an emoji, a lone surrogate.
      for (const value of ["\u202ede", "👩‍👩‍👧‍👦", "\ud800"]) {
        cases.push({ label: `GET raw UTF-8 AL ${JSON.stringify(value)}`, method: "GET", path: pages[0]!.article, headers: { "Accept-Language": value } });
        cases.push({
          label: `GET raw UTF-8 cookie ${JSON.stringify(value)}`,
          method: "GET",
          path: pages[0]!.unknown,
          headers: { Cookie: `muselingo_lang=${value}` },
        });
      }
      expect(await fuzz(cases, (_, o) => (isHtmlPage(o) ? null : `status ${o.status}`))).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "query values: broken escapes, odd Unicode and markup give a page, never echoed raw",
    async () => {
      const cases = spread(queries(), 2, (path, query) => ({ label: `GET ${path}?${query.slice(0, 60)}`, method: "GET", path: `${path}?${query}` }));
      const breaches = await fuzz(cases, (c, o) => {
        if (!isHtmlPage(o)) return `status ${o.status}`;
        if (c.path.includes(MARKER) && o.body.includes(MARKER)) return "echoed the markup";
        return null;
      });
      expect(breaches).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "paths: broken escapes and odd Unicode in codes, museums and slugs give the 404 page",
    async () => {
      // (".." and "%2e%2e" are left out: the URL parser resolves them before any route sees them.)
      const segments = ["%", "%E0%A4%A", "%FF", "%00", "%F0%9F%98%80", "%E2%80%AE", "%2F", "%5C", encodeURIComponent(MARKER), "a".repeat(3000)];
      const cases = segments.flatMap((s) =>
        [`/r/${s}`, `/r/${s}/languages`, `/r/${s}/report`, `/v/${s}/x`, `/v/x/${s}`, `/v/${s}/${s}/languages`, `/v/${s}/${s}/report`].map((path) => ({
          label: `GET ${path.slice(0, 80)}`,
          method: "GET",
          path,
        })),
      );
      expect(await fuzz(cases, (_, o) => (o.status === 404 || o.status === 400 ? null : `status ${o.status}`))).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "methods: the pages take GET and HEAD, the report GET, HEAD and POST; anything else is 405 with Allow",
    async () => {
      const p = pages[0]!;
      const cases: Case[] = [];
      for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
        for (const path of [p.article, p.address, p.languages, `${p.address}/languages`, p.inactive, p.unknown])
          cases.push({
            label: `${method} ${path}`,
            method,
            path,
            body: method === "OPTIONS" ? undefined : "lang=de&message=x",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          });
        for (const path of [p.report, p.addressReport, `${p.unknown}/report`])
          cases.push({
            label: `${method} ${path}`,
            method,
            path,
            body: method === "OPTIONS" ? undefined : "lang=de&message=x",
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          });
      }
      const breaches = await fuzz(cases, (c, o) => {
        if (o.status !== 405) return `status ${o.status}`;
        const allow = (o.allow ?? "")
          .split(",")
          .map((m) => m.trim())
          .sort()
          .join(",");
        const expected = c.path.endsWith("/report") ? "GET,HEAD,POST" : "GET,HEAD";
        return allow === expected ? null : `Allow: ${o.allow}`;
      });
      expect(breaches).toEqual([]);
      for (const path of [p.article, p.report, p.languages]) expect((await send({ label: "HEAD", method: "HEAD", path })).status).toBe(200);
    },
    TIMEOUT_MS,
  );

  it(
    "report bodies: types, sizes, broken escapes and odd Unicode get 200, 400, 413, 415 or 429",
    async () => {
      const p = pages[0]!;
      const forms: BodyInit[] = [
        "",
        "message",
        "message=%",
        "message=%E0%A4%A&lang=%",
        "lang=%FF&message=ok",
        "message=" + "%41".repeat(3000),
        "=&=&&",
        "message=ok&message=" + "x".repeat(2000),
      ];
      for (const value of ODD) forms.push(new URLSearchParams({ lang: pick(ODD), message: value }).toString());
      const cases: Case[] = [];
      for (const path of [p.report, p.addressReport, `${p.unknown}/report`, `${p.inactive}/report`]) {
        for (const body of forms)
          cases.push({
            label: `POST ${path} form ${String(body).slice(0, 60)}`,
            method: "POST",
            path,
            body,
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
          });
        const multipart = new FormData();
        multipart.append("lang", "de");
        multipart.append("message", "Falsch übersetzt.");
        cases.push({ label: `POST ${path} multipart`, method: "POST", path, body: multipart });
        for (const type of ["application/json", "text/plain", "application/x-www-form-urlencoded; charset=utf-16", "application/x-www-form-urlencodedX", ""]) {
          cases.push({
            label: `POST ${path} ${type || "no type"}`,
            method: "POST",
            path,
            body: '{"message":"x"}',
            headers: type ? { "Content-Type": type } : {},
          });
        }
        cases.push({
          label: `POST ${path} 1 MB`,
          method: "POST",
          path,
          body: `message=${"y".repeat(1024 * 1024)}`,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        });
      }
      const breaches = await fuzz(cases, (c, o) => {
        if (![200, 400, 404, 413, 415, 429].includes(o.status)) return `status ${o.status}`;
        if (c.label.includes("multipart") && !c.path.startsWith("/r/zzzzzzzz") && !c.path.startsWith(p.inactive) && o.status !== 415)
          return `multipart got ${o.status}`;
        if (o.body.includes(MARKER)) return "echoed the markup";
        return null;
      });
      expect(breaches).toEqual([]);
      // The museum's data is intact.
      const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM qrcodes").first<{ n: number }>();
      expect(count!.n).toBeGreaterThanOrEqual(2);
    },
    TIMEOUT_MS,
  );

  it(
    "/vtt: odd sources and languages are 404, never 500",
    async () => {
      const cases = ODD.flatMap((value) => {
        const raw = encodeURIComponent(safeForUri(value));
        return [`/vtt?src=${raw}&lang=de`, `/vtt?src=/media/${raw}&lang=${raw}`, `/vtt?src=%&lang=%`, `/vtt?src=/media/m/1/subtitles/${raw}.vtt&lang=ar`].map(
          (path) => ({ label: `GET ${path.slice(0, 80)}`, method: "GET", path }),
        );
      });
      expect(await fuzz(cases, (_, o) => (o.status === 404 ? null : `status ${o.status}`))).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
