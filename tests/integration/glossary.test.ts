import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { articleContentSchema, type ArticleContent } from "~/content/schema";
import { pseudoTranslate } from "~/translation/engines";
import { pseudoEngine } from "~/translation/engines/pseudo";
import { translateArticle, translateSegments } from "~/translation/translate.server";
import { BASE, get, postJson, staffSession } from "./helpers";
import { recordingEngine, settle, test, translationDeps } from "./translation-helpers";

type Json = Record<string, unknown>;
type Session = Awaited<ReturnType<typeof staffSession>>;
interface TermView {
  id: number;
  term: string;
  lang: string | null;
  translation: string | null;
}

const terms = async (s: Session) => ((await s.read("/api/read/glossary")).body as { terms: TermView[] }).terms;

const deps = translationDeps;

/** An engine that "translates" names too: it would turn Monet into Monnet and Giverny into Schiwerny. */
const meddling = (t: string, to: string) => `<${to}> ${t.replace(/Monet/g, "Monnet").replace(/Giverny/g, "Schiwerny")}`;

function content(texts: string[]): ArticleContent {
  return articleContentSchema.parse([{ type: "metadatas", url: "piece" }, ...texts.map((t) => ({ type: "text", content: t }))]);
}

async function memory(museumId: number, lang: string) {
  const rows = await env.DB.prepare(
    "SELECT source_text, text, origin FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ? AND target_lang = ? ORDER BY source_text",
  )
    .bind(museumId, lang)
    .all<{ source_text: string; text: string; origin: string }>();
  return rows.results;
}

