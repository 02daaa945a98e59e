import { describe, expect, it } from "vitest";
import {
  isCompleteNumber,
  isInvalidLink,
  normaliseLink,
  numberProblem,
  readNumber,
  moveUp,
  parseHexColor,
  removeAt,
  toColorInputValue,
} from "~/components/editor/field-values";

describe("editor field values", () => {
  it("reads finished numbers as typed, out of range or not, and never gives NaN", () => {
    expect(readNumber("50")).toBe(50);
    expect(readNumber(" 250 ")).toBe(250);
    expect(readNumber("-5")).toBe(-5);
    expect(readNumber("12.6")).toBe(12.6);
    expect(readNumber("")).toBeNull();
    expect(readNumber("-")).toBeNull();
    expect(readNumber("1e999")).toBeNull();
    expect(readNumber("abc")).toBeNull();
    expect(readNumber("9".repeat(400))).toBeNull();
  });

  it("says what is wrong with a number instead of clamping it", () => {
    expect(numberProblem(16, 1, 100)).toBeNull();
    expect(numberProblem(1, 1, 100)).toBeNull();
    expect(numberProblem(100, 1, 100)).toBeNull();
    expect(numberProblem(0, 1, 100)).toBe("out_of_range");
    expect(numberProblem(250, 1, 100)).toBe("out_of_range");
    expect(numberProblem(12.5, 1, 100)).toBe("not_whole");
    expect(numberProblem(Number.NaN, 1, 100)).toBe("not_whole");
  });

  it("completes a link typed without its scheme, and leaves anything else for the field to refuse", () => {
    expect(normaliseLink("example.org")).toBe("https://example.org");
    expect(normaliseLink("  www.louvre.fr/fr/visite?x=1#plan ")).toBe("https://www.louvre.fr/fr/visite?x=1#plan");
    expect(normaliseLink("//example.org/a")).toBe("https://example.org/a");
    expect(normaliseLink("info@musee.fr")).toBe("mailto:info@musee.fr");
    expect(normaliseLink("musée.fr")).toMatch(/^https:\/\/(xn--muse-dma\.fr|musée\.fr)\/?$/);
    expect(normaliseLink("localhost:8080")).toBe("localhost:8080");
    // Already valid: unchanged (not even re-encoded), only trimmed.
    expect(normaliseLink(" https://example.org/a b ")).toBe("https://example.org/a b");
    expect(normaliseLink("mailto:a@b.fr")).toBe("mailto:a@b.fr");
    // Not addresses, or unsafe: left as typed so the field says so.
    for (const raw of [
      "javascript:alert(1)",
      "hello",
      "example",
      "a b.org",
      "1.2",
      "",
      "   ",
      "ftp://example.org",
      "user:pw@example.org",
      "\u202eexample.org",
    ]) {
      expect(normaliseLink(raw)).toBe(raw.trim());
    }
  });

  it("sends a number while typing only when it is complete", () => {
    expect(isCompleteNumber("12")).toBe(true);
    expect(isCompleteNumber("-3")).toBe(true);
    expect(isCompleteNumber("")).toBe(false);
    expect(isCompleteNumber("-")).toBe(false);
    expect(isCompleteNumber("1e")).toBe(false);
  });

  it("turns colours into what <input type=color> takes", () => {
    expect(toColorInputValue("#ABC")).toBe("#aabbcc");
    expect(toColorInputValue("#341539")).toBe("#341539");
    expect(toColorInputValue("red")).toBe("#000000");
  });

  it("reads a typed hex code, adding a forgotten #", () => {
    expect(parseHexColor("#FFF")).toBe("#fff");
    expect(parseHexColor(" 341539 ")).toBe("#341539");
    expect(parseHexColor("#12345")).toBeNull();
    expect(parseHexColor("")).toBeNull();
  });

  it("flags link targets the schema refuses, but not an empty one", () => {
    expect(isInvalidLink("")).toBe(false);
    expect(isInvalidLink("https://louvre.fr")).toBe(false);
    expect(isInvalidLink(" mailto:accueil@musee.fr ")).toBe(false);
    expect(isInvalidLink("tel:+33123456789")).toBe(false);
    expect(isInvalidLink("javascript:alert(1)")).toBe(true);
    expect(isInvalidLink("louvre.fr")).toBe(true);
    expect(isInvalidLink("https://user:pw@louvre.fr")).toBe(true);
  });

  it("moves an item up, never the first, and removes one", () => {
    expect(moveUp(["a", "b", "c"], 2)).toEqual(["a", "c", "b"]);
    expect(moveUp(["a", "b", "c"], 0)).toEqual(["a", "b", "c"]);
    expect(moveUp(["a", "b"], 5)).toEqual(["a", "b"]);
    expect(removeAt(["a", "b", "c"], 1)).toEqual(["a", "c"]);
  });
});
