import { describe, expect, it } from "vitest";
import { colourProblem, contentOf, draftFrom, elementIndexOfField, moveItem, sixDigitHex, slugProblem, snapshotOf } from "~/components/editor/editor-state";

const article = {
  unformatted_name: "Amphore",
  content: [
    { type: "metadatas", url: "amphore", backgroundColor: "#341539" },
    { type: "space", size: 10 },
    { type: "space", size: 20 },
  ] as Parameters<typeof draftFrom>[0]["content"],
};

describe("editor state", () => {
  it("keys loaded elements by position, so the server and the browser render the same ids", () => {
    expect(draftFrom(article).items.map((item) => item.key)).toEqual(["el0", "el1"]);
    expect(contentOf(draftFrom(article))).toEqual(article.content);
  });

  it("moves an element one place and refuses to leave the list", () => {
    const { items } = draftFrom(article);
    expect(moveItem(items, 1, -1).map((i) => i.key)).toEqual(["el1", "el0"]);
    expect(moveItem(items, 0, -1)).toBe(items);
    expect(moveItem(items, 1, 1)).toBe(items);
  });

  it("tells unsaved work by content, not by keys", () => {
    const draft = draftFrom(article);
    expect(snapshotOf(draft)).toBe(snapshotOf(draftFrom(article)));
    expect(snapshotOf({ ...draft, items: moveItem(draft.items, 1, -1) })).not.toBe(snapshotOf(draft));
  });

  it("maps an API field to the element's list index (metadatas left out)", () => {
    expect(elementIndexOfField("newContent.3.link")).toBe(2);
    expect(elementIndexOfField("newContent.1")).toBe(0);
    expect(elementIndexOfField("newContent.0.url")).toBeNull();
    expect(elementIndexOfField("unformatted_name")).toBeNull();
    expect(elementIndexOfField(undefined)).toBeNull();
  });

  it("checks the address and the colour as the API does", () => {
    expect(slugProblem("salle-3-amphore")).toBeNull();
    expect(slugProblem("")).toBe("empty");
    expect(slugProblem("Salle 3")).toBe("invalid");
    expect(slugProblem("amphore-étrusque")).toBe("invalid");
    expect(slugProblem("a".repeat(81))).toBe("too_long");
    expect(colourProblem("#abc")).toBeNull();
    expect(colourProblem("#12345")).toBe("invalid");
    expect(sixDigitHex("#AbC", "#000000")).toBe("#aabbcc");
    expect(sixDigitHex("nope", "#341539")).toBe("#341539");
  });
});
