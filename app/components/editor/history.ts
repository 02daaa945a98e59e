// Undo and redo for the editing session (decision 072): a pure reducer over the editor's Draft, so the page
// keeps one `setDraft` and every change made through it becomes undoable.
import type { Draft } from "./editor-state";

/** Typing in one field with no pause longer than this is one step. */
export const PAUSE_MS = 1000;
/** Steps kept; the oldest go first. */
export const HISTORY_LIMIT = 200;

export interface History {
  past: Draft[];
  present: Draft;
  future: Draft[];
  /** The field the last step typed into (see changeGroup), or null when the next change starts a new step. */
  group: string | null;
  /** When the last change was made (ms). */
  at: number;
  /** Moves on with every new step, undo and redo (not while typing is merged into a step). */
  revision: number;
}

export type HistoryAction =
  { type: "set"; next: Draft | ((current: Draft) => Draft); at: number } | { type: "undo" } | { type: "redo" } | { type: "reset"; draft: Draft };

export function initialHistory(draft: Draft): History {
  return { past: [], present: draft, future: [], group: null, at: 0, revision: 0 };
}

type Leaf = { path: string; typing: boolean };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Pushes the differing leaves of a and b into `out`, stopping once there are two (enough to decide). */
function collect(a: unknown, b: unknown, path: string, out: Leaf[]) {
  if (a === b || out.length >= 2) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return void out.push({ path, typing: false });
    for (let i = 0; i < a.length && out.length < 2; i++) collect(a[i], b[i], `${path}.${i}`, out);
    return;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (out.length >= 2) return;
      collect(a[key], b[key], `${path}.${key}`, out);
    }
    return;
  }
  // A leaf: text and numbers typed one character at a time merge; a checkbox or a choice is a step of its own.
  const typing = typeof a === typeof b && (typeof a === "string" || typeof a === "number");
  out.push({ path, typing });
}

/**
 * What a change did, to decide whether it continues the step before: the path of the one text or number
 * field it changed (`name`, `meta.url`, `items.el3.content`…), "" when nothing changed, or null for
 * anything else (several fields, an element added, deleted or moved, a checkbox).
 */
export function changeGroup(before: Draft, after: Draft): string | null {
  const out: Leaf[] = [];
  collect(before.name, after.name, "name", out);
  collect(before.metadatas, after.metadatas, "meta", out);
  if (before.items !== after.items) {
    if (before.items.length !== after.items.length || before.items.some((item, i) => item.key !== after.items[i]!.key)) return null;
    for (let i = 0; i < before.items.length && out.length < 2; i++) {
      collect(before.items[i]!.element, after.items[i]!.element, `items.${before.items[i]!.key}`, out);
    }
  }
  if (out.length === 0) return "";
  return out.length === 1 && out[0]!.typing ? out[0]!.path : null;
}

export function historyReducer(state: History, action: HistoryAction): History {
  switch (action.type) {
    case "set": {
      const next = typeof action.next === "function" ? action.next(state.present) : action.next;
      if (next === state.present) return state;
      const group = changeGroup(state.present, next);
      if (group === "") return state;
      if (group !== null && group === state.group && action.at - state.at < PAUSE_MS) {
        return { ...state, present: next, future: [], at: action.at };
      }
      return {
        past: [...state.past, state.present].slice(-HISTORY_LIMIT),
        present: next,
        future: [],
        group,
        at: action.at,
        revision: state.revision + 1,
      };
    }
    case "undo": {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return { past: state.past.slice(0, -1), present: previous, future: [state.present, ...state.future], group: null, at: 0, revision: state.revision + 1 };
    }
    case "redo": {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return { past: [...state.past, state.present], present: next, future: rest, group: null, at: 0, revision: state.revision + 1 };
    }
    case "reset":
      return { ...initialHistory(action.draft), revision: state.revision + 1 };
  }
}

/**
 * The element an undo or redo brings back or changes, for the editor to open its card: an element that
 * reappears, else the first whose content changed in place; null for a move or a change outside the list.
 */
export function affectedItemKey(from: Draft, to: Draft): string | null {
  const before = new Set(from.items.map((item) => item.key));
  const added = to.items.find((item) => !before.has(item.key));
  if (added) return added.key;
  const sameOrder = from.items.length === to.items.length && from.items.every((item, i) => item.key === to.items[i]!.key);
  if (!sameOrder) return null;
  return to.items.find((item, i) => item.element !== from.items[i]!.element)?.key ?? null;
}

const TEXT_INPUT_TYPES = new Set(["", "text", "search", "url", "tel", "email", "password", "number"]);

/**
 * Whether the keyboard's undo belongs to the browser here: a text field, a text area or editable text has
 * its own undo of what was typed (decision 072), so the editor's shortcut leaves it alone.
 */
export function isTextEntry(target: EventTarget | null): boolean {
  const element = target as { tagName?: string; type?: string; isContentEditable?: boolean } | null;
  if (!element || typeof element.tagName !== "string") return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toLowerCase();
  if (tag === "textarea") return true;
  return tag === "input" && TEXT_INPUT_TYPES.has((element.type ?? "").toLowerCase());
}

/** Which history command a key press asks for: Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z and Ctrl+Y redo. */
export function historyCommand(event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): "undo" | "redo" | null {
  if (event.altKey || !(event.ctrlKey || event.metaKey)) return null;
  const key = event.key.toLowerCase();
  if (key === "z") return event.shiftKey ? "redo" : "undo";
  if (key === "y" && event.ctrlKey && !event.metaKey && !event.shiftKey) return "redo";
  return null;
}
