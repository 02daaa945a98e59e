import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { contrastRatio, isLargeText, readableColor } from "~/content/contrast";
import { ArticleContentView } from "~/content/render";
import { newElement, type ContentElement } from "~/content/schema";

describe("contrast", () => {
  it("computes WCAG ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#fff", "#fff")).toBeCloseTo(1, 5);
    expect(contrastRatio("#767676", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
  });

  it("knows large text", () => {
    expect(isLargeText(24, false)).toBe(true);
    expect(isLargeText(23, false)).toBe(false);
    expect(isLargeText(19, true)).toBe(true);
    expect(isLargeText(18, true)).toBe(false);
  });

  it("keeps a readable colour and replaces an unreadable one by black or white", () => {
    expect(readableColor("#ffffff", "#341539", 16, false)).toBe("#ffffff");
    expect(readableColor("#ff0000", "#341539", 16, false)).toBe("#ffffff");
    expect(readableColor("#ffff00", "#ffffff", 16, false)).toBe("#000000");
    // 3:1 is enough for large text: #888 on white is 3.54.
    expect(readableColor("#888888", "#ffffff", 24, false)).toBe("#888888");
    expect(readableColor("#888888", "#ffffff", 16, false)).toBe("#000000");
    expect(readableColor("nonsense", "#ffffff", 16, false)).toBe("nonsense");
  });

  it("the renderer applies it against the article's background", () => {
    const content = [
      { type: "metadatas", url: "pale", backgroundColor: "#fafafa" },
      { ...newElement("text"), content: "Pâle", color: "#eeeeee" },
    ] as ContentElement[];
    const html = renderToStaticMarkup(createElement(ArticleContentView, { content }));
    expect(html).toContain("color:#000000");
    expect(html).not.toContain("color:#eeeeee");
  });
});
