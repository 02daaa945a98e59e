import { env } from "cloudflare:test";
import { describe, expect } from "vitest";
import { articleContentSchema, type ArticleContent } from "~/content/schema";
import { EngineError, type TranslationEngine } from "~/translation/engines";
import { BACKOFF_FIRST_MS, BACKOFF_MAX_MS } from "~/translation/failures.server";
import { translateArticle } from "~/translation/translate.server";
import { get, staffSession } from "./helpers";
import { recordingEngine, settle, test, translationDeps } from "./translation-helpers";

// Issue 16: "A failing translation is retried on every view, without limit." Decision 030.

function content(texts: string[]): ArticleContent {
  return articleContentSchema.parse([{ type: "metadatas", url: "piece" }, ...texts.map((t) => ({ type: "text", content: t }))]);
}

/** An engine answering like a provider's 500: retryable, so `machineTranslate` tries it three times per view. */
function serverError(id: TranslationEngine["id"] = "deepl") {
  const calls: string[][] = [];
  const engine: TranslationEngine = {
    id,
    supports: () => true,
    async translate(texts) {
      calls.push([...texts]);
      throw new EngineError(id, "HTTP 500: Internal Server Error", { retryable: true, status: 500 });
    },
  };
  return { engine, calls };
}

async function failureRows(museumId: number) {
  const { results } = await env.DB.prepare(
    "SELECT target_lang AS lang, article_id AS articleId, engines, reason, detail, failures, first_failed_at AS firstFailedAt, last_failed_at AS lastFailedAt, retry_at AS retryAt FROM translation_failures WHERE museum_id = ? ORDER BY source_hash",
  )
    .bind(museumId)
    .all<{
      lang: string;
      articleId: number | null;
      engines: string;
      reason: string;
      detail: string;
      failures: number;
      firstFailedAt: number;
      lastFailedAt: number;
      retryAt: number;
    }>();
  return results;
}

/** Moves every remembered failure of the museum past its back-off, as the clock would. */
const expireBackoff = (museumId: number) =>
  env.DB.prepare("UPDATE translation_failures SET retry_at = ? WHERE museum_id = ?")
    .bind(Date.now() - 1, museumId)
    .run();

