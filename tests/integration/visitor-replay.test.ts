// A visitor page replayed to the identical requests of the next moment (decision 141), through the real app
// Worker, its route modules, KV, D1 and queue: the same answer as the route gives, counted as the route counts,
// ended by a change published by staff, by the snapshot's bound, and never given to another request.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ScanEvent } from "~/queue/scan-event";
import { changedKey, STAMP_CHECK_MS } from "~/visitor-cache/snapshot.server";
import worker from "../../workers/app";
import { BASE, publishArticle, recordingScans, staffSession, texts } from "./helpers";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const GERMAN = { "Accept-Language": "de-DE,de;q=0.9", "User-Agent": PHONE };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app Worker with a SCANS queue that keeps what it is sent; each view waited on until its event is out. */
function app() {
  const { sent, env: appEnv } = recordingScans<ScanEvent>();
  const open = async (path: string, headers: Record<string, string> = GERMAN) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch!(new Request(`${BASE}${path}`, { headers }) as Request<unknown, IncomingRequestCfProperties>, appEnv, ctx);
    const body = await response.text();
    await waitOnExecutionContext(ctx);
    const timing = response.headers.get("Server-Timing") ?? "";
    return { response, body, replayed: timing.includes('page;desc="replayed"'), nonce: /nonce="([^"]+)"/.exec(body)?.[1] };
  };
  return { sent, open };
}

/** The headers but those that differ by design from one answer to the next (the nonce's CSP, the timing). */
const steady = (response: Response) => [...response.headers].filter(([name]) => name !== "content-security-policy" && name !== "server-timing");

describe("a visitor page replayed", () => {
  it("gives the route's own answer again: same status, headers and bytes, its own nonce in the body and the CSP", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Héraclès et le lion ‮ 𝒜", "Une amphore attique."]));
    const { open } = app();
    const first = await open(`/r/${p.link}`);
    const second = await open(`/r/${p.link}`);
    expect([first.replayed, second.replayed]).toEqual([false, true]);
    expect(second.response.status).toBe(first.response.status);
    expect(steady(second.response)).toEqual(steady(first.response));
    expect(first.nonce).toBeTruthy();
    expect(second.nonce).toBeTruthy();
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.body).toBe(first.body.replaceAll(first.nonce!, second.nonce!));
    expect(second.response.headers.get("Content-Security-Policy")).toContain(`'nonce-${second.nonce}'`);
    expect(second.body).toContain("𝒜");
    // Nothing read to give it: no D1, no KV, no engine.
    expect(second.response.headers.get("Server-Timing")).toMatch(/d1;dur=0;desc="0", kv;dur=0;desc="0", engine;dur=0;desc="0"/);
  });

  it("counts each view as the route does: scans and views, never a bot, a staff preview or a tour being saved", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Un vase grec."]));
    const { sent, open } = app();
    const views = [await open(`/r/${p.link}`), await open(`/r/${p.link}`), await open(`/r/${p.link}`)];
    expect(views.map((v) => v.replayed)).toEqual([false, true, true]);
    await open(`/r/${p.link}`, { ...GERMAN, "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await open(`/r/${p.link}`, { ...GERMAN, "X-Muselingo-Save": "1" });
    const preview = [await open(`/r/${p.link}?ignoreStats=true`), await open(`/r/${p.link}?ignoreStats=true`)];
    expect(preview[1]!.replayed).toBe(true);
    expect(sent.map((e) => [e.type, e.lang, e.articleId, e.qrcodeId])).toEqual(Array(3).fill(["scan", "de", p.articleId, p.qrcodeId]));
    expect(new Set(sent.map((e) => e.id)).size).toBe(3);
    expect(sent.every((e) => typeof e.fingerprint === "string")).toBe(true);
  });

  it("50 identical requests at once: 50 pages, one text, each with its own nonce; 50 counted", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Cinquante visiteurs devant la même vitrine."]));
    const { sent, open } = app();
    const first = await open(`/r/${p.link}`);
    const views = await Promise.all(Array.from({ length: 50 }, () => open(`/r/${p.link}`)));
    expect(views.every((v) => v.response.status === 200)).toBe(true);
    expect(new Set(views.map((v) => v.body.replaceAll(v.nonce!, first.nonce!)))).toEqual(new Set([first.body]));
    expect(new Set(views.map((v) => v.nonce)).size).toBe(50);
    expect(sent).toHaveLength(51);
  });

  it("never to another request: another language, a language chosen now, another cookie, a signed-in staff member", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Une mosaïque romaine."]));
    const { open } = app();
    await open(`/r/${p.link}`);
    const spanish = await open(`/r/${p.link}`, { ...GERMAN, "Accept-Language": "es" });
    expect([spanish.replayed, /<html lang="([^"]+)"/.exec(spanish.body)?.[1]]).toEqual([false, "es"]);
    // `?lang=` sets the choice's cookie: such an answer is never kept.
    const chosen = [await open(`/r/${p.link}?lang=it`), await open(`/r/${p.link}?lang=it`)];
    expect(chosen.map((v) => v.replayed)).toEqual([false, false]);
    expect(chosen[1]!.response.headers.get("Set-Cookie")).toContain("muselingo_lang=it");
    const easyCookie = await open(`/r/${p.link}`, { ...GERMAN, Cookie: "muselingo_lang=de" });
    expect(easyCookie.replayed).toBe(false);
    const staff = [await open(`/r/${p.link}`, { ...GERMAN, Cookie: s.cookie }), await open(`/r/${p.link}`, { ...GERMAN, Cookie: s.cookie })];
    expect(staff.map((v) => v.replayed)).toEqual([false, false]);
    // Odd headers are keys like any other: the same odd request is replayed, and only it.
    const odd = { ...GERMAN, "Accept-Language": "*;q=0.5, de;q=abc,,, i-klingon;q=1.0000", Cookie: 'muselingo_easy=%E0%A4%A; x=%C3%A9; muselingo_lang="de"' };
    const oddViews = [await open(`/r/${p.link}`, odd), await open(`/r/${p.link}`, odd)];
    expect(oddViews.map((v) => [v.response.status, v.replayed])).toEqual([
      [200, false],
      [200, true],
    ]);
  });

  it("a change staff publish ends it at once; a change behind the app's back within the snapshot's bound", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Première version du cartel."]));
    const { open } = app();
    const french = { ...GERMAN, "Accept-Language": "fr-FR,fr;q=0.9" };
    const view = (path: string) => open(path, french);
    await view(`/r/${p.link}`);
    expect((await view(`/r/${p.link}`)).replayed).toBe(true);
    await p.edit(texts(["Seconde version du cartel."]));
    const after = await view(`/r/${p.link}`);
    expect(after.replayed).toBe(false);
    expect(after.body).toContain("Seconde version du cartel.");
    expect((await view(`/r/${p.link}`)).body).toContain("Seconde version du cartel.");
    // Written straight to D1, as another location's Worker would, with its stamp straight to KV: the replayed
    // page ends with the snapshot's bound (decision 133), not later.
    await env.DB.prepare("UPDATE museums SET name = 'Musée renommé ailleurs' WHERE id = ?").bind(s.user.museumId).run();
    await env.KV.put(changedKey(s.user.museumId), String(Date.now() + 1));
    await sleep(STAMP_CHECK_MS + 10);
    const renamed = await view(`/r/${p.link}`);
    expect(renamed.replayed).toBe(false);
    expect(renamed.body).toContain("Musée renommé ailleurs");
  });
});
