import { describe, expect, it } from "vitest";
import { articleContentSchema } from "~/content/schema";
import { articleSegments, segmentHash } from "~/translation/segments";

describe("articleSegments", () => {
  it("lists every visitor-visible string once, in content order, and no style or address", () => {
    const content = articleContentSchema.parse([
      { type: "metadatas", url: "amphore" },
      { type: "text", content: "Une amphore." },
      { type: "image", src: "/media/m/1/image/a.webp", alt: "Vue de face" },
      { type: "link", link: "https://example.org", content: "Le site" },
      { type: "legendItem", src: "", alt: "Détail", content: "Anse" },
      { type: "space" },
      { type: "accordion", header: { content: "Plus" }, details: [{ type: "text", content: "Une amphore." }, { type: "text", content: "   " }] },
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
