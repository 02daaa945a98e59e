import { describe, expect, it } from "vitest";
import { cardSummary, fileFormat, firstWords, styleDiffers, SUMMARY_MAX_CHARS } from "~/components/editor/card-summary";
import { duplicateItem, moveItemTo, type Item } from "~/components/editor/editor-state";
import { newElement } from "~/content/schema";

const items = (...words: string[]): Item[] => words.map((content, i) => ({ key: `k${i}`, element: { ...newElement("text"), content } }));
const contents = (list: Item[]) => list.map((item) => (item.element.type === "text" ? item.element.content : item.element.type));

describe("a card's one-line summary", () => {
  it("keeps a short text whole and folds its whitespace onto one line", () => {
    expect(firstWords("  L'amphore\n\tà deux\u00a0anses  ")).toBe("L'amphore à deux anses");
    expect(firstWords("")).toBe("");
  });

  it("cuts a long text at a word, with an ellipsis, within the limit", () => {
    const long = "Dans l'Antiquité, l'amphore est le conteneur de tous les échanges en Méditerranée : vin, huile d'olive.";
    const line = firstWords(long);
    expect(line).toBe("Dans l'Antiquité, l'amphore est le conteneur de tous les échanges en…");
    expect(Array.from(line).length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS + 1);
  });

  it("cuts a text without spaces by characters, never inside an emoji or a surrogate pair", () => {
    const line = firstWords("🏺".repeat(100), 10);
    expect(line).toBe(`${"🏺".repeat(10)}…`);
    expect(firstWords("x".repeat(200), 10)).toBe(`${"x".repeat(10)}…`);
  });

  it("says what each type holds", () => {
    expect(cardSummary({ ...newElement("text"), content: "Un texte" })).toEqual({ text: "Un texte", thumb: null });
    expect(cardSummary({ ...newElement("image"), src: "/media/m/a.png", alt: "Une amphore" })).toEqual({ text: "Une amphore", thumb: "/media/m/a.png" });
    expect(cardSummary({ ...newElement("legendItem"), src: "/media/m/b.png", alt: "Alt", content: "" })).toEqual({ text: "Alt", thumb: "/media/m/b.png" });
    expect(cardSummary({ ...newElement("link"), link: "https://example.org/", content: "" }).text).toBe("https://example.org/");
    expect(cardSummary({ ...newElement("link"), link: "https://example.org/", content: "En savoir plus" }).text).toBe("En savoir plus");
    expect(cardSummary({ type: "space", size: 24 })).toEqual({ text: "", thumb: null, height: 24 });
    expect(cardSummary({ ...newElement("accordion"), header: { ...newElement("accordion").header, content: "Plus" } })).toEqual({
      text: "Plus",
      thumb: null,
      count: 1,
    });
    // A type added later with words in `content` (a heading) reads like a text.
    expect(cardSummary({ type: "heading", level: 2, content: "Un titre" }).text).toBe("Un titre");
  });

  it("names a video by its kind of file, never by its storage path", () => {
    expect(cardSummary({ ...newElement("video"), src: "/media/m/1/video/3f2a9c.mp4", subtitles: "/media/m/1/subtitles/x.vtt" }).video).toEqual({
      format: "MP4",
      subtitles: true,
    });
    expect(cardSummary(newElement("video")).video).toEqual({ format: null, subtitles: false });
    expect(fileFormat("/media/m/x.webm?v=2")).toBe("WEBM");
    expect(fileFormat("/media/m/noextension")).toBeNull();
  });
});

describe("whether an element's style differs from the defaults", () => {
  it("is false for every new element and true once a value changes", () => {
    for (const type of ["text", "image", "link", "legendItem", "video"] as const) expect(styleDiffers(newElement(type)), type).toBe(false);
    expect(styleDiffers(newElement("accordion").header)).toBe(false);
    expect(styleDiffers({ ...newElement("text"), bold: true })).toBe(true);
    expect(styleDiffers({ ...newElement("text"), fontSize: 26 })).toBe(true);
    expect(styleDiffers({ ...newElement("text"), align: "center" })).toBe(true);
    expect(styleDiffers({ ...newElement("image"), justify: "center" })).toBe(true);
    expect(styleDiffers({ ...newElement("image"), size: 60 })).toBe(true);
  });

  it("compares colours as colours and ignores what is not style", () => {
    expect(styleDiffers({ ...newElement("text"), color: "#FFF" })).toBe(false);
    expect(styleDiffers({ ...newElement("text"), color: "#FFFFFF" })).toBe(false);
    expect(styleDiffers({ ...newElement("text"), color: "#fffffe" })).toBe(true);
    expect(styleDiffers({ ...newElement("text"), content: "changed words" })).toBe(false);
    expect(styleDiffers({})).toBe(false);
  });

  it("takes other defaults for a type that starts elsewhere", () => {
    expect(styleDiffers({ fontSize: 24, bold: true }, { fontSize: 24, bold: true })).toBe(false);
    expect(styleDiffers({ fontSize: 16, bold: true }, { fontSize: 24, bold: true })).toBe(true);
  });
});

describe("moving and duplicating cards", () => {
  it("moves an element to any position, and refuses positions outside the list", () => {
    const list = items("a", "b", "c", "d");
    expect(contents(moveItemTo(list, 0, 2))).toEqual(["b", "c", "a", "d"]);
    expect(contents(moveItemTo(list, 3, 0))).toEqual(["d", "a", "b", "c"]);
    expect(moveItemTo(list, 1, 1)).toBe(list);
    expect(moveItemTo(list, -1, 2)).toBe(list);
    expect(moveItemTo(list, 0, 4)).toBe(list);
    expect(contents(list)).toEqual(["a", "b", "c", "d"]);
  });

  it("places a copy right after the original, under a new key, sharing nothing", () => {
    const list: Item[] = items("a", "b", "c").map((item, i) => (i === 1 ? { key: "acc", element: newElement("accordion") } : item));
    const next = duplicateItem(list, 1, "copy");
    expect(next.map((i) => i.key)).toEqual(["k0", "acc", "copy", "k2"]);
    expect(next[2]!.element).toEqual(list[1]!.element);
    expect(next[2]!.element).not.toBe(list[1]!.element);
    const copy = next[2]!.element;
    if (copy.type !== "accordion") throw new Error("expected an accordion");
    copy.details.push(newElement("space"));
    expect((list[1]!.element as typeof copy).details).toHaveLength(1);
    expect(duplicateItem(list, 9, "x")).toBe(list);
  });

  it("gives a copied video an id of its own, keeping its files", () => {
    const video = { ...newElement("video"), src: "/media/m/v.mp4" };
    const [original, copy] = duplicateItem([{ key: "v", element: video }], 0, "v2");
    if (original?.element.type !== "video" || copy?.element.type !== "video") throw new Error("expected videos");
    expect(copy.element.videoId).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(copy.element.videoId).not.toBe(original.element.videoId);
    expect(copy.element.src).toBe("/media/m/v.mp4");
  });
});
