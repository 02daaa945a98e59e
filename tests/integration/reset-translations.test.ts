import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderedTranslationPrefix, segmentHash } from "~/translation/segments";
import { staffSession } from "./helpers";

async function remember(museumId: number, text: string, targetLang: string) {
  const hash = await segmentHash(text);
  await env.DB.batch([
    env.DB.prepare("INSERT OR IGNORE INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', ?, ?)").bind(
      museumId,
      hash,
      text,
    ),
    env.DB.prepare(
      "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at) VALUES (?, 'fr', ?, ?, ?, 'machine', 'pseudo', 0)",
    ).bind(museumId, targetLang, hash, `[${targetLang}] ${text}`),
  ]);
}

const memoryCount = async (museumId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ?").bind(museumId).first<{ n: number }>())!.n;

describe("POST /api/manage/reset_traductions", () => {
  it("forgets every language of the article's segments and its cached pages, and nothing else", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const created = await s.call("add_article", { pathArray: [] });
    const articleId = created.body.id as number;
    const saved = await s.call("update_article", {
      articleId,
      newContent: [
        { type: "metadatas", url: created.body.name },
        { type: "text", content: "Une amphore." },
        { type: "image", src: "", alt: "Amphore vue de face" },
        { type: "accordion", header: { content: "En savoir plus" }, details: [{ type: "text", content: "Argile cuite." }] },
      ],
    });
    expect(saved.status).toBe(200);
    for (const text of ["Une amphore.", "Amphore vue de face", "En savoir plus", "Argile cuite."]) {
      await remember(s.user.museumId, text, "en");
      await remember(s.user.museumId, text, "de");
    }
    await remember(s.user.museumId, "Un autre texte.", "en");
    await remember(other.user.museumId, "Une amphore.", "en");
    await env.KV.put(`${renderedTranslationPrefix(articleId)}en:abc`, "<p>cached</p>");
    await env.KV.put(`${renderedTranslationPrefix(articleId + 100000)}en:abc`, "<p>someone else's</p>");

    const reset = await s.call("reset_traductions", { articleId });
    expect(reset).toEqual({ status: 200, body: { articleId, deleted: 8 } });
    expect(await memoryCount(s.user.museumId)).toBe(1);
    expect(await memoryCount(other.user.museumId)).toBe(1);
    expect(await env.KV.get(`${renderedTranslationPrefix(articleId)}en:abc`)).toBeNull();
    expect(await env.KV.get(`${renderedTranslationPrefix(articleId + 100000)}en:abc`)).not.toBeNull();

    // Idempotent: nothing left to forget.
    expect((await s.call("reset_traductions", { articleId })).body).toEqual({ articleId, deleted: 0 });
  });

  it("answers 404 for another museum's article and 400 for a bad id", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const theirs = await other.call("add_article", { pathArray: [] });
    expect((await s.call("reset_traductions", { articleId: theirs.body.id })).status).toBe(404);
    expect((await s.call("reset_traductions", { articleId: "x" })).status).toBe(400);
    expect((await s.call("reset_traductions", {})).status).toBe(400);
  });
});
