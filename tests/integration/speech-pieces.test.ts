// Regeneration after an edit reads only the paragraphs that changed (decision 106), with real local D1 and
// R2: generateOnce with a counting engine, the staff routes that remove or regenerate, and the trash purge.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ArticleContent } from "~/content/schema";
import { createDb } from "~/db/client.server";
import { purgeExpiredTrash, TRASH_RETENTION_DAYS } from "~/models/trash.server";
import { generateOnce, narrationTextHash, type NarrationDeps } from "~/narration/narrations.server";
import { piecePrefix } from "~/narration/pieces.server";
import { narrationText } from "~/narration/text";
import type { SpeechEngine } from "~/speech/engines/types";
import { PARAGRAPH_PAUSE_MS } from "~/speech/join";
import { encodeWav, parseWav } from "~/speech/wav";
import { BASE, publishArticle, staffSession, texts } from "./helpers";

/** The array with item `i` replaced (Array.prototype.with is ES2023, beyond the project's lib). */
const replaced = <T>(items: readonly T[], i: number, item: T): T[] => items.map((x, j) => (j === i ? item : x));

const RATE = 8_000;

/** A WAV engine (this project's own format, app/speech/wav.ts) that counts its calls: 20 ms per character. */
function countingEngine(voice = "count-1") {
  const calls: string[] = [];
  const engine: SpeechEngine = {
    id: "offline",
    limit: { max: 2000, measure: "chars" },
    format: "wav",
    voiceFor: () => voice,
    async synthesize(text) {
      calls.push(text);
      const samples = new Int16Array(Math.round(text.length * RATE * 0.02));
      for (let i = 0; i < samples.length; i++) samples[i] = Math.round(6000 * Math.sin((i * ((text.length % 13) + 3)) / 11));
      return encodeWav(samples, RATE);
    },
  };
  return { engine, calls };
}

const PARAGRAPHS = [
  "Vers 530 avant notre ère, le peintre Amasis décore cette amphore.",
  "Deux guerriers se font face, sous le regard d'Athéna.",
  "Au revers, Dionysos tend une coupe à deux ménades.",
  "Le vase fut trouvé à Vulci, en Étrurie, au XIXe siècle.",
  "Il entre au musée en 1861 avec la collection Campana.",
];

async function publishedText(articleId: number) {
  const row = await env.DB.prepare("SELECT published_content FROM articles WHERE id = ?").bind(articleId).first<{ published_content: string }>();
  return narrationText(JSON.parse(row!.published_content) as ArticleContent);
}

async function pieceKeys(museumId: number, articleId: number, lang?: string) {
  return (await env.MEDIA.list({ prefix: piecePrefix(museumId, articleId, lang) })).objects.map((o) => o.key).sort();
}

async function narrationRow(articleId: number, lang: string) {
  return env.DB.prepare("SELECT r2_key, text_hash, duration_ms FROM narrations WHERE article_id = ? AND lang = ?")
    .bind(articleId, lang)
    .first<{ r2_key: string; text_hash: string; duration_ms: number }>();
}

function generate(deps: NarrationDeps, museumId: number, articleId: number, lang: string, text: string, voice = "count-1") {
  return narrationTextHash(text).then((hash) => generateOnce(deps, { museumId, articleId, lang, text, hash, voice }));
}

const depsWith = (engine: SpeechEngine): NarrationDeps => ({ db: createDb(env.DB), media: env.MEDIA, engines: [engine], waitUntil: () => undefined });

