import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, publishArticle, staffSession } from "./helpers";

// The layout of migration 0014 (issue 32 §3, decision 145) under load: a segment's source text is stored once, by
// whichever request writes its first translation, and goes with its last one, whoever deletes it.

const ELEMENTS = [
  { type: "text", content: "Une amphore « attique » à figures noires.\nVers 530 avant notre ère.\n\nΑμφορέας, 🏺 et 漢字." },
  { type: "accordion", header: { content: "En savoir plus" }, details: [{ type: "text", content: "Un détail caché." }] },
];
const SEGMENTS = 5;
const LANGS = ["en", "de", "ar", "ja", "es"];

const count = async (sql: string, ...args: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>())!.n;

/** Every memory row has its segment, and every segment has a translation (the trigger's promise). */
async function consistent(museumId: number) {
  expect(await count("SELECT count(*) AS n FROM pragma_foreign_key_check('translation_memory')"), "memory rows without their segment").toBe(0);
  expect(
    await count(
      `SELECT count(*) AS n FROM translation_segments s WHERE s.museum_id = ?1
       AND NOT EXISTS (SELECT 1 FROM translation_memory m WHERE m.museum_id = s.museum_id AND m.source_lang = s.source_lang AND m.source_hash = s.source_hash)`,
      museumId,
    ),
    "segments no translation points at",
  ).toBe(0);
}

describe("leaner rows (0014) under concurrent visitors and staff", () => {
  it("50 first views in five languages at once: each segment stored once, each translation once", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, ELEMENTS);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => get(`/r/${link}?lang=${LANGS[i % LANGS.length]}`)));
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 200));
    await Promise.all(responses.map((r) => r.text()));
    expect(await count("SELECT count(*) AS n FROM translation_segments WHERE museum_id = ?", s.user.museumId)).toBe(SEGMENTS);
    expect(await count("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?", s.user.museumId)).toBe(SEGMENTS * LANGS.length);
    // The odd Unicode of the source comes back whole from its one copy.
    const texts = await env.DB.prepare("SELECT source_text FROM translation_segments WHERE museum_id = ? ORDER BY source_text")
      .bind(s.user.museumId)
      .all<{ source_text: string }>();
    expect(texts.results.map((r) => r.source_text)).toContain("Αμφορέας, 🏺 et 漢字.");
    await consistent(s.user.museumId);
  }, 120_000);

  it("a reset racing first views and a staff correction leaves no translation without its segment, and no segment alone", async () => {
    const s = await staffSession();
    const { link, articleId } = await publishArticle(s, ELEMENTS);
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    const views = Array.from({ length: 20 }, (_, i) => get(`/r/${link}?lang=${LANGS[i % LANGS.length]}`));
    const resets = Array.from({ length: 3 }, () => s.call("reset_traductions", { articleId }));
    const correction = s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." });
    const [viewed, reset, corrected] = await Promise.all([Promise.all(views), Promise.all(resets), correction]);
    expect(viewed.every((r) => r.status === 200)).toBe(true);
    expect(reset.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    await consistent(s.user.museumId);
    // Reset once more when everything has settled: nothing of the article is left, segments included.
    expect((await s.call("reset_traductions", { articleId })).status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?", s.user.museumId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM translation_segments WHERE museum_id = ?", s.user.museumId)).toBe(0);
  }, 120_000);

  it("a glossary term forgets the machine rows whose source has it (read from the segment), and their segments with the last", async () => {
    const s = await staffSession();
    const other = await staffSession();
    for (const session of [s, other]) {
      const { link } = await publishArticle(session, ELEMENTS);
      for (const lang of ["en", "de"]) expect((await get(`/r/${link}?lang=${lang}`)).status).toBe(200);
    }
    const before = await count("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?", s.user.museumId);
    expect(before).toBe(SEGMENTS * 2);
    const added = await s.call("add_glossary_term", { term: "amphore" });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // "Une amphore « attique »…" contains the term in both languages: its two rows and its segment go.
    expect(await count("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?", s.user.museumId)).toBe(before - 2);
    expect(await count("SELECT count(*) AS n FROM translation_segments WHERE museum_id = ? AND instr(source_text, 'amphore') > 0", s.user.museumId)).toBe(0);
    // The other museum's identical rows stay.
    expect(await count("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?", other.user.museumId)).toBe(SEGMENTS * 2);
    expect((await s.call("delete_glossary_term", { id: (added.body as { id: number }).id })).status).toBe(200);
    await consistent(s.user.museumId);
    await consistent(other.user.museumId);
  }, 120_000);
});
