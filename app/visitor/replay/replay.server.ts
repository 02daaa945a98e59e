/**
 * A visitor page's answer replayed to the identical requests that follow it in this isolate, for a moment
 * (decision 141). The page's steps (./article/page.server.ts) keep the HTML they rendered; workers/app.ts asks
 * here before handing a request to Remix, and a hit is the same answer without matching, loading or rendering:
 * the same status, headers and bytes, with this request's own CSP nonce put where the page had its own, and the
 * view counted as the page counts it.
 *
 * What makes two requests identical is what the page's `Vary` names (`Accept-Language`, `Cookie`) and the URL;
 * counting reads the User-Agent, the address and `X-Muselingo-Save` again for each request. A kept answer is
 * replayed under the same `env` it was made with (tests give one isolate several), and only while both hold:
 * - the snapshot it was made from is still this isolate's and was checked less than `STAMP_CHECK_MS` ago, as a
 *   view served from the snapshot would need (decision 133): a change reaches a replayed page no later;
 * - it was rendered less than `STAMP_CHECK_MS` ago, so whatever was passing when it was made (an engine that
 *   failed, a narration being generated) shows at most that much longer than without it.
 * Never kept: another method than `GET`, a request with a session cookie (staff see their changes at once), a
 * draft preview, an answer that sets a cookie or is not a 200. At most `REPLAY_ENTRIES` answers and `REPLAY_CHARS`
 * characters of HTML per isolate, the least recently kept going first.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { perIsolate } from "~/lib/per-isolate";
import { STAMP_CHECK_MS } from "~/visitor-cache/snapshot.server";

/** Answers kept per isolate. */
export const REPLAY_ENTRIES = 200;
/** And their HTML, in characters, all together: at most 8 MB of an isolate's 128 MB, however long the pages. */
export const REPLAY_CHARS = 4_000_000;
/** A key longer than this (an odd cookie) is not kept: it is no crowd's. */
const MAX_KEY_CHARS = 4_096;
/** A CSP nonce shorter than this could occur in a text by chance; the answer is then not kept. */
const MIN_NONCE_CHARS = 16;

/** What a request asks for, as far as a kept answer may differ: its URL and the headers the page varies on. */
export interface Asked {
  request: Request;
  context: Pick<AppLoadContext, "cspNonce" | "sessionCookie" | "cloudflare">;
}

interface Kept {
  /** The HTML's length, counted against `REPLAY_CHARS`. */
  chars: number;
  /** The Worker's bindings and settings it was made with: one per isolate in production, several in tests. */
  env: object;
  /** The HTML cut where the page's nonce was. */
  parts: readonly string[];
  status: number;
  headers: readonly (readonly [string, string])[];
  /** `Date.now()` past which it is rendered again. */
  until: number;
  /** Whether the snapshot it was made from still holds in this isolate. */
  holds: () => boolean;
  count: (request: Request, context: AppLoadContext) => void;
}

const kept = perIsolate("visitor.replay", () => new Map<string, Kept>());
/** The characters of HTML kept now (the sum of `chars`). */
const held = perIsolate("visitor.replay-chars", () => ({ chars: 0 }));

function forget(key: string): void {
  const found = kept.get(key);
  if (!found) return;
  kept.delete(key);
  held.chars -= found.chars;
}

function keyOf(request: Request): string | null {
  if (request.method !== "GET") return null;
  const key = `${request.url}\n${request.headers.get("Accept-Language") ?? ""}\n${request.headers.get("Cookie") ?? ""}`;
  return key.length > MAX_KEY_CHARS ? null : key;
}

/**
 * Keeps `html`, the body of `response`, for the identical requests of the next `STAMP_CHECK_MS`. `holds` says
 * whether what the page read still holds (`stillServed` of its snapshot); `count` counts a replayed view as the
 * page would have counted it.
 */
export function keepForReplay(
  { request, context }: Asked,
  page: { html: string; response: Response; draftPreview: boolean },
  holds: () => boolean,
  count: Kept["count"],
  now = Date.now(),
): void {
  const key = keyOf(request);
  const nonce = context.cspNonce;
  const { html, response } = page;
  if (key === null || context.sessionCookie || page.draftPreview || !nonce || nonce.length < MIN_NONCE_CHARS) return;
  if (response.status !== 200 || response.headers.has("Set-Cookie") || html.length > REPLAY_CHARS || !holds()) return;
  forget(key);
  const chars = html.length;
  const headers = [...response.headers];
  kept.set(key, { chars, env: context.cloudflare.env, parts: html.split(nonce), status: response.status, headers, until: now + STAMP_CHECK_MS, holds, count });
  held.chars += chars;
  while (kept.size > REPLAY_ENTRIES || held.chars > REPLAY_CHARS) forget(kept.keys().next().value!);
}

/** The kept answer to this request, counted, with the request's own nonce; null when there is none to give. */
export function replayed(request: Request, context: AppLoadContext, now = Date.now()): Response | null {
  if (context.sessionCookie || !context.cspNonce) return null;
  const key = keyOf(request);
  const found = key === null ? undefined : kept.get(key);
  if (!found || found.env !== context.cloudflare.env) return null;
  if (now >= found.until || !found.holds()) {
    forget(key!);
    return null;
  }
  context.timing.snapshot = "isolate";
  context.timing.replayed = true;
  found.count(request, context);
  return new Response(found.parts.join(context.cspNonce), { status: found.status, headers: found.headers as [string, string][] });
}
