import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditEntries, BASE, get, memberSession, postJson, publishArticle, staffSession, texts } from "./helpers";
import { languages, review, uploadSubtitles, video, VTT, vtt } from "./review-helpers";
import { SELF } from "cloudflare:test";
import { TEXT_MAX_LENGTH } from "~/content/defaults";
import { pseudoTranslate } from "~/translation/engines/pseudo";

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

// "Mark as reviewed" (decision 051): the machine text the person saw becomes the reviewed translation as it
// is; all or nothing, with one audit entry; a text that changed meanwhile is a 409 naming the segments.

type Session = Awaited<ReturnType<typeof staffSession>>;

async function machineArticle(s: Session, lines = ["Une amphore attique.", "Vers 530 avant notre ère."], lang = "de") {
  const published = await publishArticle(s, texts(lines));
  expect((await get(`/r/${published.link}?lang=${lang}`)).status).toBe(200);
  return published;
}

const shown = async (s: Session, articleId: number, lang = "de") =>
  (await review(s, articleId, lang)).segments.map(({ id, text }) => ({ id, text: text ?? "" }));

async function memoryDigest(museumId: number) {
  const row = await env.DB.prepare(
    `SELECT (SELECT group_concat(source_hash||target_lang||text||origin||updated_at, ',') FROM translation_memory WHERE museum_id = ?1) AS m,
            (SELECT group_concat(segment_id||target_lang||text||updated_at, ',') FROM translation_reviews WHERE museum_id = ?1) AS r,
            (SELECT count(*) FROM audit_log WHERE museum_id = ?1) AS a`,
  )
    .bind(museumId)
    .first();
  return JSON.stringify(row);
}

