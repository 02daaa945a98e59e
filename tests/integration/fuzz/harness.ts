// Cases, requests and checks: the error contract (see fuzz-api.test.ts) and the runner that reports its breaches.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { createDb } from "~/db/client.server";
import { createSession } from "~/models/auth.server";
import worker from "../../../workers/app";
import { BASE, type TestUser } from "../helpers";
import { CONCURRENCY, ERROR_STATUSES, MAX_ERROR_BODY_CHARS, SEED } from "./random";
import { utf8 } from "./values";

/** "user": the fixture user's cookie; "fresh": a session minted for this request alone (logout). */
export type SessionMode = "user" | "none" | "fresh" | { cookie: string };

export interface Expectation {
  /** The rule this expectation encodes, printed with a breach. */
  rule: string;
  status?: readonly number[];
  notStatus?: readonly number[];
  code?: string;
  /** When the answer is 400, `error.field` must name one of these (or a sub-path of one). */
  fields?: readonly string[];
}

export interface FuzzCase {
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

export interface Outcome {
  status: number;
  contentType: string;
  allow: string | null;
  text: string;
  thrown?: string;
}

export interface Breach {
  c: FuzzCase;
  r: Outcome;
  problems: string[];
}

export interface Fixtures {
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

export let fx: Fixtures;

/** Set once per test file, by its beforeAll (fixtures.ts). */
export function setFixtures(value: Fixtures): void {
  fx = value;
}

/**
 * Hands the request straight to the Worker's fetch handler (the same code SELF runs). SELF.fetch
 * would do too, but vitest-pool-workers 0.12 wraps its entrypoint prototype in one more Proxy on
 * every call, so thousands of SELF.fetch calls slow down quadratically and end in "Maximum call
 * stack size exceeded" (createProxyPrototypeClass in its test-internal.mjs).
 */
export async function dispatch(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export async function send(c: FuzzCase): Promise<Outcome> {
  const headers = new Headers({ Host: "localhost" });
  if (c.session === "user") headers.set("Cookie", fx.cookie);
  else if (c.session === "fresh") {
    const { token } = await createSession(createDb(env.DB), { id: fx.user.userId, museumId: fx.user.museumId });
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

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (value === null || typeof value !== "object" || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  if (error === null || typeof error !== "object") return false;
  const e = error as Record<string, unknown>;
  return typeof e.code === "string" && typeof e.message === "string" && (e.field === undefined || typeof e.field === "string");
}

export function check(c: FuzzCase, r: Outcome): string[] {
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

export async function runCases(cases: readonly FuzzCase[], concurrency = CONCURRENCY): Promise<Breach[]> {
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

export const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…` : text);

export function report(call: string, total: number, breaches: readonly Breach[]): string {
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
export async function intactBreaches(): Promise<Breach[]> {
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

export async function fuzz(call: string, cases: readonly FuzzCase[], opts: { concurrency?: number; together?: readonly FuzzCase[] } = {}) {
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
