// The editor's focus rules without a browser (decision 137): where a request lands on a page made of plain
// objects (present, missing, focus lost or not), and where a refused save sends it. Which request each
// action leaves is tested with the reducer (editor-reducer.test.ts).
import { describe, expect, it } from "vitest";
import { draftFrom } from "~/components/editor/editor-state";
import { ADD_ID, elementDomId, focusMove, NAME_ID, refusedFocus, SAVE_ID, UNDO_ID, type FocusPage, type FocusRequest } from "~/components/editor/focus-machine";

interface Node {
  id: string;
  fields?: Node[];
}

/** A page holding these ids; `lost` says whether focus fell. */
function page(ids: (string | Node)[], { lost = false } = {}): FocusPage<Node> {
  const nodes = new Map(ids.map((entry) => (typeof entry === "string" ? { id: entry } : entry)).map((node) => [node.id, node]));
  return {
    byId: (id) => nodes.get(id) ?? null,
    firstField: (card) => card.fields?.[0] ?? null,
    lost: () => lost,
  };
}

const landsOn = (request: FocusRequest, on: FocusPage<Node>) => {
  const move = focusMove(request, on);
  return move && { id: move.element.id, reveal: move.reveal };
};

describe("the focus machine (decision 137)", () => {
  it("focuses a control, a card, or the add panel when they are on the page, and nothing when they are not", () => {
    const on = page([SAVE_ID, elementDomId("el1"), ADD_ID]);
    expect(landsOn({ kind: "control", id: SAVE_ID }, on)).toEqual({ id: SAVE_ID, reveal: false });
    expect(landsOn({ kind: "element", key: "el1" }, on)).toEqual({ id: "editor-el1", reveal: false });
    expect(landsOn({ kind: "element", key: "gone" }, on)).toBeNull();
    expect(landsOn({ kind: "control", id: "editor-gone-up" }, on)).toBeNull();
    expect(landsOn({ kind: "control", id: ADD_ID }, on)).toEqual({ id: "editor-add-type", reveal: false });
    expect(landsOn({ kind: "control", id: ADD_ID }, page([]))).toBeNull();
  });

  it("puts a new card's first field in focus, or the card when its fields are not there", () => {
    const on = page([{ id: "editor-new1", fields: [{ id: "editor-new1-content" }, { id: "editor-new1-size" }] }, "editor-new2"]);
    expect(landsOn({ kind: "fields", key: "new1" }, on)).toEqual({ id: "editor-new1-content", reveal: false });
    expect(landsOn({ kind: "fields", key: "new2" }, on)).toEqual({ id: "editor-new2", reveal: false });
    expect(landsOn({ kind: "fields", key: "new3" }, on)).toBeNull();
  });

  it("moves focus to Undo or Redo only when an undo took the focused element away", () => {
    expect(landsOn({ kind: "ifLost", id: UNDO_ID }, page([UNDO_ID], { lost: true }))).toEqual({ id: UNDO_ID, reveal: false });
    expect(landsOn({ kind: "ifLost", id: UNDO_ID }, page([UNDO_ID], { lost: false }))).toBeNull();
  });

  it("reveals a refused field's input, else its card, else nothing", () => {
    const request: FocusRequest = { kind: "refused", inputId: "editor-el0-content", key: "el0" };
    expect(landsOn(request, page(["editor-el0-content", "editor-el0"]))).toEqual({ id: "editor-el0-content", reveal: true });
    expect(landsOn(request, page(["editor-el0"]))).toEqual({ id: "editor-el0", reveal: true });
    expect(landsOn(request, page([]))).toBeNull();
    expect(landsOn({ kind: "refused", inputId: null, key: null }, page([NAME_ID]))).toBeNull();
  });

  it("maps a refused save to the field that says it: the article's own fields and a content path", () => {
    const draft = draftFrom({
      unformatted_name: "Vase",
      content: [
        { type: "metadatas", url: "vase", backgroundColor: "#341539" },
        { type: "text", content: "Un texte" },
      ] as Parameters<typeof draftFrom>[0]["content"],
    });
    expect(refusedFocus("name", draft)).toEqual({ kind: "refused", inputId: NAME_ID, key: null });
    expect(refusedFocus("slug", draft)).toEqual({ kind: "refused", inputId: "editor-slug", key: null });
    expect(refusedFocus("colour", draft)).toEqual({ kind: "refused", inputId: "editor-colour-hex", key: null });
    expect(refusedFocus({ path: [1, "content"] }, draft)).toMatchObject({ kind: "refused", key: "el0" });
    expect(refusedFocus({ path: [1, "content"] }, draft).inputId).toMatch(/^editor-el0-/);
    // A path the draft no longer has (the element went while the save was on its way): nowhere, no card.
    expect(refusedFocus({ path: [5, "content"] }, draft)).toEqual({ kind: "refused", inputId: null, key: null });
  });
});
