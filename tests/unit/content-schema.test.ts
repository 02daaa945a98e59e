import { afterEach, describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import {
  ADDABLE_TYPES,
  articleContentSchema,
  CONTENT_MAX_BYTES,
  contentByteSize,
  contentElementSchema,
  newElement,
  newVideoId,
  parseStoredContent,
} from "~/content/schema";
import { safeLinkHref, safeMediaSrc } from "~/content/urls";
import { zodToDomainError } from "~/utils/zod-error";

const META = { type: "metadatas", url: "la-joconde", backgroundColor: "#341539" };

/** The field and reason the API would answer, or null when the value is accepted. */
function refusal(schema: z.ZodTypeAny, input: unknown) {
  const parsed = schema.safeParse(input);
  if (parsed.success) return null;
  const error = zodToDomainError(parsed.error);
  return { field: error.field, reason: error.reason };
}

const element = (input: object) => refusal(contentElementSchema, input);

afterEach(() => vi.restoreAllMocks());

describe("new elements take the spec's defaults", () => {
  it("offers the spec's seven types, in its order", () => {
    expect(ADDABLE_TYPES).toEqual(["text", "heading", "image", "link", "space", "accordion", "video", "legendItem"]);
  });

  it("text", () => {
    expect(newElement("text")).toEqual({
      type: "text",
      content: "",
      fontSize: 16,
      bold: false,
      italic: false,
      color: "#ffffff",
      size: 100,
      justify: "flex-start",
      align: "left",
    });
  });

  it("image, with an empty src", () => {
    expect(newElement("image")).toEqual({ type: "image", src: "", alt: "", size: 100, justify: "flex-start" });
  });

  it("video, with a random six-character id", () => {
    const video = newElement("video");
    expect(video).toMatchObject({ type: "video", src: "", subtitles: "", size: 100, justify: "flex-start" });
    expect(video.videoId).toMatch(/^[A-Za-z0-9]{6}$/);
    const ids = new Set(Array.from({ length: 200 }, () => newVideoId()));
    expect(ids.size).toBeGreaterThan(195);
  });

  it("space of 40 px", () => {
    expect(newElement("space")).toEqual({ type: "space", size: 40 });
  });

  it("link", () => {
    expect(newElement("link")).toEqual({
      type: "link",
      link: "",
      src: "",
      content: "",
      fontSize: 16,
      bold: false,
      italic: false,
      color: "#ffffff",
      size: 100,
      justify: "flex-start",
    });
  });

  it("legendItem, image 30 % wide and first", () => {
    expect(newElement("legendItem")).toMatchObject({ type: "legendItem", src: "", alt: "", width: 30, content: "", fontSize: 16, justify: "flex-start" });
  });

  it("accordion, with an empty header and one empty text detail", () => {
    expect(newElement("accordion")).toEqual({
      type: "accordion",
      header: { content: "", fontSize: 16, bold: false, italic: false, color: "#ffffff" },
      details: [newElement("text")],
    });
  });

  it("every new element passes the schema as it is", () => {
    for (const type of ADDABLE_TYPES) expect(articleContentSchema.safeParse([META, newElement(type)]).success, type).toBe(true);
  });

  it("fills defaults for a partial element sent to the API", () => {
    expect(contentElementSchema.parse({ type: "text", content: "Bonjour" })).toMatchObject({ content: "Bonjour", fontSize: 16, color: "#ffffff" });
    expect(contentElementSchema.parse({ type: "metadatas", url: "salle-1" })).toEqual({ type: "metadatas", url: "salle-1", backgroundColor: "#341539" });
  });
});

describe("limits", () => {
  it("size is an integer from 1 to 100", () => {
    expect(element({ type: "image", size: 0 })).toEqual({ field: "size", reason: "out_of_range" });
    expect(element({ type: "image", size: 1 })).toBeNull();
    expect(element({ type: "image", size: 100 })).toBeNull();
    expect(element({ type: "image", size: 101 })).toEqual({ field: "size", reason: "out_of_range" });
    expect(element({ type: "image", size: 50.5 })).toEqual({ field: "size", reason: "wrong_type" });
    expect(element({ type: "image", size: "50" })).toEqual({ field: "size", reason: "wrong_type" });
    expect(element({ type: "space", size: 0 })).toEqual({ field: "size", reason: "out_of_range" });
    expect(element({ type: "space", size: 100 })).toBeNull();
    expect(element({ type: "legendItem", width: 101 })).toEqual({ field: "width", reason: "out_of_range" });
  });

  it("fontSize is an integer from 1 to 100", () => {
    expect(element({ type: "text", fontSize: 0 })).toEqual({ field: "fontSize", reason: "out_of_range" });
    expect(element({ type: "text", fontSize: 1 })).toBeNull();
    expect(element({ type: "text", fontSize: 100 })).toBeNull();
    expect(element({ type: "link", fontSize: 101 })).toEqual({ field: "fontSize", reason: "out_of_range" });
    expect(element({ type: "accordion", header: { fontSize: 0 } })).toEqual({ field: "header.fontSize", reason: "out_of_range" });
  });

  it("colours are #rgb or #rrggbb", () => {
    for (const color of ["#fff", "#FFFFFF", "#1a2b3c"]) expect(element({ type: "text", color }), color).toBeNull();
    for (const color of ["fff", "#ffff", "#fffffff", "#ggg", "red", "#fff; background:url(x)", ""]) {
      expect(element({ type: "text", color }), color).toEqual({ field: "color", reason: "invalid" });
    }
    expect(element({ type: "metadatas", url: "a", backgroundColor: "purple" })).toEqual({ field: "backgroundColor", reason: "invalid" });
  });

  it("videoId is exactly six letters or digits", () => {
    expect(element({ type: "video", videoId: "aB3dE9" })).toBeNull();
    for (const videoId of ["aB3dE", "aB3dE9x", "aB3-E9", "ééé123"])
      expect(element({ type: "video", videoId }), videoId).toEqual({ field: "videoId", reason: "invalid" });
    expect(element({ type: "video" })).toEqual({ field: "videoId", reason: "required" });
  });

  it("justify and align take only their values", () => {
    for (const justify of ["flex-start", "center", "flex-end"]) expect(element({ type: "text", justify }), justify).toBeNull();
    expect(element({ type: "text", justify: "space-between" })).toEqual({ field: "justify", reason: "invalid" });
    expect(element({ type: "legendItem", justify: "flex-end" })).toBeNull();
    expect(element({ type: "legendItem", justify: "center" })).toEqual({ field: "justify", reason: "invalid" });
    expect(element({ type: "text", align: "justify" })).toEqual({ field: "align", reason: "invalid" });
  });

  it("caps text lengths and checks types", () => {
    expect(element({ type: "text", content: "a".repeat(20_000) })).toBeNull();
    expect(element({ type: "text", content: "a".repeat(20_001) })).toEqual({ field: "content", reason: "too_long" });
    expect(element({ type: "image", alt: "a".repeat(501) })).toEqual({ field: "alt", reason: "too_long" });
    expect(element({ type: "text", bold: "yes" })).toEqual({ field: "bold", reason: "wrong_type" });
    expect(element({ type: "text", content: 42 })).toEqual({ field: "content", reason: "wrong_type" });
  });

  it("the article url is a slug of 1 to 80 characters", () => {
    expect(element({ type: "metadatas", url: "salle-2-vitrine-3" })).toBeNull();
    expect(element({ type: "metadatas", url: "" })).toEqual({ field: "url", reason: "empty" });
    expect(element({ type: "metadatas", url: "a".repeat(81) })).toEqual({ field: "url", reason: "too_long" });
    for (const url of ["Salle", "salle 2", "salle_2", "é", "../x"])
      expect(element({ type: "metadatas", url }), url).toEqual({ field: "url", reason: "invalid" });
  });
});

describe("addresses", () => {
  it("links accept http, https, mailto and tel", () => {
    for (const link of ["https://musee.example/oeuvre?id=3", "http://example.org", "mailto:accueil@musee.fr", "tel:+33491000000", ""]) {
      expect(element({ type: "link", link }), link).toBeNull();
    }
  });

  it("links refuse javascript:, data:, vbscript:, relative addresses and control characters", () => {
    for (const link of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\nscript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "/admin",
      "//evil.example",
      "example.org",
      "ftp://example.org",
      "https://user:pass@example.org",
      "https://example.org/\u0000",
      "mailto:",
    ]) {
      expect(element({ type: "link", link }), JSON.stringify(link)).toEqual({ field: "link", reason: "unsafe_url" });
    }
    expect(element({ type: "link", link: `https://example.org/${"a".repeat(2048)}` })).toEqual({ field: "link", reason: "too_long" });
  });

  it("media come only from /media/", () => {
    for (const src of ["", "/media/abc123.jpg", "/media/images/abc.webp", "  /media/a.jpg  "]) {
      expect(element({ type: "image", src }), src).toBeNull();
    }
    for (const src of [
      "http://cdn.example.org/a.jpg",
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "/api/tree",
      "/media/",
      "/media/../api/tree",
      "/media/%2e%2e/api/tree",
      "/media/a b.jpg",
      "/media/a.jpg?x=1",
      "//evil.example/a.jpg",
      "media/a.jpg",
    ]) {
      expect(element({ type: "image", src }), src).toEqual({ field: "src", reason: "unsafe_url" });
    }
    expect(element({ type: "video", videoId: "abc123", subtitles: "javascript:x" })).toEqual({ field: "subtitles", reason: "unsafe_url" });
    expect(element({ type: "link", src: "data:image/png;base64,AAAA" })).toEqual({ field: "src", reason: "unsafe_url" });
    expect(element({ type: "legendItem", src: "http://a.example/x.png" })).toEqual({ field: "src", reason: "unsafe_url" });
  });

  // Decision 035: a safe address on another site is refused too, with its own reason, since the visitor
  // page's CSP (img-src/media-src 'self') would never show it.
  it("media on another site, even https:, are refused as external_media in every media field", () => {
    for (const src of [
      "https://cdn.example.org/a.jpg",
      "HTTPS://CDN.example.org/a.jpg",
      " https://cdn.example.org/a.jpg",
      "https://xn--mse-sna.example/é.png",
      "https://127.0.0.1/a.png",
    ]) {
      expect(element({ type: "image", src }), src).toEqual({ field: "src", reason: "external_media" });
    }
    expect(element({ type: "video", videoId: "abc123", src: "https://v.example/a.mp4" })).toEqual({ field: "src", reason: "external_media" });
    expect(element({ type: "video", videoId: "abc123", subtitles: "https://v.example/a.vtt" })).toEqual({ field: "subtitles", reason: "external_media" });
    expect(element({ type: "link", link: "https://ok.example/", src: "https://img.example/a.png" })).toEqual({ field: "src", reason: "external_media" });
    expect(element({ type: "legendItem", src: "https://img.example/a.png" })).toEqual({ field: "src", reason: "external_media" });
    expect(
      refusal(articleContentSchema, [META, { type: "accordion", details: [{ type: "text" }, { type: "image", src: "https://img.example/a.png" }] }]),
    ).toEqual({
      field: "1.details.1.src",
      reason: "external_media",
    });
    // Unsafe stays unsafe, whatever the host.
    expect(element({ type: "image", src: "https://user:pw@img.example/a.png" })).toEqual({ field: "src", reason: "unsafe_url" });
  });

  it("stored content with an address on another site still reads, the address dropped", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const stored = parseStoredContent(JSON.stringify([META, { type: "image", src: "https://img.example/a.png", alt: "Une amphore" }]));
    expect(stored[1]).toMatchObject({ type: "image", src: "", alt: "Une amphore" });
    expect(warn).toHaveBeenCalledOnce();
  });

  it("the render-time checks return the address to use", () => {
    expect(safeLinkHref("HTTPS://Example.org")).toBe("https://example.org/");
    expect(safeLinkHref("javascript:alert(1)")).toBeNull();
    expect(safeLinkHref(42)).toBeNull();
    expect(safeMediaSrc("/media/a.jpg")).toBe("/media/a.jpg");
    expect(safeMediaSrc("/media/a\\..\\..\\api")).toBeNull();
  });
});

