// The article editor's state, driven without a browser (decision 137): every action the page can take, what it
// does to the draft, the history, the open card, the dialogs and the focus request, and the odd cases.
import { describe, expect, it } from "vitest";
import { editorReducer, initialEditorState, type EditorAction, type EditorState, type LoadedArticle } from "~/components/editor/editor-reducer";
import { snapshotOf, type BodyElement, type Draft } from "~/components/editor/editor-state";
import { ADD_ID, NAME_ID, REDO_ID, SAVE_ID, UNDO_ID } from "~/components/editor/focus-machine";
import { PAUSE_MS } from "~/components/editor/history";

const article: LoadedArticle = {
  name: "amphore",
  unformatted_name: "Amphore",
  content: [
    { type: "metadatas", url: "amphore", backgroundColor: "#341539" },
    { type: "text", content: "Premier" },
    { type: "space", size: 10 },
    { type: "video", src: "/media/v.mp4", subtitles: "", videoId: "aaaaaaaaaaa" },
  ] as LoadedArticle["content"],
};

const run = (actions: EditorAction[], state = initialEditorState(article)) => actions.reduce(editorReducer, state);
const draftOf = (state: EditorState): Draft => state.history.present;
const keys = (state: EditorState) => draftOf(state).items.map((item) => item.key);
const text = (content: string): BodyElement => ({ type: "text", content }) as BodyElement;