describe("failing translations back off (decision 030)", () => {
  test("an engine answering 500: 20 views make 3 engine calls, not 60; the back-off doubles, up to an hour", async () => {
    const s = await staffSession();
    const museumId = s.user.museumId;
    const broken = serverError();
    const deps = translationDeps([broken.engine]);
    const article = { id: 700_001, museumId, content: content(["Une amphore attique.", "Vers 530 avant notre ère."]) };
    for (let view = 0; view < 20; view++) {
      const result = await translateArticle(deps, article, "fr", "de");
      expect(result.status).toBe("failed");
      expect(result.content).toEqual(article.content);
      expect(result.failure).toMatchObject({ reason: "failed", backingOff: view > 0 });
      expect(result.failure!.detail).toContain("HTTP 500");
    }
    await settle();
    // One view's worth: the first try and its two retries; the 19 others asked no engine (and so waited for none).
    expect(broken.calls).toHaveLength(3);
    const [row, second] = await failureRows(museumId);
    expect(second).toBeDefined();
    expect(row).toMatchObject({ lang: "de", articleId: 700_001, engines: "deepl", reason: "failed", failures: 1 });
    expect(row!.retryAt - row!.lastFailedAt).toBe(BACKOFF_FIRST_MS);

    // Past the back-off, one view asks again; the wait doubles, and keeps "since".
    const since = row!.firstFailedAt;
    for (const [n, wait] of [
      [2, 2 * BACKOFF_FIRST_MS],
      [3, 4 * BACKOFF_FIRST_MS],
    ] as const) {
      await expireBackoff(museumId);
      for (let view = 0; view < 5; view++) await translateArticle(deps, article, "fr", "de");
      expect(broken.calls).toHaveLength(3 * n);
      const [again] = await failureRows(museumId);
      expect(again).toMatchObject({ failures: n, firstFailedAt: since });
      expect(again!.retryAt - again!.lastFailedAt).toBe(wait);
    }
    await env.DB.prepare("UPDATE translation_failures SET failures = 12, retry_at = 0 WHERE museum_id = ?").bind(museumId).run();
    await translateArticle(deps, article, "fr", "de");
    const [capped] = await failureRows(museumId);
    expect(capped!.retryAt - capped!.lastFailedAt).toBe(BACKOFF_MAX_MS);

    // Another language, or another engine list, is not held back by this one.
    await translateArticle(deps, article, "fr", "it");
    expect(broken.calls).toHaveLength(3 * 4 + 3);
    const working = recordingEngine({ id: "google" });
    const other = await translateArticle(translationDeps([working.engine]), article, "fr", "de");
    expect(other.status).toBe("machine");
    expect(working.segments()).toHaveLength(2);
    await settle();
    // A success forgets the failures of what it translated.
    expect((await failureRows(museumId)).map((r) => r.lang)).toEqual(["it", "it"]);
  }, 60_000);

  test("an engine slower than the deadline: the first view waits, the next ones answer at once", async () => {
    const { museumId } = (await staffSession()).user;
    // The engine answers only when released, after the views below: the first view's answer comes from its deadline.
    let release = () => {};
    const slow = recordingEngine({ id: "openai-compatible", until: new Promise<void>((resolve) => (release = resolve)) });
    const deps = translationDeps([slow.engine]);
    const article = { id: 700_002, museumId, content: content(["Un bol à figures rouges."]) };
    const t0 = Date.now();
    const first = await translateArticle(deps, article, "fr", "ja", { deadlineMs: 600 });
    expect(first).toMatchObject({ status: "failed", failure: { reason: "deadline", backingOff: false } });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
    for (let view = 0; view < 10; view++) {
      // A deadline longer than the test's own limit: a later view that waited for the engine (held until after
      // this loop) would never answer here, and the test would time out; one that does not answers at once.
      const result = await translateArticle(deps, article, "fr", "ja", { deadlineMs: 120_000 });
      expect(result).toMatchObject({ status: "failed", failure: { reason: "deadline", backingOff: true } });
    }
    expect(slow.calls).toHaveLength(1);
    expect(slow.answered()).toBe(0);
    release();
    await settle();
  });

  test("an engine that drops a glossary-protected term: one call, then the original at once, and the rest stays translated", async () => {
    const { museumId } = (await staffSession()).user;
    // Answers every text, but without the placeholders that stand for the museum's protected terms.
    const dropper = recordingEngine({ id: "deepl", translate: (text) => `DE ${text.replace(/⟦[^⟧]*⟧/g, "")}` });
    const deps = translationDeps([dropper.engine]);
    const rules = [{ term: "Amasis", output: "Amasis" }];
    const article = { id: 700_003, museumId, content: content(["Le peintre d'Amasis.", "Une amphore attique."]) };
    for (let view = 0; view < 20; view++) {
      const result = await translateArticle(deps, article, "fr", "de", { glossary: rules });
      expect(result.status).toBe("failed");
      expect(result.failure).toMatchObject({ reason: "glossary", backingOff: view > 0 });
    }
    await settle();
    expect(dropper.calls).toHaveLength(1);
    const rows = await failureRows(museumId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: "glossary", engines: "deepl" });
    expect(rows[0]!.detail).toContain("deepl");
    // The sentence without the term was stored: only the failing one waits.
    const memory = await env.DB.prepare(
      "SELECT source_text AS s FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ?",
    )
      .bind(museumId)
      .all<{ s: string }>();
    expect(memory.results).toEqual([{ s: "Une amphore attique." }]);
  });

  test("20 concurrent first views of a failing language: one engine call sequence, and nobody waits for the deadline", async () => {
    const { museumId } = (await staffSession()).user;
    const broken = serverError("libretranslate");
    const article = { id: 700_004, museumId, content: content(["Une coupe.", "Un cratère.", "Une œnochoé."]) };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => translateArticle(translationDeps([broken.engine]), article, "fr", "fi", { pollMs: 50 })),
    );
    await settle();
    // The 19 others saw the failure and gave the original: a view that had waited on to its 8 s deadline would
    // say "deadline", not "failed" (app/translation/translate.server.ts, the wait for others' segments).
    expect(results.every((r) => r.status === "failed" && r.failure?.reason === "failed")).toBe(true);
    // One batch of three segments, tried three times, by whichever request claimed them.
    expect(broken.calls).toHaveLength(3);
    expect(broken.calls.every((call) => call.length === 3)).toBe(true);
    expect(await failureRows(museumId)).toHaveLength(3);
  }, 30_000);

  test("staff asking now (pretranslate) are not held back, and resetting a language forgets its failures", async () => {
    const { museumId } = (await staffSession()).user;
    const broken = serverError();
    const deps = translationDeps([broken.engine]);
    const article = { id: 700_005, museumId, content: content(["Un lécythe."]) };
    await translateArticle(deps, article, "fr", "nl");
    await translateArticle(deps, article, "fr", "nl");
    expect(broken.calls).toHaveLength(3);
    const forced = await translateArticle(deps, article, "fr", "nl", { ignoreBackoff: true });
    expect(forced.failure).toMatchObject({ backingOff: false });
    expect(broken.calls).toHaveLength(6);
    expect((await failureRows(museumId))[0]).toMatchObject({ failures: 2 });
    await settle();
  });
});