describe("the element list", () => {
  it("refuses an unknown type with reason invalid", () => {
    expect(element({ type: "iframe", src: "https://x.example" })).toEqual({ field: "type", reason: "invalid" });
    expect(element({ content: "no type" })).toEqual({ field: "type", reason: "invalid" });
    expect(refusal(articleContentSchema, [META, { type: "script" }])).toEqual({ field: "1.type", reason: "invalid" });
    expect(refusal(articleContentSchema, [META, "text"])).toEqual({ field: "1", reason: "wrong_type" });
  });

  it("wants one metadatas, first", () => {
    expect(refusal(articleContentSchema, [META])).toBeNull();
    expect(refusal(articleContentSchema, [])).toEqual({ field: undefined, reason: "invalid" });
    expect(refusal(articleContentSchema, [{ type: "text" }])).toEqual({ field: "0.type", reason: "invalid" });
    expect(refusal(articleContentSchema, [{ type: "text" }, META])).toEqual({ field: "0.type", reason: "invalid" });
    expect(refusal(articleContentSchema, [META, { type: "text" }, META])).toEqual({ field: "2.type", reason: "invalid" });
    expect(refusal(articleContentSchema, { 0: META })).toEqual({ field: undefined, reason: "wrong_type" });
  });

  it("holds at most 500 elements", () => {
    const space = { type: "space" };
    expect(refusal(articleContentSchema, [META, ...Array(499).fill(space)])).toBeNull();
    expect(refusal(articleContentSchema, [META, ...Array(500).fill(space)])).toEqual({ field: undefined, reason: "too_many" });
  });

  it("strips keys the model does not know", () => {
    expect(contentElementSchema.parse({ type: "space", size: 10, onclick: "x" })).toEqual({ type: "space", size: 10 });
  });
});

