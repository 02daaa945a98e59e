// The editor's focus rules without a browser (decision 137): which request each action leaves, and where a
// request lands on a page made of plain objects (present, missing, focus lost or not).
import { describe, expect, it } from "vitest";
import { draftFrom } from "~/components/editor/editor-state";
import {
  elementDomId,
  focusAfter,
  focusMove,
  NAME_ID,
  REDO_ID,
  refusedFocus,
  SAVE_ID,
  UNDO_ID,
  type FocusEvent,
  type FocusPage,
  type FocusRequest,
} from "~/components/editor/focus-machine";

interface Node {
  id: string;
  fields?: Node[];
}

/** A page holding these ids; `add` is the add panel's chooser; `lost` says whether focus fell. */
function page(ids: (string | Node)[], { add = true, lost = false } = {}): FocusPage<Node> {
  const nodes = new Map(ids.map((entry) => (typeof entry === "string" ? { id: entry } : entry)).map((node) => [node.id, node]));
  return {
    byId: (id) => nodes.get(id) ?? null,
    firstField: (card) => card.fields?.[0] ?? null,
    add: add ? { id: "editor-add-type" } : null,
    lost: () => lost,
  };
}

const landsOn = (request: FocusRequest, on: FocusPage<Node>) => {
  const move = focusMove(request, on);
  return move && { id: move.element.id, reveal: move.reveal };
};

describe("the focus machine (decision 137)", () => {
  it("leaves one request per action", () => {
    const cases: [FocusEvent, FocusRequest | null][] = [
      [
        { type: "moved", key: "el1", by: -1 },
        { kind: "control", id: "editor-el1-up" },
      ],
      [
        { type: "moved", key: "el1", by: 1 },
        { kind: "control", id: "editor-el1-down" },
      ],
      [
        { type: "dropped", key: "el1", handleId: "editor-el1-handle" },
        { kind: "control", id: "editor-el1-handle" },
      ],
      [
        { type: "dropped", key: "el1" },
        { kind: "element", key: "el1" },
      ],
      [
        { type: "inserted", key: "new1" },
        { kind: "fields", key: "new1" },
      ],
      [
        { type: "deleted", nextKey: "el2" },
        { kind: "element", key: "el2" },
      ],
      [{ type: "deleted", nextKey: null }, { kind: "add" }],
      [
        { type: "undeleted", key: "el1" },
        { kind: "element", key: "el1" },
      ],
      [
        { type: "stepped", command: "undo" },
        { kind: "ifLost", id: UNDO_ID },
      ],
      [
        { type: "stepped", command: "redo" },
        { kind: "ifLost", id: REDO_ID },
      ],
      [{ type: "restored" }, { kind: "control", id: UNDO_ID }],
      [{ type: "discarded" }, { kind: "control", id: NAME_ID }],
      [
        { type: "reloaded", conflict: true },
        { kind: "control", id: SAVE_ID },
      ],
      [{ type: "reloaded", conflict: false }, null],
      [{ type: "overwritten" }, { kind: "control", id: SAVE_ID }],
    ];
    for (const [event, request] of cases) expect(focusAfter(event), event.type).toEqual(request);
  });

  it("focuses a control, a card, or the add panel when they are on the page, and nothing when they are not", () => {
    const on = page([SAVE_ID, elementDomId("el1")]);
    expect(landsOn({ kind: "control", id: SAVE_ID }, on)).toEqual({ id: SAVE_ID, reveal: false });
    expect(landsOn({ kind: "element", key: "el1" }, on)).toEqual({ id: "editor-el1", reveal: false });
    expect(landsOn({ kind: "element", key: "gone" }, on)).toBeNull();
    expect(landsOn({ kind: "control", id: "editor-gone-up" }, on)).toBeNull();
    expect(landsOn({ kind: "add" }, on)).toEqual({ id: "editor-add-type", reveal: false });
    expect(landsOn({ kind: "add" }, page([], { add: false }))).toBeNull();
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