describe("regeneration after an edit (decision 106)", () => {
  it("calls the engine for the edited paragraph only, serves a valid joined file and cleans the old piece", async () => {
    const s = await staffSession();
    const museumId = s.user.museumId;
    const { articleId, edit } = await publishArticle(s, texts(PARAGRAPHS));
    const { engine, calls } = countingEngine();
    const deps = depsWith(engine);
    const text = await publishedText(articleId);
    const paragraphs = text.split("\n\n");
    expect(paragraphs).toEqual(PARAGRAPHS); // the five texts (the metadata element is not read)

    const first = await generate(deps, museumId, articleId, "de", text);
    expect(first).toMatchObject({ status: "generated", reused: 0, synthesized: 5 });
    expect(calls).toEqual(paragraphs);
    const before = await pieceKeys(museumId, articleId, "de");
    expect(before).toHaveLength(5);
    const oldRow = await narrationRow(articleId, "de");

    await edit(texts(replaced(PARAGRAPHS, 2, "Au revers, Dionysos, couronné de lierre, tend une coupe à deux ménades.")));
    const edited = await publishedText(articleId);
    const changed = edited.split("\n\n").filter((p) => !paragraphs.includes(p));
    expect(changed).toEqual(["Au revers, Dionysos, couronné de lierre, tend une coupe à deux ménades."]);
    calls.length = 0;
    const second = await generate(deps, museumId, articleId, "de", edited);
    expect(second).toMatchObject({ status: "generated", reused: 4, synthesized: 1, synthesizedChars: [...changed[0]!].length });
    expect(calls).toEqual(changed);

    // The edited paragraph's old piece is gone, the new one kept: five pieces, four of them as before.
    const after = await pieceKeys(museumId, articleId, "de");
    expect(after).toHaveLength(5);
    expect(after.filter((k) => before.includes(k))).toHaveLength(4);
    // The row reads the new text; the old file went; the new one plays and decodes whole.
    const row = await narrationRow(articleId, "de");
    expect(row!.text_hash).toBe(await narrationTextHash(edited));
    expect(await env.MEDIA.head(oldRow!.r2_key)).toBeNull();
    const served = await SELF.fetch(`${BASE}/narration/${row!.r2_key}`);
    expect(served.status).toBe(200);
    const bytes = new Uint8Array(await served.arrayBuffer());
    const wav = parseWav(bytes)!;
    expect(wav.dataOffset + wav.dataBytes).toBe(bytes.length);
    const samples = edited.split("\n\n").reduce((n, p) => n + Math.round(p.length * RATE * 0.02), 0) + 4 * (PARAGRAPH_PAUSE_MS / 1000) * RATE;
    expect(wav.dataBytes).toBe(samples * 2);
    expect(row!.duration_ms).toBe(Math.round((samples / RATE) * 1000));
    // Pieces are never served: only keys of the narrations table are.
    expect((await SELF.fetch(`${BASE}/narration/${after[0]!}`)).status).toBe(404);
  });

  it("keeps languages, voices and museums apart", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(PARAGRAPHS));
    const text = await publishedText(articleId);
    const { engine, calls } = countingEngine();
    await generate(depsWith(engine), s.user.museumId, articleId, "de", text);
    // The same words in another language's narration: read again, kept apart, the German pieces stay.
    calls.length = 0;
    expect(await generate(depsWith(engine), s.user.museumId, articleId, "nl", text)).toMatchObject({ reused: 0, synthesized: 5 });
    expect(await pieceKeys(s.user.museumId, articleId, "de")).toHaveLength(5);
    expect(await pieceKeys(s.user.museumId, articleId, "nl")).toHaveLength(5);
    // Another voice: nothing reused, and the old voice's pieces are cleaned after.
    const other = countingEngine("count-2");
    expect(await generate(depsWith(other.engine), s.user.museumId, articleId, "de", text, "count-2")).toMatchObject({
      status: "generated",
      reused: 0,
      synthesized: 5,
    });
    expect(await pieceKeys(s.user.museumId, articleId, "de")).toHaveLength(5);
    // Another museum's article with the very same text reuses nothing of this one.
    const t = await staffSession();
    const theirs = await publishArticle(t, texts(PARAGRAPHS));
    const theirText = await publishedText(theirs.articleId);
    const third = countingEngine();
    expect(await generate(depsWith(third.engine), t.user.museumId, theirs.articleId, "de", theirText)).toMatchObject({ reused: 0 });
    expect(third.calls).toHaveLength(theirText.split("\n\n").length);
  });

  it("50 parallel regenerations after an edit: one run, one engine call for the changed paragraph", async () => {
    const s = await staffSession();
    const { articleId, edit } = await publishArticle(s, texts(PARAGRAPHS));
    const { engine, calls } = countingEngine();
    const deps = depsWith(engine);
    await generate(deps, s.user.museumId, articleId, "es", await publishedText(articleId));
    await edit(texts(replaced(PARAGRAPHS, 4, "Il entre au musée du Louvre en 1861.")));
    const edited = await publishedText(articleId);
    calls.length = 0;
    const outcomes = await Promise.all(Array.from({ length: 50 }, () => generate(deps, s.user.museumId, articleId, "es", edited)));
    expect(outcomes.filter((o) => o.status === "generated")).toEqual([expect.objectContaining({ reused: 4, synthesized: 1 })]);
    expect(outcomes.filter((o) => o.status === "claimed_elsewhere")).toHaveLength(49);
    expect(calls).toEqual(["Il entre au musée du Louvre en 1861."]);
    expect(await pieceKeys(s.user.museumId, articleId, "es")).toHaveLength(5);
    expect((await env.MEDIA.list({ prefix: `n/${s.user.museumId}/${articleId}/` })).objects).toHaveLength(1);
  });

  it("two conflicting edits generated at once: one narration wins, and the next edit still reuses and cleans", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(PARAGRAPHS));
    const { engine } = countingEngine();
    const deps = depsWith(engine);
    const museumId = s.user.museumId;
    await generate(deps, museumId, articleId, "fr", PARAGRAPHS.join("\n\n"));
    const a = replaced(PARAGRAPHS, 0, "Vers 530 avant notre ère, Amasis peint cette amphore.");
    const b = replaced(PARAGRAPHS, 1, "Deux hoplites se font face, sous le regard d'Athéna.");
    const outcomes = await Promise.all([generate(deps, museumId, articleId, "fr", a.join("\n\n")), generate(deps, museumId, articleId, "fr", b.join("\n\n"))]);
    expect(outcomes.filter((o) => o.status === "generated").length).toBeGreaterThanOrEqual(1);
    const row = await narrationRow(articleId, "fr");
    const winner = row!.text_hash === (await narrationTextHash(a.join("\n\n"))) ? a : b;
    expect(row!.text_hash).toBe(await narrationTextHash(winner.join("\n\n")));
    const served = new Uint8Array(await (await SELF.fetch(`${BASE}/narration/${row!.r2_key}`)).arrayBuffer());
    expect(parseWav(served)?.dataBytes).toBe(served.length - 44);
    // The next edit of the winning text: four paragraphs reused, and only its five pieces are left.
    const c = replaced(winner, 4, "Il entre au Louvre en 1861.");
    expect(await generate(deps, museumId, articleId, "fr", c.join("\n\n"))).toMatchObject({ status: "generated", reused: 4, synthesized: 1 });
    expect(await pieceKeys(museumId, articleId, "fr")).toHaveLength(5);
    expect((await env.MEDIA.list({ prefix: `n/${museumId}/${articleId}/` })).objects).toHaveLength(1);
  });

  it("removing or regenerating a narration drops its language's pieces; purging the article drops them all", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, texts(PARAGRAPHS));
    const text = await publishedText(articleId);
    const { engine, calls } = countingEngine();
    for (const lang of ["de", "it", "pt"]) await generate(depsWith(engine), s.user.museumId, articleId, lang, text);
    expect(await pieceKeys(s.user.museumId, articleId)).toHaveLength(15);

    expect((await s.call("delete_narration", { articleId, lang: "de" })).status).toBe(200);
    expect(await pieceKeys(s.user.museumId, articleId, "de")).toEqual([]);
    expect(await pieceKeys(s.user.museumId, articleId)).toHaveLength(10);

    // Regenerate reads everything afresh: the same pieces again would give the same file.
    expect((await s.call("regenerate_narration", { articleId, lang: "it" })).status).toBe(200);
    expect(await pieceKeys(s.user.museumId, articleId, "it")).toEqual([]);
    calls.length = 0;
    expect(await generate(depsWith(engine), s.user.museumId, articleId, "it", text)).toMatchObject({ reused: 0, synthesized: 5 });

    // Another museum cannot touch them (404, nothing deleted).
    const other = await staffSession();
    expect((await other.call("delete_narration", { articleId, lang: "pt" })).status).toBe(404);
    expect((await other.call("regenerate_narration", { articleId, lang: "pt" })).status).toBe(404);
    expect(await pieceKeys(s.user.museumId, articleId, "pt")).toHaveLength(5);

    expect((await s.call("delete_item", { type: "article", id: articleId })).status).toBe(200);
    const longAgo = Date.now() - (TRASH_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare("UPDATE articles SET deleted_at = ? WHERE id = ?").bind(longAgo, articleId).run();
    await purgeExpiredTrash(createDb(env.DB), env.MEDIA);
    expect(await pieceKeys(s.user.museumId, articleId)).toEqual([]);
    expect((await env.MEDIA.list({ prefix: `n/${s.user.museumId}/` })).objects).toEqual([]);
  });

  it("refuses malformed piece keys and scopes", async () => {
    const { r2PieceStore } = await import("~/narration/pieces.server");
    const store = r2PieceStore(env.MEDIA, { museumId: 1, articleId: 2, lang: "de" });
    await expect(store.get("../../rec/x.mp3")).rejects.toThrow(/piece key/);
    await expect(store.put("a.wav", new Uint8Array(4))).rejects.toThrow(/piece key/);
    expect(() => piecePrefix(1.5, 2)).toThrow();
    expect(piecePrefix(1, 2, "zh-Hant")).toBe("n/1/p/2/zh-Hant/");
    expect(piecePrefix(1, 2, "x/../y")).toBe("n/1/p/2/x%2F..%2Fy/");
  });
});
