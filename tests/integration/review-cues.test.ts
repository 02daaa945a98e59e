import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, publishArticle, staffSession } from "./helpers";
import { languages, review, uploadSubtitles, video, VTT, vtt, vttCached } from "./review-helpers";

// Subtitle cues are segments like any other on the review page (decision 050): listed under their video
// with their timings, counted, corrected, and a correction reaches `/vtt` at once.

async function articleWithVideo(s: Awaited<ReturnType<typeof staffSession>>, file = VTT) {
  const published = await publishArticle(s, [{ type: "text", content: "Une amphore attique." }]);
  const src = await uploadSubtitles(s, published.articleId, file);
  await published.edit([{ type: "text", content: "Une amphore attique." }, video(src)]);
  return { ...published, src };
}

describe("subtitle cues on the review page", () => {
  it("lists each cue under its video with its timings, counts it, and a correction reaches /vtt at once", async () => {
    const s = await staffSession();
    const { articleId, link, src } = await articleWithVideo(s);
    expect(await vtt(src, "de")).toContain("00:00:01.000 --> 00:00:03.000\n[de] Vóíçí l'ámphóré.");
    const cached = await vttCached(src, "de");
    await get(`/r/${link}?lang=de`);

    const de = await review(s, articleId, "de");
    expect(de.segments.map((x) => [x.id, x.kind, x.element, x.source, x.origin])).toEqual([
      ["e1.content.0", "text", 1, "Une amphore attique.", "machine"],
      ["e2.vtt.c1.0.0", "subtitle", 2, "Voici l'amphore.", "machine"],
      ["e2.vtt.c2.0.0", "subtitle", 2, "Elle vient d'Athènes.", "machine"],
      ["e2.vtt.c2.1.0", "subtitle", 2, "Vers 530.", "machine"],
    ]);
    expect(de.segments[1]!.cue).toEqual({ start: "00:00:01.000", end: "00:00:03.000", file: src });
    expect(de.segments[2]!.cue).toEqual({ start: "00:00:04.000", end: "00:00:06.500", file: src });
    expect(de.segments[0]!.cue).toBeUndefined();
    expect(await languages(s, articleId)).toMatchObject({ total: 4, languages: [{ lang: "de", segments: 4, reviewed: 0, stale: 0 }] });

    const fixed = await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c1.0.0", text: "Hier ist die Amphore." });
    expect(fixed.status).toBe(200);
    expect(fixed.body.segment).toMatchObject({
      id: "e2.vtt.c1.0.0",
      kind: "subtitle",
      text: "Hier ist die Amphore.",
      origin: "edited",
      cue: { start: "00:00:01.000" },
    });
    // The cached translated file is gone, and the next one carries the correction with the cue's timing.
    for (const key of cached) expect(await env.KV.get(key)).toBeNull();
    const after = await vtt(src, "de");
    expect(after).toContain("00:00:01.000 --> 00:00:03.000\nHier ist die Amphore.");
    expect(after).toContain("00:00:04.000 --> 00:00:06.500 align:start\n[de] Éllé víéñt d'Áthèñés.");
    expect(after).not.toContain("Vóíçí");
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", segments: 4, reviewed: 1 }] });
    // Another language's file is untouched by a German correction.
    expect(await vtt(src, "es")).toContain("[es] Vóíçí l'ámphóré.");
  });

  it("makes a reviewed cue stale when the subtitle file is replaced with a changed line", async () => {
    const s = await staffSession();
    const { articleId, src, edit } = await articleWithVideo(s);
    await vtt(src, "de");
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c1.0.0", text: "Hier ist die Amphore." })).status).toBe(200);
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c2.1.0", text: "Um 530." })).status).toBe(200);

    const replaced = await uploadSubtitles(s, articleId, VTT.replace("Voici l'amphore.", "Voici la grande amphore."));
    await edit([{ type: "text", content: "Une amphore attique." }, video(replaced)]);
    const de = await review(s, articleId, "de");
    expect(de.segments[1]).toMatchObject({
      id: "e2.vtt.c1.0.0",
      source: "Voici la grande amphore.",
      text: "Hier ist die Amphore.",
      stale: true,
      previousSource: "Voici l'amphore.",
      cue: { file: replaced },
    });
    // An unchanged line of the new file keeps its review.
    expect(de.segments[3]).toMatchObject({ id: "e2.vtt.c2.1.0", text: "Um 530.", origin: "edited", stale: false });
    expect(await languages(s, articleId)).toMatchObject({ languages: [{ lang: "de", stale: 1, reviewed: 1 }] });
    // Visitors get the fresh machine line meanwhile, never the stale review.
    const served = await vtt(replaced, "de");
    expect(served).toContain("[de] Vóíçí lá gráñdé ámphóré.");
    expect(served).toContain("Um 530.");
    expect(served).not.toContain("Hier ist die Amphore.");
  });

  it("pretranslates the cues with the text, and a reset forgets them and their translated file", async () => {
    const s = await staffSession();
    const { articleId, src } = await articleWithVideo(s);
    const pre = await s.call("pretranslate", { articleId, langs: ["it"] });
    expect(pre.status).toBe(200);
    expect(pre.body.results).toEqual([{ lang: "it", status: "machine" }]);
    expect(await languages(s, articleId)).toMatchObject({ total: 4, languages: [{ lang: "it", segments: 4 }] });
    expect((await review(s, articleId, "it")).segments.every((x) => x.origin === "machine")).toBe(true);

    await s.call("update_translation", { articleId, lang: "it", segmentId: "e2.vtt.c1.0.0", text: "Ecco l'anfora." });
    expect(await vtt(src, "it")).toContain("Ecco l'anfora.");
    await vttCached(src, "it");
    const reset = await s.call("reset_translation", { articleId, lang: "it" });
    expect(reset.status).toBe(200);
    expect(reset.body.deleted).toBe(4);
    expect((await env.KV.list({ prefix: `vtt:v1:${src.slice("/media/".length)}:it` })).keys).toEqual([]);
    expect(await vtt(src, "it")).not.toContain("Ecco l'anfora.");
  });

  it("resetting every language forgets the cues too, their reviews and every translated subtitle file", async () => {
    const s = await staffSession();
    const { articleId, src } = await articleWithVideo(s);
    await vtt(src, "de");
    await vtt(src, "es");
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c1.0.0", text: "Hier ist die Amphore." })).status).toBe(200);
    await vtt(src, "de");
    await Promise.all([vttCached(src, "de"), vttCached(src, "es")]);
    const reset = await s.call("reset_traductions", { articleId });
    expect(reset.status).toBe(200);
    expect(reset.body.deleted).toBe(6); // three lines in German and in Spanish (the text was never viewed)
    expect((await env.KV.list({ prefix: `vtt:v1:${src.slice("/media/".length)}:` })).keys).toEqual([]);
    expect(await languages(s, articleId)).toMatchObject({ languages: [] });
    expect(await vtt(src, "de")).toContain("[de] Vóíçí l'ámphóré.");
  });

  it("counts a sentence said in the text and in a cue once, and a repeated cue at each place", async () => {
    const s = await staffSession();
    const file =
      "WEBVTT\n\n00:01.000 --> 00:02.000\nUne amphore attique.\n\n00:03.000 --> 00:04.000\nUne amphore attique.\n\n00:05.000 --> 00:06.000\n  💡 ‏שלום, κόσμε ‏ \n";
    const { articleId, src } = await articleWithVideo(s, file);
    await vtt(src, "de");
    const de = await review(s, articleId, "de");
    expect(de.segments.map((x) => x.id)).toEqual(["e1.content.0", "e2.vtt.c1.0.0", "e2.vtt.c2.0.0", "e2.vtt.c3.0.0"]);
    expect(de.segments[3]).toMatchObject({ source: "💡 ‏שלום, κόσμε ‏", cue: { start: "00:05.000", end: "00:06.000" } });
    expect(await languages(s, articleId)).toMatchObject({ total: 2, languages: [{ lang: "de", segments: 2 }] });
    // A correction of the cue is the museum's translation of that sentence everywhere, the text included.
    expect((await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c2.0.0", text: "Eine attische Amphore." })).status).toBe(200);
    expect((await review(s, articleId, "de")).segments.slice(0, 3).map((x) => x.text)).toEqual(Array(3).fill("Eine attische Amphore."));
  });

  it("refuses unknown and malformed cue ids, another museum's article, and another museum's subtitle file", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const { articleId, src } = await articleWithVideo(s);
    await vtt(src, "de");
    const call = (segmentId: unknown) => s.call("update_translation", { articleId, lang: "de", segmentId, text: "X" });
    expect(await call("e2.vtt.c9.0.0")).toMatchObject({ status: 404, body: { error: { code: "not_found", field: "segmentId" } } });
    for (const bad of ["e2.vtt.c1", "e2.vtt.1.0.0", "e2.vtt.c1.0.0.0", "e2.vtt.c1.0.0 ", "e2.VTT.c1.0.0", "e2.vtt.c１.0.0", 7, null]) {
      expect(await call(bad), String(bad)).toMatchObject({ status: 400, body: { error: { field: "segmentId" } } });
    }
    expect((await other.read(`/api/read/translation?articleId=${articleId}&lang=de`)).status).toBe(404);
    expect((await other.call("update_translation", { articleId, lang: "de", segmentId: "e2.vtt.c1.0.0", text: "X" })).status).toBe(404);

    // Another museum's subtitle address in an article is refused at the save (decision 114)…
    const foreign = await publishArticle(other, [{ type: "text", content: "Texte." }]);
    await expect(foreign.edit([{ type: "text", content: "Texte." }, video(src)])).rejects.toThrow(
      /400 .*"field":"newContent\.\d+\.subtitles".*"reason":"foreign_media"/,
    );
    // …and one already stored (content from before that rule, planted here) still gives no cues to review.
    const row = await env.DB.prepare("SELECT content FROM articles WHERE id = ?").bind(foreign.articleId).first<{ content: string }>();
    const planted = JSON.stringify([...(JSON.parse(row!.content) as unknown[]), video(src)]);
    await env.DB.prepare("UPDATE articles SET content = ?, published_content = ? WHERE id = ?").bind(planted, planted, foreign.articleId).run();
    await get(`/r/${foreign.link}?lang=de`);
    expect((await review(other, foreign.articleId, "de")).segments.map((x) => x.kind)).toEqual(["text"]);
  });
});
