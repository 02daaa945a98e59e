import { describe, expect, it } from "vitest";
import { articleContentSchema, type ArticleContent, type ArticleContentInput } from "~/content/schema";
import { diffContents, diffText, sideOf, TEXT_CELLS_MAX, TOTAL_CELLS_MAX, tokenize, type ElementDiff, type TextPart } from "~/publishing/diff";

const content = (elements: ArticleContentInput) => articleContentSchema.parse([{ type: "metadatas", url: "a" }, ...elements]) as ArticleContent;
const ins = (parts: TextPart[]) => parts.filter((p) => p.op === "ins").map((p) => p.text);
const del = (parts: TextPart[]) => parts.filter((p) => p.op === "del").map((p) => p.text);

function expectSides(before: string, after: string) {
  const { parts } = diffText(before, after);
  expect(sideOf(parts, "before")).toBe(before);
  expect(sideOf(parts, "after")).toBe(after);
  return parts;
}

describe("tokenize", () => {
  it("gives the text back and keeps combining accents on their letter", () => {
    const text = "Cafe\u0301 cre\u0300me, s'il vous plaît!";
    expect(tokenize(text).join("")).toBe(text);
    expect(tokenize(text)).toContain("Cafe\u0301");
    expect(tokenize(text)).toContain("cre\u0300me");
  });

  it("splits CJK per character and keeps emoji sequences whole", () => {
    expect(tokenize("東京国立博物館")).toEqual(["東", "京", "国", "立", "博", "物", "館"]);
    expect(tokenize("ありがとう")).toHaveLength(5);
    const family = "👩‍👩‍👧‍👦";
    expect(tokenize(`a ${family} 🇫🇷 b`)).toEqual(["a", " ", family, " ", "🇫🇷", " ", "b"]);
  });

  it("keeps Arabic and Hebrew words whole", () => {
    expect(tokenize("متحف اللوفر")).toEqual(["متحف", " ", "اللوفر"]);
    expect(tokenize("מוזיאון ישראל")).toEqual(["מוזיאון", " ", "ישראל"]);
  });
});

describe("diffText", () => {
  it("marks the words added and removed", () => {
    const parts = expectSides("The quick brown fox jumps", "The slow brown fox leaps high");
    expect(del(parts)).toEqual(["quick", "jumps"]);
    expect(ins(parts)).toEqual(["slow", "leaps high"]);
  });

  it("tells a changed accent apart (precomposed and combining stay distinct words)", () => {
    const parts = expectSides("Le musée ouvre", "Le muse\u0301e ouvre");
    expect(del(parts)).toEqual(["musée"]);
    expect(ins(parts)).toEqual(["muse\u0301e"]);
  });

  it("diffs CJK text by character", () => {
    const parts = expectSides("东京国立博物馆", "京都国立博物馆");
    expect(parts.filter((p) => p.op === "same").map((p) => p.text)).toContain("国立博物馆");
    expect(ins(parts).join("")).toContain("都");
  });

  it("diffs right-to-left text and emoji", () => {
    const parts = expectSides("مرحبا بكم في المتحف 🎨", "مرحبا بكم في المعرض 🖼️");
    expect(del(parts).join("")).toContain("المتحف");
    expect(ins(parts).join("")).toContain("المعرض");
    expect(ins(parts).join("")).toContain("🖼️");
    expect(parts.some((p) => p.op === "same" && p.text.includes("مرحبا بكم في"))).toBe(true);
  });

  it("gives each side back for random texts (property)", () => {
    const alphabet = ["a", "b", " ", "é", "e\u0301", "日", "本", "👍🏽", "\n", "ש", ",", "🇯🇵"];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () => Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    for (let run = 0; run < 300; run++) expectSides(word(), word());
  });

  // How long these take is measured by `npm run bench` (tests/bench/pure-timings.test.ts); here, the work done.
  it("replaces a long text whole instead of comparing it word by word past the bound", () => {
    const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
    const before = words("a", 3000);
    const after = words("b", 3000);
    const budget = { cells: TOTAL_CELLS_MAX };
    const result = diffText(before, after, budget);
    // No cell of the comparison table was spent: the texts were not compared word by word.
    expect(budget.cells).toBe(TOTAL_CELLS_MAX);
    expect(6000 * 6000 > TEXT_CELLS_MAX).toBe(true);
    expect(result.coarse).toBe(true);
    expect(result.parts).toEqual([
      { op: "del", text: before },
      { op: "ins", text: after },
    ]);
  });

  it("compares a long text with a small edit word by word (common start and end set aside)", () => {
    const long = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(" ");
    const edited = long.replace("w2500", "CHANGED");
    const budget = { cells: TOTAL_CELLS_MAX };
    const { parts, coarse } = diffText(long, edited, budget);
    // Only the changed word against its replacement: a 2 × 2 table, not 10,000 × 10,000 tokens.
    expect(TOTAL_CELLS_MAX - budget.cells).toBe(4);
    expect(coarse).toBe(false);
    expect(del(parts)).toEqual(["w2500"]);
    expect(ins(parts)).toEqual(["CHANGED"]);
  });

  it("says nothing changed for equal texts", () => {
    expect(diffText("same", "same").parts).toEqual([{ op: "same", text: "same" }]);
    expect(diffText("", "").parts).toEqual([]);
  });
});

