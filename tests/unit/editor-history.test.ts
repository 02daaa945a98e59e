import { describe, expect, it } from "vitest";
import type { Draft } from "~/components/editor/editor-state";
import { moveItem } from "~/components/editor/editor-state";
import {
  affectedItemKey,
  changeGroup,
  HISTORY_LIMIT,
  historyCommand,
  historyReducer,
  initialHistory,
  isTextEntry,
  PAUSE_MS,
  type History,
} from "~/components/editor/history";

const base: Draft = {
  name: "Amphore",
  metadatas: { type: "metadatas", url: "amphore", backgroundColor: "#341539" },
  items: [
    { key: "el0", element: { type: "text", content: "Premier" } },
    { key: "el1", element: { type: "space", size: 10 } },
    { key: "el2", element: { type: "accordion", header: { content: "Plus" }, details: [{ type: "text", content: "Détail" }] } },
  ] as Draft["items"],
};

const setText = (draft: Draft, key: string, content: string): Draft => ({
  ...draft,
  items: draft.items.map((item) => (item.key === key ? { ...item, element: { ...item.element, content } as Draft["items"][number]["element"] } : item)),
});

/** Types `text` one character at a time into the first element, `gap` ms apart, starting at `start`. */
function type(state: History, text: string, start: number, gap = 100): History {
  let current = state;
  for (let i = 1; i <= text.length; i++) {
    const typed = text.slice(0, i);
    current = historyReducer(current, { type: "set", next: (d) => setText(d, "el0", typed), at: start + i * gap });
  }
  return current;
}

describe("changeGroup", () => {
  it("names the one text or number field a change typed into", () => {
    expect(changeGroup(base, { ...base, name: "Amphore r" })).toBe("name");
    expect(changeGroup(base, { ...base, metadatas: { ...base.metadatas, url: "amph" } })).toBe("meta.url");
    expect(changeGroup(base, setText(base, "el0", "Premie"))).toBe("items.el0.content");
    const deep = {
      ...base,
      items: base.items.map((item) => (item.key === "el2" ? { ...item, element: { ...item.element, details: [{ type: "text", content: "Détails" }] } } : item)),
    } as Draft;
    expect(changeGroup(base, deep)).toBe("items.el2.details.0.content");
    const size = { ...base, items: base.items.map((item) => (item.key === "el1" ? { ...item, element: { type: "space", size: 12 } } : item)) } as Draft;
    expect(changeGroup(base, size)).toBe("items.el1.size");
  });

  it("is null for moves, adds, deletes, several fields and choices, and empty for no change", () => {
    expect(changeGroup(base, { ...base, items: moveItem(base.items, 0, 1) })).toBeNull();
    expect(changeGroup(base, { ...base, items: base.items.slice(1) })).toBeNull();
    expect(changeGroup(base, { ...base, items: [...base.items, { key: "new1", element: { type: "space" } } as Draft["items"][number]] })).toBeNull();
    expect(changeGroup(base, { ...base, name: "X", metadatas: { ...base.metadatas, url: "x" } })).toBeNull();
    const checkbox = { ...base, items: base.items.map((item) => (item.key === "el0" ? { ...item, element: { ...item.element, bold: true } } : item)) } as Draft;
    expect(changeGroup(base, checkbox)).toBeNull();
    const detailAdded = {
      ...base,
      items: base.items.map((item) => (item.key === "el2" ? { ...item, element: { ...item.element, details: [] } } : item)),
    } as Draft;
    expect(changeGroup(base, detailAdded)).toBeNull();
    expect(changeGroup(base, { ...base, items: [...base.items] })).toBe("");
    expect(changeGroup(base, JSON.parse(JSON.stringify(base)) as Draft)).toBe("");
  });
});

