import { describe, expect, it } from "vitest";
import { articleContentSchema } from "~/content/schema";
import { articleSegments, mapSegments, mapVtt, segmentHash, vttSegments } from "~/translation/segments";

describe("articleSegments", () => {
  it("lists every visitor-visible string once, in content order, and no style or address", () => {
    const content = articleContentSchema.parse([
      { type: "metadatas", url: "amphore" },
      { type: "text", content: "Une amphore." },
      { type: "image", src: "/media/m/1/image/a.webp", alt: "Vue de face" },
      { type: "link", link: "https://example.org", content: "Le site" },
      { type: "legendItem", src: "", alt: "Détail", content: "Anse" },
      { type: "space" },
      {
        type: "accordion",
        header: { content: "Plus" },
        details: [
          { type: "text", content: "Une amphore." },
          { type: "text", content: "   " },
        ],
      },
    ]);
    expect(articleSegments(content)).toEqual(["Une amphore.", "Vue de face", "Le site", "Anse", "Détail", "Plus"]);
  });

  it("treats NFC and NFD spellings as one segment with one hash", async () => {
    const content = articleContentSchema.parse([
      { type: "metadatas", url: "ete" },
      { type: "text", content: "Été" },
      { type: "text", content: "E\u0301te\u0301" },
    ]);
    expect(articleSegments(content)).toEqual(["Été"]);
    expect(await segmentHash("E\u0301te\u0301")).toBe(await segmentHash("Été"));
    expect(await segmentHash("Été")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("line segments, mapping and subtitles", () => {
  it("splits multi-line texts into lines and rebuilds them with their breaks and spaces", () => {
    const content = articleContentSchema.parse([
      { type: "metadatas", url: "vase" },
      { type: "text", content: "  Première ligne.\r\nDeuxième ligne.\n\n\nTroisième.  " },
    ]);
    expect(articleSegments(content)).toEqual(["Première ligne.", "Deuxième ligne.", "Troisième."]);
    const mapped = mapSegments(content, (s) => s.toUpperCase());
    expect(mapped[1]).toMatchObject({ content: "  PREMIÈRE LIGNE.\nDEUXIÈME LIGNE.\n\n\nTROISIÈME.  " });
  });

  it("maps every text-bearing field of every element type and nothing else", () => {
    const content = articleContentSchema.parse([
      { type: "metadatas", url: "tout", backgroundColor: "#123456" },
      { type: "text", content: "texte", color: "#abcdef" },
      { type: "image", src: "/media/m/1/image/a.webp", alt: "alt image" },
      { type: "video", src: "/media/m/1/video/v.mp4", subtitles: "/media/m/1/subtitles/s.vtt", videoId: "abc123" },
      { type: "space" },
      { type: "link", link: "https://example.org/x", content: "libellé", src: "/media/m/1/image/b.webp" },
      { type: "legendItem", src: "/media/m/1/image/c.webp", alt: "alt légende", content: "légende" },
      {
        type: "accordion",
        header: { content: "titre" },
        details: [
          { type: "text", content: "détail" },
          { type: "image", src: "", alt: "alt détail" },
        ],
      },
    ]);
    const mapped = mapSegments(content, (s) => `«${s}»`);
    expect(articleSegments(content)).toEqual(["texte", "alt image", "libellé", "légende", "alt légende", "titre", "détail", "alt détail"]);
    const json = JSON.stringify(mapped);
    for (const kept of ["https://example.org/x", "/media/m/1/image/a.webp", "#123456", "#abcdef", "abc123", "/media/m/1/subtitles/s.vtt", '"url":"tout"']) {
      expect(json).toContain(kept);
    }
    for (const segment of articleSegments(content)) expect(json).toContain(`«${segment}»`);
  });

  it("translates WebVTT cue text only", () => {
    const vtt =
      "\uFEFFWEBVTT\n\nNOTE a comment\n\n1\n00:00:01.000 --> 00:00:03.000\nBonjour.\nDeux lignes.\n\nSTYLE\n::cue { color: red }\n\n00:00:04.000 --> 00:00:05.000 align:start\n  Au revoir.\n";
    expect(vttSegments(vtt)).toEqual(["Bonjour.", "Deux lignes.", "Au revoir."]);
    const out = mapVtt(vtt, (s) => `[de] ${s}`);
    expect(out).toBe(
      "WEBVTT\n\nNOTE a comment\n\n1\n00:00:01.000 --> 00:00:03.000\n[de] Bonjour.\n[de] Deux lignes.\n\nSTYLE\n::cue { color: red }\n\n00:00:04.000 --> 00:00:05.000 align:start\n  [de] Au revoir.\n",
    );
  });
});