describe("diffContents", () => {
  const kinds = (elements: ElementDiff[]) => elements.map((e) => `${e.kind}:${e.type}`);

  it("finds added, removed and changed elements", () => {
    const before = content([
      { type: "text", content: "Intro" },
      { type: "image", src: "/media/m/1/image/a.webp", alt: "A vase" },
      { type: "text", content: "Old paragraph" },
      { type: "space" },
    ]);
    const after = content([
      { type: "text", content: "Intro" },
      { type: "image", src: "/media/m/1/image/b.webp", alt: "A blue vase" },
      { type: "link", link: "https://example.org", content: "More" },
      { type: "space" },
    ]);
    const diff = diffContents(before, after);
    expect(kinds(diff.elements)).toEqual(["same:metadatas", "same:text", "changed:image", "removed:text", "added:link", "same:space"]);
    expect(diff.counts).toEqual({ added: 1, removed: 1, changed: 1, same: 3 });
    const image = diff.elements[2]!;
    if (image.kind !== "changed") throw new Error("expected a change");
    expect(image.changes.find((c) => c.name === "alt")).toMatchObject({ kind: "text" });
    expect(image.changes.find((c) => c.name === "src")).toEqual({
      name: "src",
      kind: "value",
      before: "/media/m/1/image/a.webp",
      after: "/media/m/1/image/b.webp",
    });
  });

  it("diffs inside accordions: header and details", () => {
    const before = content([{ type: "accordion", header: { content: "details" }, details: [{ type: "text", content: "One two" }, { type: "space" }] }]);
    const after = content([
      {
        type: "accordion",
        header: { content: "More details" },
        details: [
          { type: "text", content: "One three" },
          { type: "image", alt: "New" },
        ],
      },
    ]);
    const [, accordion] = diffContents(before, after).elements;
    if (accordion?.kind !== "changed") throw new Error("expected a change");
    const header = accordion.changes.find((c) => c.name === "header");
    expect(header?.kind === "text" && ins(header.parts)).toEqual(["More "]);
    expect(kinds(accordion.details!)).toEqual(["changed:text", "removed:space", "added:image"]);
  });

  it("lists an added accordion's details and a video's subtitles", () => {
    const before = content([{ type: "video", videoId: "abc123", src: "/media/m/1/video/v.mp4", subtitles: "" }]);
    const after = content([
      { type: "video", videoId: "abc123", src: "/media/m/1/video/v.mp4", subtitles: "/media/m/1/subtitles/s.vtt" },
      { type: "accordion", header: { content: "H" }, details: [{ type: "text", content: "Inside" }] },
    ]);
    const diff = diffContents(before, after);
    expect(kinds(diff.elements)).toEqual(["same:metadatas", "changed:video", "added:accordion"]);
    const video = diff.elements[1]!;
    expect(video.kind === "changed" && video.changes).toEqual([{ name: "subtitles", kind: "value", before: "", after: "/media/m/1/subtitles/s.vtt" }]);
    const accordion = diff.elements[2]!;
    expect(accordion.kind === "added" && kinds(accordion.details!)).toEqual(["added:text"]);
  });

  it("keeps a moved element as removed and added, and an unchanged content as all same", () => {
    const a = content([
      { type: "text", content: "A" },
      { type: "image", alt: "B" },
    ]);
    const b = content([
      { type: "image", alt: "B" },
      { type: "text", content: "A" },
    ]);
    const diff = diffContents(a, b);
    expect(diff.counts.same).toBe(2);
    expect(diff.counts.added + diff.counts.changed).toBe(1);
    expect(diffContents(a, a).counts).toEqual({ added: 0, removed: 0, changed: 0, same: 3 });
  });

  it("gives up comparing word by word on two full articles of long, wholly different texts", () => {
    const paragraph = (prefix: string) => Array.from({ length: 900 }, (_, i) => `${prefix}${i}`).join(" ");
    const a = content(Array.from({ length: 60 }, () => ({ type: "text" as const, content: paragraph("x") })));
    const b = content(Array.from({ length: 60 }, () => ({ type: "text" as const, content: paragraph("y") })));
    const diff = diffContents(a, b);
    expect(diff.counts.changed).toBe(60);
    const coarse = diff.elements.filter((e) => e.kind === "changed" && e.changes.some((c) => c.kind === "text" && c.coarse));
    expect(coarse.length).toBeGreaterThan(0);
  });
});