describe("historyReducer", () => {
  it("merges typing in one field into one step until a pause, then starts another", () => {
    let state = type(initialHistory(base), "Un", 1000);
    expect(state.past).toHaveLength(1);
    // A pause longer than PAUSE_MS: the next characters are a new step.
    state = type(state, "Un mot", 1000 + 200 + PAUSE_MS + 1);
    expect(state.past).toHaveLength(2);
    expect(state.present.items[0]!.element).toMatchObject({ content: "Un mot" });

    state = historyReducer(state, { type: "undo" });
    expect(state.present.items[0]!.element).toMatchObject({ content: "Un" });
    state = historyReducer(state, { type: "undo" });
    expect(state.present).toBe(base);
    expect(historyReducer(state, { type: "undo" })).toBe(state);
    state = historyReducer(historyReducer(state, { type: "redo" }), { type: "redo" });
    expect(state.present.items[0]!.element).toMatchObject({ content: "Un mot" });
    expect(historyReducer(state, { type: "redo" })).toBe(state);
  });

  it("makes another field, a move, a delete and an add steps of their own, undone in order", () => {
    let state = historyReducer(initialHistory(base), { type: "set", next: (d) => ({ ...d, name: "A" }), at: 10 });
    state = historyReducer(state, { type: "set", next: (d) => setText(d, "el0", "B"), at: 20 });
    state = historyReducer(state, { type: "set", next: (d) => ({ ...d, items: moveItem(d.items, 0, 1) }), at: 30 });
    state = historyReducer(state, { type: "set", next: (d) => ({ ...d, items: moveItem(d.items, 1, 1) }), at: 40 });
    state = historyReducer(state, { type: "set", next: (d) => ({ ...d, items: d.items.filter((i) => i.key !== "el1") }), at: 50 });
    expect(state.past).toHaveLength(5);
    expect(state.present.items.map((i) => i.key)).toEqual(["el2", "el0"]);
    const keys: string[][] = [];
    while (state.past.length > 0) {
      state = historyReducer(state, { type: "undo" });
      keys.push(state.present.items.map((i) => i.key));
    }
    expect(keys).toEqual([
      ["el1", "el2", "el0"],
      ["el1", "el0", "el2"],
      ["el0", "el1", "el2"],
      ["el0", "el1", "el2"],
      ["el0", "el1", "el2"],
    ]);
    expect(state.present).toBe(base);
    expect(state.future).toHaveLength(5);
  });

  it("does not merge typing after an undo, and a new change drops what could be redone", () => {
    let state = type(initialHistory(base), "abc", 0);
    state = historyReducer(state, { type: "undo" });
    state = type(state, "x", 350);
    expect(state.past).toHaveLength(1);
    expect(state.future).toHaveLength(0);
    expect(state.past[0]).toBe(base);
  });

  it("ignores changes that change nothing and keeps at most HISTORY_LIMIT steps", () => {
    const start = initialHistory(base);
    expect(historyReducer(start, { type: "set", next: (d) => d, at: 1 })).toBe(start);
    expect(historyReducer(start, { type: "set", next: { ...base }, at: 1 })).toBe(start);
    let state = start;
    for (let i = 0; i < HISTORY_LIMIT + 20; i++) state = historyReducer(state, { type: "set", next: (d) => ({ ...d, items: moveItem(d.items, 0, 1) }), at: i });
    expect(state.past).toHaveLength(HISTORY_LIMIT);
  });

  it("reset forgets every step and moves the revision on", () => {
    let state = type(initialHistory(base), "abc", 0);
    const fresh = { ...base, name: "Relu" };
    state = historyReducer(state, { type: "reset", draft: fresh });
    expect(state).toMatchObject({ past: [], future: [], present: fresh });
    expect(state.revision).toBe(2);
  });
});

describe("affectedItemKey", () => {
  it("finds the element brought back, or changed in place; null for a move", () => {
    const deleted = { ...base, items: base.items.filter((i) => i.key !== "el1") };
    expect(affectedItemKey(deleted, base)).toBe("el1");
    expect(affectedItemKey(base, setText(base, "el0", "x"))).toBe("el0");
    expect(affectedItemKey(base, { ...base, items: moveItem(base.items, 0, 1) })).toBeNull();
    expect(affectedItemKey(base, { ...base, name: "x" })).toBeNull();
  });
});

describe("keyboard", () => {
  const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it("reads Ctrl/Cmd+Z as undo, Ctrl/Cmd+Shift+Z and Ctrl+Y as redo, nothing else", () => {
    expect(historyCommand(key("z", { ctrlKey: true }))).toBe("undo");
    expect(historyCommand(key("z", { metaKey: true }))).toBe("undo");
    expect(historyCommand(key("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(historyCommand(key("Z", { metaKey: true, shiftKey: true }))).toBe("redo");
    expect(historyCommand(key("y", { ctrlKey: true }))).toBe("redo");
    expect(historyCommand(key("y", { metaKey: true }))).toBeNull();
    expect(historyCommand(key("z"))).toBeNull();
    expect(historyCommand(key("z", { ctrlKey: true, altKey: true }))).toBeNull();
    expect(historyCommand(key("x", { ctrlKey: true }))).toBeNull();
  });

  it("leaves text fields to the browser's own undo", () => {
    expect(isTextEntry({ tagName: "TEXTAREA" } as unknown as EventTarget)).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "text" } as unknown as EventTarget)).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "url" } as unknown as EventTarget)).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "number" } as unknown as EventTarget)).toBe(true);
    expect(isTextEntry({ tagName: "DIV", isContentEditable: true } as unknown as EventTarget)).toBe(true);
    expect(isTextEntry({ tagName: "INPUT", type: "checkbox" } as unknown as EventTarget)).toBe(false);
    expect(isTextEntry({ tagName: "INPUT", type: "color" } as unknown as EventTarget)).toBe(false);
    expect(isTextEntry({ tagName: "SELECT" } as unknown as EventTarget)).toBe(false);
    expect(isTextEntry({ tagName: "BUTTON" } as unknown as EventTarget)).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });
});
