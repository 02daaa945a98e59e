import { describe, expect, it } from "vitest";
import { clampInteger, isCompleteNumber, isInvalidLink, moveUp, parseHexColor, removeAt, toColorInputValue } from "~/components/editor/field-values";

describe("editor field values", () => {
  it("clamps numbers to the limits, rounds, and never gives NaN", () => {
    expect(clampInteger("50", 1, 100, 16)).toBe(50);
    expect(clampInteger("0", 1, 100, 16)).toBe(1);
    expect(clampInteger("-5", 1, 100, 16)).toBe(1);
    expect(clampInteger("250", 1, 100, 16)).toBe(100);
    expect(clampInteger("12.6", 1, 100, 16)).toBe(13);
    expect(clampInteger("", 1, 100, 16)).toBe(16);
    expect(clampInteger("-", 1, 100, 16)).toBe(16);
    expect(clampInteger("1e999", 1, 100, 16)).toBe(16);
    expect(clampInteger("abc", 1, 100, 500)).toBe(100);
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
