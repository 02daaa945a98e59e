import { describe, expect, it } from "vitest";
import { mapVtt, vttCueEntries } from "~/translation/segments";
import { articleCatalogue } from "~/translation/catalogue.server";
import type { ArticleContent } from "~/content/schema";

const VTT =
  "\uFEFFWEBVTT\r\n\r\nNOTE a note\r\n\r\n1\r\n00:00:01.000 --> 00:00:04.000 align:start\r\nBonjour.\r\nBienvenue au musée.\r\n\r\n00:00:05.500 --> 00:00:07.000\r\n  Au revoir.  \r\n";

describe("vttCueEntries", () => {
  it("lists each cue line with its timings and the id mapVtt gives it", () => {
    const cues = vttCueEntries(VTT);
    expect(cues).toEqual([
      { id: "c2.0.0", source: "Bonjour.", start: "00:00:01.000", end: "00:00:04.000" },
      { id: "c2.1.0", source: "Bienvenue au musée.", start: "00:00:01.000", end: "00:00:04.000" },
      { id: "c3.0.0", source: "Au revoir.", start: "00:00:05.500", end: "00:00:07.000" },
    ]);
    const ids: string[] = [];
    mapVtt(VTT, (segment, id) => (ids.push(id), segment));
    expect(ids).toEqual(cues.map((c) => c.id));
  });

  it("has no cues in a file without timings", () => {
    expect(vttCueEntries("WEBVTT\n\nNOTE only\n")).toEqual([]);
  });
});

describe("articleCatalogue", () => {
  const content = [
    { type: "text", content: "Un tableau.\n\nSa toile." },
    { type: "video", src: "/media/v.mp4", subtitles: "/media/s.vtt", videoId: "abc123" },
    { type: "image", src: "/media/i.jpg", alt: "Une toile" },
  ] as unknown as ArticleContent;

  it("puts a video's cues after its element's segments, with kind, hash and timings", async () => {
    const entries = await articleCatalogue(content, async (src) => (src === "/media/s.vtt" ? VTT : null));
    expect(entries.map((e) => [e.id, e.kind, e.element])).toEqual([
      ["e0.content.0", "text", 0],
      ["e0.content.2", "text", 0],
      ["e1.vtt.c2.0.0", "subtitle", 1],
      ["e1.vtt.c2.1.0", "subtitle", 1],
      ["e1.vtt.c3.0.0", "subtitle", 1],
      ["e2.alt.0", "alt", 2],
    ]);
    expect(entries[2]?.cue).toEqual({ start: "00:00:01.000", end: "00:00:04.000", file: "/media/s.vtt" });
    expect(entries[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("leaves out a subtitle file it cannot read", async () => {
    const entries = await articleCatalogue(content, async () => null);
    expect(entries.some((e) => e.kind === "subtitle")).toBe(false);
  });
});