describe("glossary API", () => {
  it("answers 401 without a session and 405 for the wrong method", async () => {
    expect((await get("/api/read/glossary")).status).toBe(401);
    expect((await postJson("/api/manage/add_glossary_term", { term: "Monet" })).status).toBe(401);
    expect((await postJson("/api/manage/delete_glossary_term", { id: 1 })).status).toBe(401);
    const s = await staffSession();
    expect((await get("/api/manage/add_glossary_term", s.cookie)).status).toBe(405);
    expect((await SELF.fetch(`${BASE}/api/read/glossary`, { method: "POST", headers: { Cookie: s.cookie } })).status).toBe(405);
  });

  it("adds, lists and deletes terms, trimmed and in NFC", async () => {
    const s = await staffSession();
    expect(await terms(s)).toEqual([]);
    const monet = await s.call("add_glossary_term", { term: "  Claude Monet " });
    expect(monet).toEqual({ status: 200, body: { id: expect.any(Number), term: "Claude Monet", lang: null, translation: null } });
    const lilies = await s.call("add_glossary_term", { term: "Nyphe\u0301as", lang: "DE", translation: " Seerosen " });
    expect(lilies.body).toMatchObject({ term: "Nyphéas", lang: "de", translation: "Seerosen" });
    // null means absent, and the same term may be never-translated and fixed in another language.
    const both = await s.call("add_glossary_term", { term: "Nyphéas", lang: null, translation: null });
    expect(both.status).toBe(200);
    expect(await terms(s)).toEqual([
      monet.body,
      { id: both.body.id, term: "Nyphéas", lang: null, translation: null },
      { id: lilies.body.id, term: "Nyphéas", lang: "de", translation: "Seerosen" },
    ]);
    expect(await s.call("delete_glossary_term", { id: lilies.body.id })).toEqual({ status: 200, body: { id: lilies.body.id } });
    expect(await s.call("delete_glossary_term", { id: String(monet.body.id) })).toEqual({ status: 200, body: { id: monet.body.id } });
    expect((await terms(s)).map((t) => t.id)).toEqual([both.body.id]);
    expect((await s.call("delete_glossary_term", { id: monet.body.id })).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const s = await staffSession();
    const cases: [unknown, string, string][] = [
      [{}, "term", "required"],
      [{ term: 12 }, "term", "wrong_type"],
      [{ term: "   " }, "term", "empty"],
      [{ term: "x".repeat(101) }, "term", "too_long"],
      [{ term: "Mo\u202enet" }, "term", "forbidden_characters"],
      [{ term: "Mo\u0000net" }, "term", "forbidden_characters"],
      [{ term: "\u200bMonet" }, "term", "forbidden_characters"],
      [{ term: "Mo\ud800net" }, "term", "forbidden_characters"],
      [{ term: "⟦1⟧" }, "term", "forbidden_characters"],
      [{ term: "—" }, "term", "invalid"],
      [{ term: "Monet", lang: "de" }, "translation", "required"],
      [{ term: "Monet", translation: "Monet" }, "lang", "required"],
      [{ term: "Monet", lang: "xx", translation: "Monet" }, "lang", "invalid"],
      [{ term: "Monet", lang: "de-CH", translation: "Monet" }, "lang", "invalid"],
      [{ term: "Monet", lang: 7, translation: "Monet" }, "lang", "wrong_type"],
      [{ term: "Monet", lang: "de", translation: "" }, "translation", "empty"],
      [{ term: "Monet", lang: "de", translation: "y".repeat(201) }, "translation", "too_long"],
      [{ term: "Monet", extra: true }, "extra", "invalid"],
    ];
    for (const [body, field, reason] of cases) {
      const response = await s.call("add_glossary_term", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body.error as Json).field, JSON.stringify(body)).toBe(field);
      expect((response.body.error as Json).reason, JSON.stringify(body)).toBe(reason);
    }
    for (const [body, field] of [
      [{}, "id"],
      [{ id: 0 }, "id"],
      [{ id: "abc" }, "id"],
      [{ id: 1.5 }, "id"],
      [{ id: 1, more: 1 }, "more"],
    ] as const) {
      const response = await s.call("delete_glossary_term", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((response.body.error as Json).field).toBe(field);
    }
    for (const raw of ["{", "[]", "null", '"term"']) {
      const response = await postJson("/api/manage/add_glossary_term", raw, { Cookie: s.cookie });
      expect(response.status, raw).toBe(400);
    }
    expect(await terms(s)).toEqual([]);
  });

  it("keeps odd Unicode as written: RTL, CJK, emoji, joiners inside words, 100 code points", async () => {
    const s = await staffSession();
    const odd = ["متحف اللوفر", "東京国立博物館", "🎨 Atelier", "می‌خواهم", "𝒜".repeat(100), "AC/DC"];
    for (const term of odd) {
      const response = await s.call("add_glossary_term", { term });
      expect(response.status, term).toBe(200);
      expect(response.body.term).toBe(term);
    }
    expect((await terms(s)).map((t) => t.term).sort()).toEqual([...odd].sort());
  });

  it("answers 409 naming term for a duplicate, NFC and spaces included", async () => {
    const s = await staffSession();
    expect((await s.call("add_glossary_term", { term: "Orsay" })).status).toBe(200);
    const again = await s.call("add_glossary_term", { term: " Orsay" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", field: "term" });
    expect((await s.call("add_glossary_term", { term: "Été" })).status).toBe(200);
    expect((await s.call("add_glossary_term", { term: "E\u0301te\u0301" })).status).toBe(409);
    // Another language of the same term is another row.
    expect((await s.call("add_glossary_term", { term: "Orsay", lang: "ja", translation: "オルセー" })).status).toBe(200);
    expect((await s.call("add_glossary_term", { term: "Orsay", lang: "ja", translation: "オルセー美術館" })).status).toBe(409);
    // Case matters, as in matching.
    expect((await s.call("add_glossary_term", { term: "orsay" })).status).toBe(200);
  });

  it("50 identical adds at once: one 200 and 49 conflicts (409)", async () => {
    const s = await staffSession();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("add_glossary_term", { term: "Giverny", lang: "en", translation: "Giverny" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    expect(await terms(s)).toHaveLength(1);
  });

  it("50 deletes of one term at once: one 200, the rest 404", async () => {
    const s = await staffSession();
    const { id } = (await s.call("add_glossary_term", { term: "Giverny" })).body;
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("delete_glossary_term", { id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(49);
  });

  it("is scoped to the museum: another museum neither sees nor deletes a term, and may add the same", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const { id } = (await a.call("add_glossary_term", { term: "Monet" })).body;
    expect(await terms(b)).toEqual([]);
    const refused = await b.call("delete_glossary_term", { id });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toMatchObject({ code: "not_found", field: "id" });
    expect((await b.call("add_glossary_term", { term: "Monet" })).status).toBe(200);
    expect((await terms(a)).map((t) => t.id)).toEqual([id]);
  });
});

describe("glossary in the translation pipeline", () => {
  const SEGMENTS = ["Claude Monet peint à Giverny.", "Les Nymphéas de Monet.", "Une aquarelle sans nom."];

  test("the pseudo engine leaves never-translate terms as written and fixed translations in place", async () => {
    const s = await staffSession();
    await s.call("add_glossary_term", { term: "Claude Monet" });
    await s.call("add_glossary_term", { term: "Monet" });
    await s.call("add_glossary_term", { term: "Giverny" });
    await s.call("add_glossary_term", { term: "Nymphéas", lang: "de", translation: "Seerosen" });
    const article = { id: 800_000 + s.user.museumId, museumId: s.user.museumId, content: content(SEGMENTS) };
    const de = await translateArticle(deps([pseudoEngine()]), article, "fr", "de");
    expect(de.status).toBe("machine");
    const text = JSON.stringify(de.content);
    expect(text).toContain("[de] Claude Monet péíñt à Giverny.");
    expect(text).toContain("[de] Lés Seerosen dé Monet.");
    expect(text).toContain(pseudoTranslate("Une aquarelle sans nom.", "de"));
    // Italian has no fixed translation: the term is translated like any word.
    const italian = await translateArticle(deps([pseudoEngine()]), article, "fr", "it");
    expect(JSON.stringify(italian.content)).toContain(pseudoTranslate("Les Nymphéas de ⟦1⟧.", "it").replace("⟦1⟧", "Monet"));
    expect((await memory(s.user.museumId, "de")).map((r) => r.text)).toContain("[de] Lés Seerosen dé Monet.");
  });

  test("an engine that would change the terms receives placeholders and cannot touch them", async () => {
    const s = await staffSession();
    await s.call("add_glossary_term", { term: "Monet" });
    await s.call("add_glossary_term", { term: "Giverny", lang: "en", translation: "Giverny (Normandy)" });
    const rec = recordingEngine({ id: "libretranslate", translate: meddling });
    const outcome = await translateSegments(deps([rec.engine]), { museumId: s.user.museumId, from: "fr", to: "en" }, SEGMENTS);
    expect(rec.segments()).toEqual(["Claude ⟦1⟧ peint à ⟦2⟧.", "Les Nymphéas de ⟦1⟧.", "Une aquarelle sans nom."]);
    expect(outcome.complete).toBe(true);
    expect(outcome.texts.get(SEGMENTS[0]!)).toBe("<en> Claude Monet peint à Giverny (Normandy).");
    expect(outcome.texts.get(SEGMENTS[1]!)).toBe("<en> Les Nymphéas de Monet.");
    expect([...outcome.texts.values()].join()).not.toMatch(/Monnet|Schiwerny/);
  });

  test("a segment whose placeholder an engine lost goes to the next engine; never shipped broken", async () => {
    const s = await staffSession();
    await s.call("add_glossary_term", { term: "Monet" });
    // The first engine drops the brackets of every placeholder; the second keeps them.
    const careless = recordingEngine({ id: "deepl", translate: (t, to) => `<${to}> ${t.replace(/⟦(\d+)⟧/g, "$1")}` });
    const careful = recordingEngine({ id: "libretranslate" });
    const outcome = await translateSegments(deps([careless.engine, careful.engine]), { museumId: s.user.museumId, from: "fr", to: "es" }, SEGMENTS);
    expect(outcome.complete).toBe(true);
    // Only the segments with a term went on to the second engine.
    expect(careful.segments()).toEqual(["Claude ⟦1⟧ peint à Giverny.", "Les Nymphéas de ⟦1⟧."]);
    expect(outcome.texts.get(SEGMENTS[0]!)).toBe("<es> Claude Monet peint à Giverny.");
    expect(outcome.texts.get(SEGMENTS[2]!)).toBe("<es> Une aquarelle sans nom.");
    expect(outcome.engines.sort()).toEqual(["deepl", "libretranslate"]);
  });

  test("when every engine loses a placeholder, the visitor gets the original and nothing broken is stored", async () => {
    const s = await staffSession();
    await s.call("add_glossary_term", { term: "Monet" });
    const careless = recordingEngine({ id: "deepl", translate: (t) => t.replace(/⟦\d+⟧/g, "Monnet") });
    const article = { id: 810_000 + s.user.museumId, museumId: s.user.museumId, content: content(SEGMENTS) };
    const result = await translateArticle(deps([careless.engine]), article, "fr", "pt");
    await settle();
    expect(result.status).toBe("failed");
    expect(result.content).toEqual(article.content);
    const rows = await memory(s.user.museumId, "pt");
    // The segment without a term was translated and kept; the broken ones were not.
    expect(rows.map((r) => r.source_text)).toEqual(["Une aquarelle sans nom."]);
    expect((await env.KV.list({ prefix: `tr:v1:${article.id}:pt:` })).keys).toHaveLength(0);
    // Claims were given back: a working engine translates them on the next view.
    const good = recordingEngine({ id: "libretranslate" });
    const retry = await translateArticle(deps([good.engine]), article, "fr", "pt");
    expect(retry.status).toBe("machine");
    expect(good.segments()).toEqual(["Claude ⟦1⟧ peint à Giverny.", "Les Nymphéas de ⟦1⟧."]);
  });

  test("the visitor page's interface strings skip the museum glossary", async () => {
    const s = await staffSession();
    await s.call("add_glossary_term", { term: "Original" });
    const rec = recordingEngine({ id: "libretranslate" });
    await translateSegments(deps([rec.engine]), { museumId: s.user.museumId, from: "en", to: "sv" }, ["Original text"], { glossary: "none" });
    expect(rec.segments()).toEqual(["Original text"]);
    await translateSegments(deps([rec.engine]), { museumId: s.user.museumId, from: "en", to: "da" }, ["Original text"]);
    expect(rec.segments()).toEqual(["Original text", "⟦1⟧ text"]);
  });

  test("a glossary change gives the page a new cache key and re-translates only the affected segments", async () => {
    const s = await staffSession();
    const museumId = s.user.museumId;
    const rec = recordingEngine({ id: "libretranslate", translate: meddling });
    const article = { id: 820_000 + museumId, museumId, content: content(SEGMENTS) };
    const prefix = `tr:v1:${article.id}:de:`;

    const before = await translateArticle(deps([rec.engine]), article, "fr", "de");
    await settle();
    expect(JSON.stringify(before.content)).toContain("Claude Monnet peint à Schiwerny");
    expect((await env.KV.list({ prefix })).keys).toHaveLength(1);
    // A staff correction of a segment with the term is never forgotten by a glossary change.
    await env.DB.prepare(
      "UPDATE translation_memory SET text = 'Die Seerosen von Monet (geprüft).', origin = 'edited' WHERE museum_id = ?1 AND target_lang = 'de' AND source_hash IN (SELECT source_hash FROM translation_segments WHERE museum_id = ?1 AND source_text = ?2)",
    )
      .bind(museumId, SEGMENTS[1])
      .run();
    // Another language's rows with the term stay when the fixed translation is only for German.
    await translateSegments(deps([rec.engine]), { museumId, from: "fr", to: "nl" }, SEGMENTS);

    rec.calls.length = 0;
    const added = await s.call("add_glossary_term", { term: "Giverny", lang: "de", translation: "Giverny" });
    expect(added.status).toBe(200);
    expect((await memory(museumId, "de")).map((r) => r.source_text)).toEqual([SEGMENTS[1], SEGMENTS[2]]);
    expect(await memory(museumId, "nl")).toHaveLength(3);

    const after = await translateArticle(deps([rec.engine]), article, "fr", "de");
    await settle();
    expect(rec.calls).toEqual([["Claude Monet peint à ⟦1⟧."]]);
    expect(JSON.stringify(after.content)).toContain("<de> Claude Monnet peint à Giverny.");
    expect(JSON.stringify(after.content)).toContain("Die Seerosen von Monet (geprüft).");
    const keys = (await env.KV.list({ prefix })).keys.map((k) => k.name);
    expect(keys).toHaveLength(2);
    expect(keys.some((k) => /:g[0-9a-f]{16}$/.test(k))).toBe(true);

    // A term the article does not contain leaves its cached page alone.
    await s.call("add_glossary_term", { term: "Degas" });
    rec.calls.length = 0;
    await translateArticle(deps([rec.engine]), article, "fr", "de");
    await settle();
    expect(rec.calls).toEqual([]);
    expect((await env.KV.list({ prefix })).keys).toHaveLength(2);

    // Deleting the term forgets the rows it protected and gives the page its former key (and page) back.
    const id = added.body.id as number;
    expect((await s.call("delete_glossary_term", { id })).status).toBe(200);
    expect((await memory(museumId, "de")).map((r) => r.source_text)).toEqual([SEGMENTS[1], SEGMENTS[2]]);
    const removed = await translateArticle(deps([rec.engine]), article, "fr", "de");
    expect(rec.calls).toEqual([]);
    expect(removed).toEqual(before);
    // Without that cached page, the segment is translated again, unprotected.
    for (const key of (await env.KV.list({ prefix })).keys) await env.KV.delete(key.name);
    await translateArticle(deps([rec.engine]), article, "fr", "de");
    await settle();
    expect(rec.calls).toEqual([["Claude Monet peint à Giverny."]]);
  });

  test("a never-translate term forgets the machine rows containing it in every language, and only in this museum", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const rec = recordingEngine({ id: "libretranslate" });
    for (const s of [a, b]) for (const to of ["de", "ar"]) await translateSegments(deps([rec.engine]), { museumId: s.user.museumId, from: "fr", to }, SEGMENTS);
    await a.call("add_glossary_term", { term: "Giverny" });
    for (const to of ["de", "ar"]) {
      expect(
        (await memory(a.user.museumId, to)).map((r) => r.source_text),
        to,
      ).toEqual([SEGMENTS[1], SEGMENTS[2]]);
      expect(await memory(b.user.museumId, to), to).toHaveLength(3);
    }
  });

  test("50 concurrent views after a glossary change translate each affected segment once", async () => {
    const s = await staffSession();
    const rec = recordingEngine({ id: "libretranslate" });
    const article = { id: 830_000 + s.user.museumId, museumId: s.user.museumId, content: content(SEGMENTS) };
    await translateArticle(deps([rec.engine]), article, "fr", "fi");
    await settle();
    await s.call("add_glossary_term", { term: "Monet" });
    rec.calls.length = 0;
    const results = await Promise.all(Array.from({ length: 50 }, () => translateArticle(deps([rec.engine]), article, "fr", "fi", { pollMs: 30 })));
    expect(results.every((r) => r.status === "machine")).toBe(true);
    expect(rec.segments().sort()).toEqual(["Claude ⟦1⟧ peint à Giverny.", "Les Nymphéas de ⟦1⟧."]);
  });
});
