import { describe, expect, it } from "vitest";
import { newElement } from "~/content/schema";
import { draftFrom } from "~/components/editor/editor-state";
import { contentIssues } from "~/components/editor/content-check";
import { contentPathOf, fieldTarget, numberBounds } from "~/components/editor/field-paths";

const meta = { type: "metadatas" as const, url: "amphore", backgroundColor: "#341539" };
const draft = (...elements: object[]) => draftFrom({ unformatted_name: "A", content: [meta, ...(elements as never[])] });

describe("refused fields on the page (decision 069)", () => {
  it("reads the API's field names, deep ones too, and nothing else", () => {
    expect(contentPathOf("newContent.3.link")).toEqual([3, "link"]);
    expect(contentPathOf("newContent.5.details.1.content")).toEqual([5, "details", 1, "content"]);
    expect(contentPathOf("newContent.2")).toEqual([2]);
    for (const other of ["unformatted_name", "version", "newContent", "newContent.x.link", "newContent.1..a", "newContent.1.__proto__.x)", undefined, ""]) {
      expect(contentPathOf(other)).toBeNull();
    }
  });

  it("maps each element's fields to the input that edits them", () => {
    const d = draft(
      { ...newElement("text"), content: "x" },
      newElement("link"),
      newElement("space"),
      { ...newElement("accordion"), details: [newElement("text"), newElement("link"), newElement("legendItem")] },
      newElement("video"),
    );
    expect(fieldTarget([0, "url"], d)).toEqual({ key: null, inputId: "editor-slug" });
    expect(fieldTarget([0, "backgroundColor"], d)).toEqual({ key: null, inputId: "editor-colour-hex" });
    expect(fieldTarget([1, "fontSize"], d)).toEqual({ key: "el0", inputId: "editor-el0-font-size" });
    expect(fieldTarget([1, "color"], d)).toEqual({ key: "el0", inputId: "editor-el0-color-hex" });
    expect(fieldTarget([2, "link"], d)).toEqual({ key: "el1", inputId: "editor-el1-url" });
    expect(fieldTarget([2, "content"], d)).toEqual({ key: "el1", inputId: "editor-el1-label" });
    expect(fieldTarget([3, "size"], d)).toEqual({ key: "el2", inputId: "editor-el2-height" });
    expect(fieldTarget([4, "header", "content"], d)).toEqual({ key: "el3", inputId: "editor-el3-header" });
    expect(fieldTarget([4, "header", "fontSize"], d)).toEqual({ key: "el3", inputId: "editor-el3-header-font-size" });
    expect(fieldTarget([4, "details", 1, "link"], d)).toEqual({ key: "el3", inputId: "editor-el3-detail-1-url" });
    expect(fieldTarget([4, "details", 2, "width"], d)).toEqual({ key: "el3", inputId: "editor-el3-detail-2-width" });
    expect(fieldTarget([4, "details", 9, "content"], d)).toEqual({ key: "el3", inputId: "editor-el3-add-type" });
    expect(fieldTarget([5, "videoId"], d)).toEqual({ key: "el4", inputId: "editor-el4-video" });
    // A field no input edits: the card is the place. Past the list, or not a position: nowhere.
    expect(fieldTarget([1, "type"], d)).toEqual({ key: "el0", inputId: null });
    expect(fieldTarget([9, "link"], d)).toBeNull();
    expect(fieldTarget(["x", "link"], d)).toBeNull();
  });

  it("finds every refused field of the content in the browser, once each, with the schema's reason", () => {
    const content = [
      meta,
      { ...newElement("text"), fontSize: 500 },
      { ...newElement("link"), link: "javascript:alert(1)" },
      { ...newElement("accordion"), details: [{ ...newElement("link"), link: "ftp://x.org" }] },
      { ...newElement("space"), size: 12.5 },
    ];
    expect(contentIssues(content as never)).toEqual([
      { path: [1, "fontSize"], reason: "out_of_range" },
      { path: [2, "link"], reason: "unsafe_url" },
      { path: [3, "details", 0, "link"], reason: "unsafe_url" },
      { path: [4, "size"], reason: "wrong_type" },
    ]);
    expect(contentIssues([meta, newElement("text")])).toEqual([]);
  });

  it("knows the bounds of the number fields it names", () => {
    expect(numberBounds([1, "fontSize"])).toEqual({ min: 1, max: 100 });
    expect(numberBounds([1, "details", 0, "width"])).toEqual({ min: 1, max: 100 });
    expect(numberBounds([1, "link"])).toBeNull();
  });
});