describe("the editor's state (decision 137)", () => {
  it("starts from the loaded article: its draft, saved as it is, nothing open, no focus request", () => {
    const state = initialEditorState(article);
    expect(keys(state)).toEqual(["el0", "el1", "el2"]);
    expect(state.saved).toEqual({ snapshot: snapshotOf(draftOf(state)), name: "Amphore", slug: "amphore" });
    expect(state).toMatchObject({ openKey: null, dialog: null, tab: "edit", lastDeleted: null, session: null, focus: null, announce: null });
  });

  it("merges typing in the name into one step until a pause, and keeps odd Unicode as typed", () => {
    const names = ["A", "Am", "Amph\u0301", "Amph\u0301ore 🏺", "\u202Eérohpma\u202C"];
    const typed = run(names.map((name, i) => ({ type: "draft", change: { name }, at: 1000 + i * 100 })));
    expect(draftOf(typed).name).toBe("\u202Eérohpma\u202C");
    expect(typed.history.past).toHaveLength(1);
    const later = editorReducer(typed, { type: "draft", change: { name: "Vase" }, at: 1400 + PAUSE_MS });
    expect(later.history.past).toHaveLength(2);
  });

  it("replaces the whole draft as one undoable step (links completed before a save), and twice the same as once", () => {
    const loadedDraft = draftOf(initialEditorState(article));
    const completed: Draft = { ...loadedDraft, items: [{ key: "el0", element: text("https://www.louvre.fr") }, ...loadedDraft.items.slice(1)] };
    const once = run([{ type: "draft", change: completed, at: 1 }]);
    const twice = editorReducer(once, { type: "draft", change: completed, at: 2 });
    expect(twice).toBe(once);
    expect(draftOf(once).items[0]!.element).toEqual(text("https://www.louvre.fr"));
    expect(draftOf(editorReducer(once, { type: "step", command: "undo" }))).toEqual(loadedDraft);
  });

  it("changes an element by its key, so a change that lands after a delete edits its own element", () => {
    const state = run([
      { type: "delete", index: 0, at: 1 },
      { type: "element", key: "el0", element: text("Perdu"), at: 2 },
      { type: "element", key: "el1", element: { type: "space", size: 30 } as BodyElement, at: 3 },
    ]);
    expect(keys(state)).toEqual(["el1", "el2"]);
    expect(draftOf(state).items[0]!.element).toEqual({ type: "space", size: 30 });
  });

  it("keeps focus on the pressed move button, also when the move changes nothing", () => {
    const moved = run([{ type: "move", index: 0, by: 1, at: 1 }]);
    expect(keys(moved)).toEqual(["el1", "el0", "el2"]);
    expect(moved.focus).toEqual({ kind: "control", id: "editor-el0-down" });
    const atTop = run([{ type: "move", index: 0, by: -1, at: 1 }]);
    expect(atTop.history.past).toHaveLength(0);
    expect(atTop.focus).toEqual({ kind: "control", id: "editor-el0-up" });
    expect(run([{ type: "move", index: 7, by: 1, at: 1 }])).toEqual(initialEditorState(article));
  });

  it("drops a dragged card: focus on the handle after the keyboard, on the card after a pointer", () => {
    const keyboard = run([{ type: "moveTo", from: 2, to: 0, handleId: "editor-el2-handle", at: 1 }]);
    expect(keys(keyboard)).toEqual(["el2", "el0", "el1"]);
    expect(keyboard.focus).toEqual({ kind: "control", id: "editor-el2-handle" });
    const pointer = run([{ type: "moveTo", from: 0, to: 2, at: 1 }]);
    expect(keys(pointer)).toEqual(["el1", "el2", "el0"]);
    expect(pointer.focus).toEqual({ kind: "element", key: "el0" });
    expect(run([{ type: "moveTo", from: 0, to: 9, at: 1 }]).history.past).toHaveLength(0);
  });

  it("duplicates after the original, opens the copy and asks for its first field; a copied video gets its own id", () => {
    const state = run([{ type: "duplicate", index: 2, key: "new1", videoId: "bbbbbbbbbbb", at: 1 }]);
    expect(keys(state)).toEqual(["el0", "el1", "el2", "new1"]);
    expect(draftOf(state).items[3]!.element).toMatchObject({ type: "video", videoId: "bbbbbbbbbbb" });
    expect(draftOf(state).items[2]!.element).toMatchObject({ videoId: "aaaaaaaaaaa" });
    expect(state).toMatchObject({ openKey: "new1", focus: { kind: "fields", key: "new1" } });
  });

  it("adds at the end, opens the new card and asks for its first field", () => {
    const state = run([{ type: "add", item: { key: "new2", element: text("") }, at: 1 }]);
    expect(keys(state)).toEqual(["el0", "el1", "el2", "new2"]);
    expect(state).toMatchObject({ openKey: "new2", focus: { kind: "fields", key: "new2" } });
  });

  it("deletes with focus on the next card, or on the add panel after the last; its undo brings it back once", () => {
    const middle = run([{ type: "delete", index: 1, at: 1 }]);
    expect(middle.focus).toEqual({ kind: "element", key: "el2" });
    expect(middle.lastDeleted).toMatchObject({ index: 1, revision: middle.history.revision });
    expect(run([{ type: "delete", index: 2, at: 1 }]).focus).toEqual({ kind: "control", id: ADD_ID });

    // Fifty clicks on the message's "undo" at once: one undo.
    const undone = run(
      Array.from({ length: 50 }, () => ({ type: "undoDelete" }) as const),
      middle,
    );
    expect(keys(undone)).toEqual(["el0", "el1", "el2"]);
    expect(undone.history.future).toHaveLength(1);
    expect(undone).toMatchObject({ lastDeleted: null, focus: { kind: "element", key: "el1" } });
  });

  it("offers no undo of a delete once another step followed it", () => {
    const state = run([
      { type: "delete", index: 0, at: 1 },
      { type: "draft", change: { name: "Vase" }, at: 2 },
    ]);
    expect(editorReducer(state, { type: "undoDelete" })).toBe(state);
  });

  it("undoes and redoes: opens the card it changes, reads it out with alternating words, focus to its button if lost", () => {
    const edited = run([{ type: "element", key: "el1", element: { type: "space", size: 40 } as BodyElement, at: 1 }]);
    const undone = editorReducer({ ...edited, openKey: null }, { type: "step", command: "undo" });
    expect(draftOf(undone)).toEqual(draftOf(initialEditorState(article)));
    expect(undone).toMatchObject({ openKey: "el1", focus: { kind: "ifLost", id: UNDO_ID }, announce: { message: "keep.undone", alternate: true } });
    const redone = editorReducer(undone, { type: "step", command: "redo" });
    expect(draftOf(redone)).toEqual(draftOf(edited));
    expect(redone).toMatchObject({ focus: { kind: "ifLost", id: REDO_ID }, announce: { message: "keep.redone", alternate: false } });
    expect(editorReducer(redone, { type: "step", command: "redo" })).toBe(redone);
  });

  it("takes fifty undos at once back to the loaded draft and no further", () => {
    const edited = run([
      { type: "draft", change: { name: "B" }, at: 1 },
      { type: "delete", index: 0, at: 2 },
      { type: "add", item: { key: "new3", element: text("x") }, at: 3 },
    ]);
    const undone = run(
      Array.from({ length: 50 }, () => ({ type: "step", command: "undo" }) as const),
      edited,
    );
    expect(draftOf(undone)).toEqual(draftOf(initialEditorState(article)));
    expect(undone.history.future).toHaveLength(3);
    expect(undone.announce).toEqual({ message: "keep.undone", alternate: true });
  });

  it("restores a kept draft as one undoable step, focus on Undo; discarding it sends focus to the name", () => {
    const kept: Draft = { ...draftOf(initialEditorState(article)), name: "Gardé" };
    const restored = run([{ type: "restore", draft: kept, at: 1 }]);
    expect(restored).toMatchObject({ focus: { kind: "control", id: UNDO_ID }, announce: { message: "keep.restored", alternate: false } });
    expect(draftOf(editorReducer(restored, { type: "step", command: "undo" })).name).toBe("Amphore");
    expect(editorReducer(restored, { type: "step", command: "undo" }).announce).toEqual({ message: "keep.undone", alternate: true });
    expect(run([{ type: "discard" }]).focus).toEqual({ kind: "control", id: NAME_ID });
  });

  it("saves: the saved name and address follow, the delete's undo message goes", () => {
    const state = run([
      { type: "delete", index: 0, at: 1 },
      { type: "saved", saved: { snapshot: "s", name: "Vase", slug: "vase" } },
    ]);
    expect(state.saved).toEqual({ snapshot: "s", name: "Vase", slug: "vase" });
    expect(state.lastDeleted).toBeNull();
  });

  it("reloads the saved version: the draft and its history replaced; focus to Save only when it ends a conflict", () => {
    const edited = run([{ type: "delete", index: 0, at: 1 }]);
    const fresh = { ...article, unformatted_name: "Amphore (leur version)" };
    const reloaded = editorReducer({ ...edited, focus: null }, { type: "reload", article: fresh, conflict: false });
    expect(draftOf(reloaded).name).toBe("Amphore (leur version)");
    expect(reloaded.history.past).toHaveLength(0);
    expect(reloaded).toMatchObject({ lastDeleted: null, focus: null, saved: { name: "Amphore (leur version)", slug: "amphore" } });
    expect(editorReducer(edited, { type: "reload", article: fresh, conflict: true }).focus).toEqual({ kind: "control", id: SAVE_ID });
    expect(editorReducer(edited, { type: "overwritten" }).focus).toEqual({ kind: "control", id: SAVE_ID });
  });

  it("refused: focus to the field's input and its card opened; a field of an element gone leaves the card shut", () => {
    const state = initialEditorState(article);
    const name = editorReducer(state, { type: "refused", target: "name", submitted: draftOf(state) });
    expect(name).toMatchObject({ openKey: null, focus: { kind: "refused", inputId: NAME_ID, key: null } });
    const content = editorReducer(state, { type: "refused", target: { path: [1, "content"] }, submitted: draftOf(state) });
    expect(content.openKey).toBe("el0");
    expect(content.focus).toMatchObject({ kind: "refused", key: "el0" });
    const gone = editorReducer({ ...state, openKey: "el2" }, { type: "refused", target: { path: [9, "content"] }, submitted: draftOf(state) });
    expect(gone).toMatchObject({ openKey: "el2", focus: { kind: "refused", inputId: null, key: null } });
  });

  it("opens the login dialog on a 401 and retries the save after it when a save met it, whichever came last", () => {
    const other = run([{ type: "unauthorized", path: "/api/read/article" }]);
    expect(other.session).toEqual({ retrySave: false });
    const both = run([
      { type: "unauthorized", path: "/api/manage/update_article" },
      { type: "unauthorized", path: "/api/read/article" },
    ]);
    expect(both.session).toEqual({ retrySave: true });
    expect(editorReducer(both, { type: "view", change: { session: null } }).session).toBeNull();
  });

  it("returns the same state for what changes nothing, so React renders nothing", () => {
    const state = initialEditorState(article);
    for (const action of [
      { type: "view", change: { focus: null } },
      { type: "view", change: { session: null, tab: "edit" } },
      { type: "view", change: { dialog: null, openKey: null } },
      { type: "view", change: {} },
      { type: "undoDelete" },
      { type: "step", command: "undo" },
      { type: "draft", change: { name: "Amphore" }, at: 1 },
      { type: "delete", index: -1, at: 1 },
    ] as EditorAction[]) {
      expect(editorReducer(state, action), action.type).toBe(state);
    }
    const focused = editorReducer(run([{ type: "discard" }]), { type: "view", change: { focus: null } });
    expect(focused.focus).toBeNull();
  });

  it("keeps the dialog, the tab and the open card asked for last", () => {
    const state = run([
      { type: "view", change: { dialog: "compare" } },
      { type: "view", change: { dialog: "keep", openKey: "el1" } },
      { type: "view", change: { tab: "preview" } },
    ]);
    expect(state).toMatchObject({ dialog: "keep", tab: "preview", openKey: "el1" });
  });
});
