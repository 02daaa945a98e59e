import { env } from "cloudflare:test";
import { describe, expect } from "vitest";
import { articleContentSchema, type ArticleContent } from "~/content/schema";
import { targetForLink } from "~/models/visitor.server";
import type { ScanEvent } from "~/queue/scan-event";
import type { TranslationEngine } from "~/translation/engines";
import { translateArticle, translateSegments } from "~/translation/translate.server";
import { visitorPage } from "~/visitor/page.server";
import { stepContext } from "./builders";
import { createMuseumWithUser, publishNow, recordingScans, staffSession } from "./helpers";
import { recordingEngine, settle, test, translationDeps } from "./translation-helpers";

function deps(engines: TranslationEngine[]) {
  return { deps: translationDeps(engines), settle };
}

function content(texts: string[]): ArticleContent {
  return articleContentSchema.parse([{ type: "metadatas", url: "piece" }, ...texts.map((t) => ({ type: "text", content: t }))]);
}

const paragraphs = (n: number, tag = "") => Array.from({ length: n }, (_, i) => `Paragraphe ${i + 1}${tag} du cartel.`);

describe("translation pipeline", () => {
  test("first view translates each segment once and caches; the second calls no engine", async () => {
    const { museumId } = await createMuseumWithUser();
    const rec = recordingEngine();
    const { deps: d, settle } = deps([rec.engine]);
    const article = { id: 900_000 + museumId, museumId, content: content(paragraphs(20)) };
    const first = await translateArticle(d, article, "fr", "de");
    await settle();
    expect(first.status).toBe("machine");
    expect(rec.segments()).toHaveLength(20);
    expect(JSON.stringify(first.content)).toContain("<de> Paragraphe 1 du cartel.");

    const second = await translateArticle(d, article, "fr", "de");
    expect(second).toEqual(first);
    expect(rec.segments()).toHaveLength(20);
  });

  test("after an edit of one paragraph, the next view sends exactly that paragraph", async () => {
    const { museumId } = await createMuseumWithUser();
    const rec = recordingEngine();
    const { deps: d, settle } = deps([rec.engine]);
    const texts = paragraphs(20);
    await translateArticle(d, { id: 1, museumId, content: content(texts) }, "fr", "ja");
    await settle();
    rec.calls.length = 0;
    texts[7] = "Un paragraphe réécrit.";
    const edited = await translateArticle(d, { id: 1, museumId, content: content(texts) }, "fr", "ja");
    await settle();
    expect(rec.calls).toEqual([["Un paragraphe réécrit."]]);
    expect(JSON.stringify(edited.content)).toContain("<ja> Un paragraphe réécrit.");
  });

  test("an engine failure gives the original with status failed, stores and caches nothing", async () => {
    const { museumId } = await createMuseumWithUser();
    const broken = recordingEngine({ fail: true });
    const { deps: d, settle } = deps([broken.engine]);
    const article = { id: 2, museumId, content: content(["Une phrase."]) };
    const result = await translateArticle(d, article, "fr", "ko", { deadlineMs: 2_000 });
    await settle();
    expect(result.status).toBe("failed");
    expect(result.content).toEqual(article.content);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?").bind(museumId).first<{ n: number }>();
    expect(rows!.n).toBe(0);
    expect((await env.KV.list({ prefix: "tr:v1:2:ko:" })).keys).toHaveLength(0);
    // Claims were given back and the failure remembered (decision 030): the next visitor gets the original
    // at once; once the back-off has passed, the engines are asked again and a success forgets the failure.
    const working = recordingEngine();
    const held = await translateArticle(deps([working.engine]).deps, article, "fr", "ko");
    expect(held.status).toBe("failed");
    expect(held.failure).toMatchObject({ reason: "failed", backingOff: true });
    expect(working.calls).toHaveLength(0);
    await env.DB.prepare("UPDATE translation_failures SET retry_at = ? WHERE museum_id = ?")
      .bind(Date.now() - 1, museumId)
      .run();
    const retry = await translateArticle(deps([working.engine]).deps, article, "fr", "ko");
    expect(retry.status).toBe("machine");
    expect(working.segments()).toEqual(["Une phrase."]);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM translation_failures WHERE museum_id = ?").bind(museumId).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });

  test("a slow engine past the deadline gives the original in time", async () => {
    const { museumId } = await createMuseumWithUser();
    // An engine that answers only when the test releases it: the view's answer can only come from its deadline.
    let release = () => {};
    const slow = recordingEngine({ until: new Promise<void>((resolve) => (release = resolve)) });
    const { deps: d, settle } = deps([slow.engine]);
    const result = await translateArticle(d, { id: 3, museumId, content: content(["Lent."]) }, "fr", "sv", { deadlineMs: 500 });
    expect(result).toMatchObject({ status: "failed", failure: { reason: "deadline" }, content: content(["Lent."]) });
    expect(slow.calls).toHaveLength(1);
    expect(slow.answered()).toBe(0);
    release();
    await settle();
  });

  test("20 concurrent first views of one article in one language call the engine once per segment", async () => {
    const { museumId } = await createMuseumWithUser();
    const rec = recordingEngine({ delayMs: 300 });
    const article = { id: 4, museumId, content: content(paragraphs(20, " bis")) };
    const results = await Promise.all(Array.from({ length: 20 }, () => translateArticle(deps([rec.engine]).deps, article, "fr", "fi", { pollMs: 50 })));
    expect(results.every((r) => r.status === "machine")).toBe(true);
    expect(rec.segments()).toHaveLength(20);
    expect(new Set(rec.segments()).size).toBe(20);
  });

  test("a staff-edited row wins over the machine and marks the page reviewed", async () => {
    const { museumId } = await createMuseumWithUser();
    const rec = recordingEngine();
    const { deps: d } = deps([rec.engine]);
    await translateSegments(d, { museumId, from: "fr", to: "nl" }, ["Bonjour."]);
    await env.DB.prepare("UPDATE translation_memory SET text = 'Goedendag.', origin = 'edited' WHERE museum_id = ? AND target_lang = 'nl'")
      .bind(museumId)
      .run();
    const result = await translateArticle(d, { id: 5, museumId, content: content(["Bonjour."]) }, "fr", "nl");
    expect(result.status).toBe("reviewed");
    expect(JSON.stringify(result.content)).toContain("Goedendag.");
    expect(rec.calls).toHaveLength(1);
  });

  test("the source language is never sent to an engine", async () => {
    const { museumId } = await createMuseumWithUser();
    const rec = recordingEngine();
    const result = await translateArticle(deps([rec.engine]).deps, { id: 6, museumId, content: content(["Texte."]) }, "fr", "fr");
    expect(result.status).toBe("original");
    expect(rec.calls).toHaveLength(0);
  });
});

describe("scan events", () => {
  // A phone's browser: a request without a User-Agent is not counted (decision 032).
  const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
  async function visit(link: string, url: string, extraHeaders: Record<string, string> = {}, method = "GET") {
    const headers = { "User-Agent": PHONE, ...extraHeaders };
    // The real local SCANS queue, each message also kept (helpers.ts recordingScans).
    const { sent, env: scansEnv } = recordingScans<ScanEvent>();
    const scans = scansEnv.SCANS;
    const request = new Request(`http://localhost${url}`, { method, headers });
    const { context, settle: settleVisit } = stepContext(request, { scans, nonce: "test-nonce" });
    const target = await targetForLink(context.db, link);
    const response = await visitorPage(request, context, { target, place: { base: `/r/${link}`, scannable: true } });
    await settleVisit();
    return { response, sent };
  }

  test("a scan without ?lang, a view with it; nothing for bots, ignoreStats or HEAD", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    await publishNow(s, added.body.id as number);
    const code = await s.call("add_qrcode", {});
    await s.call("update_qrcode", { qrcodeId: code.body.id, articleId: added.body.id });
    const link = code.body.link as string;

    const scan = await visit(link, `/r/${link}`, { "Accept-Language": "de" });
    expect(scan.response.status).toBe(200);
    expect(scan.sent).toHaveLength(1);
    expect(scan.sent[0]).toMatchObject({ type: "scan", museumId: s.user.museumId, articleId: added.body.id, qrcodeId: code.body.id, lang: "de" });
    expect(scan.sent[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(scan.sent[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect((await visit(link, `/r/${link}`, { "User-Agent": "" })).sent).toHaveLength(0);

    const view = await visit(link, `/r/${link}?lang=ar`);
    expect(view.sent).toEqual([expect.objectContaining({ type: "view", lang: "ar" })]);

    const bot = await visit(link, `/r/${link}`, { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" });
    expect(bot.response.status).toBe(200);
    expect(bot.sent).toHaveLength(0);
    expect((await visit(link, `/r/${link}?ignoreStats=true`)).sent).toHaveLength(0);
    expect((await visit(link, `/r/${link}`, {}, "HEAD")).sent).toHaveLength(0);

    // A code leading nowhere counts nothing: there is no article to count.
    const inactive = await s.call("add_qrcode", {});
    expect((await visit(inactive.body.link as string, `/r/${inactive.body.link}`)).sent).toHaveLength(0);
  });

  test("a failing queue never breaks the page", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    await publishNow(s, added.body.id as number);
    const code = await s.call("add_qrcode", {});
    await s.call("update_qrcode", { qrcodeId: code.body.id, articleId: added.body.id });
    const link = code.body.link as string;
    const request = new Request(`http://localhost/r/${link}`, { headers: { "User-Agent": PHONE } });
    // Thrown from the async function, not `Promise.reject(...)` returned: a promise rejected with no handler yet
    // is reported as unhandled by workerd before the caller's await reaches it (decision 129).
    const failing = {
      send: async () => {
        throw new Error("queue down");
      },
    } as unknown as Queue;
    const { context, settle: settleVisit } = stepContext(request, { scans: failing });
    const response = await visitorPage(request, context, {
      target: await targetForLink(context.db, link),
      place: { base: `/r/${link}`, scannable: true },
    });
    expect(response.status).toBe(200);
    await expect(settleVisit()).resolves.toBeDefined();
  });
});