describe("accordion details", () => {
  const accordion = (details: unknown[]) => element({ type: "accordion", header: { content: "Plus" }, details });

  it("hold text, image, space, link and legendItem", () => {
    expect(accordion([{ type: "text" }, { type: "image" }, { type: "space" }, { type: "link" }, { type: "legendItem" }])).toBeNull();
    expect(accordion([])).toBeNull();
  });

  it("refuse a nested accordion, a video and a metadatas", () => {
    expect(accordion([{ type: "text" }, { type: "accordion" }])).toEqual({ field: "details.1.type", reason: "invalid" });
    expect(accordion([{ type: "video", videoId: "abc123" }])).toEqual({ field: "details.0.type", reason: "invalid" });
    expect(accordion([META])).toEqual({ field: "details.0.type", reason: "invalid" });
  });

  it("check each detail's fields and count", () => {
    expect(accordion([{ type: "link", link: "javascript:alert(1)" }])).toEqual({ field: "details.0.link", reason: "unsafe_url" });
    expect(accordion(Array(100).fill({ type: "space" }))).toBeNull();
    expect(accordion(Array(101).fill({ type: "space" }))).toEqual({ field: "details", reason: "too_many" });
  });
});

describe("contentByteSize", () => {
  it("counts UTF-8 bytes of the stored JSON", () => {
    expect(CONTENT_MAX_BYTES).toBe(262_144);
    expect(contentByteSize([])).toBe(2);
    expect(contentByteSize(["é"])).toBe(6);
    expect(contentByteSize(["😀"])).toBe(8);
  });

  it("tells a content over 256 KB that still passes every element rule", () => {
    const big = [META, ...Array.from({ length: 14 }, () => ({ ...newElement("text"), content: "é".repeat(10_000) }))];
    expect(articleContentSchema.safeParse(big).success).toBe(true);
    expect(contentByteSize(big)).toBeGreaterThan(CONTENT_MAX_BYTES);
  });
});