describe("POST /api/manage/mark_reviewed", () => {
  it("keeps the machine text as the reviewed translation, per segment, with one audit entry; again changes nothing", async () => {
    const s = await staffSession();
    const { articleId, link } = await machineArticle(s);
    const [first, second] = await shown(s, articleId);
    const before = await (await get(`/r/${link}?lang=de`)).text();
    expect(before).toContain(first!.text);

    const marked = await s.call("mark_reviewed", { articleId, lang: "de", segments: [first] });
    expect(marked).toMatchObject({ status: 200, body: { articleId, lang: "de", marked: 1, alreadyReviewed: 0 } });
    const de = await review(s, articleId, "de");
    expect(de.segments[0]).toMatchObject({ id: first!.id, text: first!.text, origin: "edited", stale: false });
    expect(de.segments[1]).toMatchObject({ origin: "machine" });
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", reviewed: 1 }] });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toEqual([
      { name: expect.any(String), lang: "de", count: 1 },
    ]);
    const auditPage = await (await get("/audit", s.cookie)).text();
    expect(auditPage).toMatch(/a marqué comme relue 1 traduction \(Allemand\) de l(&#x27;|')article/);
    // Visitors read the same words, now as the museum's.
    expect(await (await get(`/r/${link}?lang=de`)).text()).toContain(first!.text);

    const again = await s.call("mark_reviewed", { articleId, lang: "de", segments: [first] });
    expect(again).toMatchObject({ status: 200, body: { marked: 0, alreadyReviewed: 1 } });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toHaveLength(1);

    const both = await s.call("mark_reviewed", { articleId, lang: "de", segments: [first, second] });
    expect(both).toMatchObject({ status: 200, body: { marked: 1, alreadyReviewed: 1 } });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toHaveLength(2);
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", segments: 2, reviewed: 2 }] });
    // Every segment reviewed: the visitor page says the museum reviewed it.
    expect(await (await get(`/r/${link}?lang=de`)).text()).toContain("révíéwéd bý thé múséúm");
  });

  it("marks subtitle cues too: every shown segment in one call, and the reviewed count means what it says", async () => {
    const s = await staffSession();
    const published = await publishArticle(s, texts(["Une amphore attique."]));
    const src = await uploadSubtitles(s, published.articleId, VTT);
    await published.edit([...texts(["Une amphore attique."]), video(src)]);
    await get(`/r/${published.link}?lang=de`);
    const machine = await vtt(src, "de");
    const all = await shown(s, published.articleId);
    expect(all).toHaveLength(4);
    const marked = await s.call("mark_reviewed", { articleId: published.articleId, lang: "de", segments: all });
    expect(marked).toMatchObject({ status: 200, body: { marked: 4 } });
    expect(await languages(s, published.articleId)).toMatchObject({ total: 4, languages: [{ lang: "de", segments: 4, reviewed: 4, stale: 0 }] });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toEqual([
      { name: expect.any(String), lang: "de", count: 4 },
    ]);
    // The same words reach /vtt (now from the museum's reviewed lines).
    expect(await vtt(src, "de")).toBe(machine);
  });

  it("refuses the whole call when a translation changed meanwhile: 409 naming the segments, nothing applied", async () => {
    const s = await staffSession();
    const { articleId } = await machineArticle(s, ["Une amphore attique.", "Vers 530 avant notre ère.", "Le peintre d'Amasis."]);
    const seen = await shown(s, articleId);
    // A colleague corrects the first; an engine retranslates the third (a reset and a new view would).
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: seen[0]!.id, text: "Eine attische Amphore." })).status).toBe(200);
    await env.DB.prepare("UPDATE translation_memory SET text = 'Der Maler des Amasis.' WHERE museum_id = ? AND target_lang = 'de' AND text = ?")
      .bind(s.user.museumId, seen[2]!.text)
      .run();
    const before = await memoryDigest(s.user.museumId);
    const refused = await s.call("mark_reviewed", { articleId, lang: "de", segments: seen });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: "conflict", field: "segments", reason: "stale_version", segments: [seen[0]!.id, seen[2]!.id] } });
    expect(await memoryDigest(s.user.museumId)).toBe(before);
    expect((await review(s, articleId, "de")).segments[1]).toMatchObject({ origin: "machine" });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toEqual([]);
  });

  it("marks 1000 distinct segments in one call, and a correction of a shared sentence reaches every article's cached page", async () => {
    const s = await staffSession();
    const lines = Array.from({ length: 1000 }, (_, i) => `Ligne ${i} du cartel « ${"é".repeat(i % 7)} ».`);
    const big = await publishArticle(
      s,
      Array.from({ length: 20 }, (_, k) => ({ type: "text", content: lines.slice(k * 50, k * 50 + 50).join("\n") })),
    );
    const small = await publishArticle(s, texts([lines[999]!]));
    expect((await get(`/r/${big.link}?lang=de`)).status).toBe(200);
    expect(await (await get(`/r/${small.link}?lang=de`)).text()).toContain(escapeHtml(pseudoTranslate(lines[999]!, "de")));
    const seen = await shown(s, big.articleId);
    const started = Date.now();
    expect(await s.call("mark_reviewed", { articleId: big.articleId, lang: "de", segments: seen })).toMatchObject({ status: 200, body: { marked: 1000 } });
    const took = Date.now() - started;
    expect(await languages(s, big.articleId)).toMatchObject({ total: 1000, languages: [{ lang: "de", reviewed: 1000 }] });
    expect((await review(s, small.articleId, "de")).segments[0]).toMatchObject({ origin: "edited" });
    // The small article's cached German page is dropped with the big one's: a correction there shows at once.
    expect((await s.call("update_translation", { articleId: big.articleId, lang: "de", segmentId: seen[999]!.id, text: "Zeile 999." })).status).toBe(200);
    expect(await (await get(`/r/${small.link}?lang=de`)).text()).toContain("Zeile 999.");
    console.info(`mark_reviewed of 1000 segments: ${took} ms`);
  }, 60_000);

  it("marks a stale review with the new source's machine text, and refuses the old reviewed text", async () => {
    const s = await staffSession();
    const { articleId, link, edit } = await machineArticle(s);
    const [first] = await shown(s, articleId);
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: first!.id, text: "Eine attische Amphore." })).status).toBe(200);
    await edit(texts(["Une grande amphore attique.", "Vers 530 avant notre ère."]));
    await get(`/r/${link}?lang=de`);
    const stale = (await review(s, articleId, "de")).segments[0]!;
    expect(stale).toMatchObject({ stale: true, text: "Eine attische Amphore.", machineText: "[de] Úñé gráñdé ámphóré áttíqúé." });
    expect((await s.call("mark_reviewed", { articleId, lang: "de", segments: [{ id: stale.id, text: stale.text }] })).status).toBe(409);
    expect(await s.call("mark_reviewed", { articleId, lang: "de", segments: [{ id: stale.id, text: stale.machineText }] })).toMatchObject({
      status: 200,
      body: { marked: 1 },
    });
    expect((await review(s, articleId, "de")).segments[0]).toMatchObject({ stale: false, origin: "edited", text: "[de] Úñé gráñdé ámphóré áttíqúé." });
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", stale: 0, reviewed: 1 }] });
  });

  it("names an unknown segment (404) and one with no translation yet (400), and applies nothing", async () => {
    const s = await staffSession();
    const { articleId, edit } = await machineArticle(s);
    const seen = await shown(s, articleId);
    expect(await s.call("mark_reviewed", { articleId, lang: "de", segments: [seen[0], { id: "e9.content.0", text: "x" }] })).toMatchObject({
      status: 404,
      body: { error: { code: "not_found", field: "segments.1.id" } },
    });
    // A new line, published, never viewed in German: no translation to keep.
    await edit(texts(["Une amphore attique.", "Vers 530 avant notre ère.", "Une ligne nouvelle."]));
    const before = await memoryDigest(s.user.museumId);
    expect(await s.call("mark_reviewed", { articleId, lang: "de", segments: [seen[0], { id: "e3.content.0", text: "" }] })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input", field: "segments.1.id", reason: "not_translated" } },
    });
    expect(await memoryDigest(s.user.museumId)).toBe(before);
  });

  it("refuses malformed bodies with the field, never 500", async () => {
    const s = await staffSession();
    const { articleId } = await machineArticle(s);
    const [one] = await shown(s, articleId);
    const many = Array.from({ length: 1001 }, () => one);
    const cases: [unknown, string, string?][] = [
      [{ lang: "de", segments: [one] }, "articleId"],
      [{ articleId, segments: [one] }, "lang"],
      [{ articleId, lang: "fr", segments: [one] }, "lang", "source_language"],
      [{ articleId, lang: "xx-nope", segments: [one] }, "lang"],
      [{ articleId, lang: "de" }, "segments", "required"],
      [{ articleId, lang: "de", segments: [] }, "segments", "empty"],
      [{ articleId, lang: "de", segments: many }, "segments", "too_many"],
      [{ articleId, lang: "de", segments: "e1.content.0" }, "segments", "wrong_type"],
      [{ articleId, lang: "de", segments: [{ id: one!.id }] }, "segments.0.text", "required"],
      [{ articleId, lang: "de", segments: [{ id: one!.id, text: 42 }] }, "segments.0.text", "wrong_type"],
      [{ articleId, lang: "de", segments: [{ id: "../e1", text: "x" }] }, "segments.0.id", "invalid"],
      [{ articleId, lang: "de", segments: [{ id: one!.id, text: "x".repeat(TEXT_MAX_LENGTH * 4 + 1) }] }, "segments.0.text", "too_long"],
      [{ articleId: "1; DROP TABLE", lang: "de", segments: [one] }, "articleId"],
    ];
    for (const [body, field, reason] of cases) {
      const r = await s.call("mark_reviewed", body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error, field).toMatchObject({ field, ...(reason ? { reason } : {}) });
    }
    const raw = await SELF.fetch(`${BASE}/api/manage/mark_reviewed`, {
      method: "POST",
      body: "{not json",
      headers: { "Content-Type": "application/json", Cookie: s.cookie },
    });
    expect(raw.status).toBe(400);
    expect((await get("/api/manage/mark_reviewed", s.cookie)).status).toBe(405);
    // Up to the limit is taken (1000 times the same segment is one place, marked once).
    expect(await s.call("mark_reviewed", { articleId, lang: "de", segments: many.slice(0, 1000) })).toMatchObject({ status: 200, body: { marked: 1 } });
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toEqual([
      { name: expect.any(String), lang: "de", count: 1 },
    ]);
  });

  it("compares the seen text in NFC, keeps odd Unicode as stored, and writes it unchanged", async () => {
    const s = await staffSession();
    const { articleId } = await machineArticle(s, ["Ça coûte 💶 ‏שלום‏ — déjà vu"]);
    const [one] = await shown(s, articleId);
    const stored = one!.text;
    expect(stored.normalize("NFD")).not.toBe(stored);
    const marked = await s.call("mark_reviewed", { articleId, lang: "de", segments: [{ id: one!.id, text: stored.normalize("NFD") }] });
    expect(marked).toMatchObject({ status: 200, body: { marked: 1 } });
    expect((await review(s, articleId, "de")).segments[0]).toMatchObject({ text: stored, origin: "edited" });
    // A text differing by a space is not what is stored: a conflict, not a silent approval.
    const other = await machineArticle(s, ["Une autre phrase."]);
    const [two] = await shown(s, other.articleId);
    expect((await s.call("mark_reviewed", { articleId: other.articleId, lang: "de", segments: [{ id: two!.id, text: ` ${two!.text}` }] })).status).toBe(409);
  });

  it("answers 50 identical calls at once with one write and one audit entry; a correction racing a mark ends consistent", async () => {
    const s = await staffSession();
    const { articleId } = await machineArticle(s);
    const seen = await shown(s, articleId);
    const all = await Promise.all(Array.from({ length: 50 }, () => s.call("mark_reviewed", { articleId, lang: "de", segments: seen })));
    expect(all.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(all.map((r) => r.body.marked).sort(), JSON.stringify(all.map((r) => r.body))).toEqual([...Array(49).fill(0), 2]);
    expect((await auditEntries(s.user.museumId, { action: "translations.mark_reviewed" })).map((e) => e.detail)).toHaveLength(1);
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", reviewed: 2 }] });

    for (let round = 0; round < 5; round++) {
      const t = await machineArticle(s, [`Phrase ${round} à relire.`]);
      const [one] = await shown(s, t.articleId);
      const [mark, fix] = await Promise.all([
        s.call("mark_reviewed", { articleId: t.articleId, lang: "de", segments: [one] }),
        s.call("update_translation", { articleId: t.articleId, lang: "de", segmentId: one!.id, text: `Korrigiert ${round}` }),
      ]);
      expect(fix.status).toBe(200);
      expect([200, 409]).toContain(mark.status);
      // Whatever the order, the colleague's correction is what stays.
      expect((await review(s, t.articleId, "de")).segments[0]).toMatchObject({ text: `Korrigiert ${round}`, origin: "edited" });
    }
  });

  it("holds roles and languages, and another museum's article is 404", async () => {
    const s = await staffSession();
    const { articleId } = await machineArticle(s);
    await get(`/r/${(await publishArticle(s, texts(["x"]))).link}?lang=es`);
    const es = await machineArticle(s, ["Une amphore attique.", "Vers 530 avant notre ère."], "es");
    const seenDe = await shown(s, articleId);
    const seenEs = await shown(s, es.articleId, "es");
    const translatorDe = await memberSession(s.user, { role: "translator", languages: ["de"] });
    const viewer = await memberSession(s.user, { role: "viewer" });
    const other = await staffSession();
    const before = await memoryDigest(s.user.museumId);
    expect(await translatorDe.call("mark_reviewed", { articleId: es.articleId, lang: "es", segments: seenEs })).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden", field: "lang" } },
    });
    expect(await viewer.call("mark_reviewed", { articleId, lang: "de", segments: seenDe })).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden" } },
    });
    expect((await other.call("mark_reviewed", { articleId, lang: "de", segments: seenDe })).status).toBe(404);
    expect((await postJson("/api/manage/mark_reviewed", { articleId, lang: "de", segments: seenDe })).status).toBe(401);
    expect(await memoryDigest(s.user.museumId)).toBe(before);
    expect(await translatorDe.call("mark_reviewed", { articleId, lang: "de", segments: seenDe })).toMatchObject({ status: 200, body: { marked: 2 } });
  });
});