describe("staff see a failing language (decision 030)", () => {
  test("on the review page, the languages page and the dashboard, in French and English, until a success", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
    const saved = await s.call("update_article", {
      articleId,
      version: current.version,
      newContent: [current.content[0], { type: "text", content: "Une amphore attique.\nVers 530 avant notre ère." }],
    });
    expect(saved.status).toBe(200);
    const stored = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: ArticleContent };
    const article = { id: articleId, museumId: s.user.museumId, content: stored.content };
    const name = (await env.DB.prepare("SELECT unformatted_name AS n FROM articles WHERE id = ?").bind(articleId).first<{ n: string }>())!.n;

    // Nothing failing yet: no card on the dashboard.
    expect(await (await get("/dashboard", s.cookie)).text()).not.toContain("Traductions en échec");

    const broken = serverError();
    await translateArticle(translationDeps([broken.engine]), article, "fr", "de");
    await settle();

    const list = await s.read(`/api/read/translations?articleId=${articleId}`);
    expect(list.body).toMatchObject({ languages: [{ lang: "de", segments: 0, failing: { segments: 2, reason: "failed" } }] });
    const one = (await s.read(`/api/read/translation?articleId=${articleId}&lang=de`)).body as { failing: { detail: string; since: number; retryAt: number } };
    expect(one.failing.detail).toContain("HTTP 500");
    expect(one.failing.retryAt - one.failing.since).toBe(BACKOFF_FIRST_MS);

    const fr = await (await get(`/translations?id=${articleId}&lang=de`, s.cookie)).text();
    expect(fr).toContain("La traduction en allemand échoue depuis le");
    expect(fr).toContain("Les moteurs de traduction ont répondu par des erreurs.");
    expect(fr).toContain("HTTP 500: Internal Server Error");
    const en = await (await get(`/translations?id=${articleId}&lang=de`, s.cookie, { "Accept-Language": "en" })).text();
    expect(en).toContain("Translation into German failing since");
    expect(en).toContain("The translation engines answered with errors.");
    const overview = await (await get(`/translations?id=${articleId}`, s.cookie)).text();
    expect(overview).toContain("La traduction en allemand échoue depuis le");
    expect(overview).toContain(`/translations?id=${articleId}&amp;lang=de`);

    const dashboard = await (await get("/dashboard", s.cookie)).text();
    expect(dashboard).toContain("Traductions en échec (1)");
    expect(dashboard).toContain(`${name} — Allemand : en échec depuis le`);
    const dashboardEn = await (await get("/dashboard", s.cookie, { "Accept-Language": "en" })).text();
    expect(dashboardEn).toContain("Translations failing (1)");
    expect(dashboardEn).toContain(`${name} — German: failing since`);

    // Another museum sees nothing of it.
    const other = await staffSession();
    expect(await (await get("/dashboard", other.cookie)).text()).not.toContain("Traductions en échec");

    // A success (once the back-off has passed) clears every notice.
    await expireBackoff(s.user.museumId);
    const working = recordingEngine();
    expect((await translateArticle(translationDeps([working.engine]), article, "fr", "de")).status).toBe("machine");
    await settle();
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toMatchObject({ languages: [{ lang: "de", segments: 2, failing: null }] });
    expect(await (await get(`/translations?id=${articleId}&lang=de`, s.cookie)).text()).not.toContain("échoue depuis");
    expect(await (await get("/dashboard", s.cookie)).text()).not.toContain("Traductions en échec");
  }, 60_000);

  test("a staff correction or a reset forgets the failure; a removed sentence leaves the dashboard", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
    await s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], { type: "text", content: "Une hydrie." }] });
    const stored = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: ArticleContent; version: number };
    const article = { id: articleId, museumId: s.user.museumId, content: stored.content };
    const broken = serverError();
    await translateArticle(translationDeps([broken.engine]), article, "fr", "es");
    await translateArticle(translationDeps([broken.engine]), article, "fr", "pt");
    await settle();
    expect(await failureRows(s.user.museumId)).toHaveLength(2);

    expect((await s.call("update_translation", { articleId, lang: "es", segmentId: "e1.content.0", text: "Una hidria." })).status).toBe(200);
    expect((await failureRows(s.user.museumId)).map((r) => r.lang)).toEqual(["pt"]);
    expect((await s.call("reset_translation", { articleId, lang: "pt" })).status).toBe(200);
    expect(await failureRows(s.user.museumId)).toEqual([]);
    // The next view asks the engines again at once.
    await translateArticle(translationDeps([broken.engine]), article, "fr", "pt");
    expect(broken.calls).toHaveLength(9);
    await settle();
    expect(await (await get("/dashboard", s.cookie)).text()).toContain("Traductions en échec (1)");

    // The failing sentence is edited away: the dashboard no longer shows the article as failing.
    await s.call("update_article", {
      articleId,
      version: stored.version,
      newContent: [stored.content[0], { type: "text", content: "Une hydrie à figures noires." }],
    });
    expect(await (await get("/dashboard", s.cookie)).text()).not.toContain("Traductions en échec");
  }, 60_000);
});