describe("parseStoredContent", () => {
  const quiet = () => vi.spyOn(console, "warn").mockImplementation(() => {});

  it("returns valid content as it is, without a warning", () => {
    const warn = quiet();
    const content = [META, newElement("text"), newElement("accordion")];
    expect(parseStoredContent(JSON.stringify(content))).toEqual(content);
    expect(warn).not.toHaveBeenCalled();
  });

  it("gives an empty article for unparsable or non-list JSON", () => {
    const warn = quiet();
    expect(parseStoredContent("{not json", "salle-3")).toEqual([{ type: "metadatas", url: "salle-3", backgroundColor: "#341539" }]);
    expect(parseStoredContent('{"content": []}', "salle-3")).toHaveLength(1);
    expect(parseStoredContent("null")).toEqual([{ type: "metadatas", url: "article", backgroundColor: "#341539" }]);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it("puts a metadatas first when it is missing or misplaced, and drops extra ones", () => {
    quiet();
    expect(parseStoredContent(JSON.stringify([{ type: "space" }]), "a")).toEqual([
      { type: "metadatas", url: "a", backgroundColor: "#341539" },
      { type: "space", size: 40 },
    ]);
    const moved = parseStoredContent(JSON.stringify([{ type: "space" }, { ...META, backgroundColor: "#000" }, META]));
    expect(moved).toEqual([
      { ...META, backgroundColor: "#000" },
      { type: "space", size: 40 },
    ]);
  });

  it("mends the article url from the row's slug", () => {
    quiet();
    expect(parseStoredContent(JSON.stringify([{ type: "metadatas", url: "" }]), "nouvel-article-2")[0]).toEqual({
      type: "metadatas",
      url: "nouvel-article-2",
      backgroundColor: "#341539",
    });
    expect(parseStoredContent(JSON.stringify([{ type: "metadatas", url: "Salle Égypte", backgroundColor: "violet" }]))[0]).toEqual({
      type: "metadatas",
      url: "salle-egypte",
      backgroundColor: "#341539",
    });
  });

  it("drops unknown, nested and unmendable elements and keeps the rest", () => {
    const warn = quiet();
    const stored = [
      META,
      { type: "iframe", src: "https://x.example" },
      "text",
      null,
      { type: "text", content: "Gardé" },
      { type: "accordion", header: "Titre", details: [{ type: "accordion" }, { type: "video", videoId: "abc123" }, { type: "text", content: "Dedans" }] },
    ];
    const content = parseStoredContent(JSON.stringify(stored));
    expect(content.map((element) => element.type)).toEqual(["metadatas", "text", "accordion"]);
    const accordion = content[2];
    expect(accordion?.type === "accordion" && accordion.header.content).toBe("Titre");
    expect(accordion?.type === "accordion" && accordion.details.map((detail) => detail.type)).toEqual(["text"]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain("dropped element 1 (iframe)");
  });

  it("mends legacy fields: numbers as strings, out of range, bad colours and links, long text", () => {
    quiet();
    const stored = [
      META,
      { type: "text", content: "a".repeat(20_010), fontSize: "18", size: 150, bold: "true", color: "white", justify: "middle" },
      { type: "link", link: "javascript:alert(1)", content: "Clic", fontSize: 0 },
      { type: "video", src: "/media/v.mp4", videoId: "bad" },
      { type: "legendItem", src: "http://insecure.example/a.png", width: 30.6, justify: "center" },
      { type: "space", size: "abc" },
    ];
    const [, text, link, video, legend, space] = parseStoredContent(JSON.stringify(stored));
    expect(text).toMatchObject({ fontSize: 18, size: 100, bold: true, color: "#ffffff", justify: "flex-start" });
    expect(text?.type === "text" && text.content.length).toBe(20_000);
    expect(link).toMatchObject({ link: "", content: "Clic", fontSize: 1 });
    expect(video).toMatchObject({ src: "/media/v.mp4" });
    expect(video?.type === "video" && video.videoId).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(legend).toMatchObject({ src: "", width: 31, justify: "flex-start" });
    expect(space).toEqual({ type: "space", size: 40 });
  });

  it("always returns content the schema accepts", () => {
    quiet();
    const stored = [{ type: "text", fontSize: NaN }, ...Array(600).fill({ type: "space", size: -4 })];
    const content = parseStoredContent(JSON.stringify(stored), "x");
    expect(content).toHaveLength(500);
    expect(articleContentSchema.safeParse(content).success).toBe(true);
  });
});
