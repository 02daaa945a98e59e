// The article editor's state as one pure reducer (decision 137): the draft with its undo history (decision
// 072), the saved article it is compared with, the open card, the dialog, the tab, what is read out, the
// login dialog and where focus goes next. What is not pure (the clock, new keys, the server, the browser's
// storage) stays in use-article-editor.ts and reaches here as values in the actions.
import type { ArticleContent } from "~/content/schema";
import { draftFrom, duplicateItem, moveItem, moveItemTo, snapshotOf, type BodyElement, type Draft, type Item } from "./editor-state";
import type { EditorTab } from "./editor-tabs";
import { ADD_ID, elementDomId, NAME_ID, REDO_ID, refusedFocus, SAVE_ID, UNDO_ID, type FocusRequest } from "./focus-machine";
import { affectedItemKey, historyReducer, initialHistory, type History } from "./history";
import type { FocusTarget } from "./use-save-article";

export type EditorDialog = "reset" | "reload" | "keep" | "compare";

/** The saved article: what the draft is compared with, and the name and address the page shows. */
export interface SavedArticle {
  snapshot: string;
  name: string;
  slug: string;
}

export interface EditorState {
  history: History;
  saved: SavedArticle;
  /** The "deleted, undo" message shows while the delete is the last step (`revision` the step it made). */
  lastDeleted: { item: Item; index: number; revision: number } | null;
  /** The one element card shown open (editor v2): the cards, a refused save and undo all open it by key. */
  openKey: string | null;
  dialog: EditorDialog | null;
  /** On a narrow screen the form and the preview are two tabs (decision 066). */
  tab: EditorTab;
  /** Read out after undo, redo or a restore (a locale key); `alternate` adds a no-break space, so the same words are read again. */
  announce: { message: "keep.undone" | "keep.redone" | "keep.restored"; alternate: boolean } | null;
  /** The login dialog, open after a call answered 401 (decision 071); `retrySave` when that call was a save. */
  session: { retrySave: boolean } | null;
  /** Where focus goes once the page shows this state (focus-machine.ts). */
  focus: FocusRequest | null;
}

/** The article as the loader reads it. */
export interface LoadedArticle {
  name: string;
  unformatted_name: string;
  content: ArticleContent;
}

/** `at` is the time of a change (ms): typing in one field merges into one step until a pause. */
/** What the page shows apart from the draft, set as it is asked (the open card, the dialog, the tab…). */
export type EditorView = Partial<Pick<EditorState, "openKey" | "dialog" | "tab" | "session" | "focus">>;

export type EditorAction =
  /** The name, the metadatas, or the whole draft (links completed before a save). */
  | { type: "draft"; change: Partial<Draft>; at: number }
  /** By key, not position: a change that lands after a move or a delete in the same batch edits its own element. */
  | { type: "element"; key: string; element: BodyElement; at: number }
  | { type: "move"; index: number; by: -1 | 1; at: number }
  | { type: "moveTo"; from: number; to: number; handleId?: string; at: number }
  | { type: "duplicate"; index: number; key: string; videoId: string; at: number }
  | { type: "delete"; index: number; at: number }
  | { type: "add"; item: Item; at: number }
  | { type: "undoDelete" }
  | { type: "step"; command: "undo" | "redo" }
  | { type: "restore"; draft: Draft; at: number }
  | { type: "discard" }
  /** The loader read the saved article again ("reload the saved version", "take theirs", a discarded publication). */
  | { type: "reload"; article: LoadedArticle; conflict: boolean }
  | { type: "saved"; saved: SavedArticle }
  | { type: "refused"; target: Exclude<FocusTarget, null>; submitted: Draft }
  | { type: "overwritten" }
  | { type: "view"; change: EditorView }
  /** A call answered 401, at this API path. */
  | { type: "unauthorized"; path: string };

const SAVE_PATH = "/api/manage/update_article";

function loaded(article: LoadedArticle): { draft: Draft; saved: SavedArticle } {
  const draft = draftFrom(article);
  return { draft, saved: { snapshot: snapshotOf(draft), name: article.unformatted_name, slug: article.name } };
}

export function initialEditorState(article: LoadedArticle): EditorState {
  const { draft, saved } = loaded(article);
  const base = { lastDeleted: null, openKey: null, dialog: null, announce: null, session: null, focus: null };
  return { ...base, history: initialHistory(draft), saved, tab: "edit" };
}

/** A change of the draft: a step of the history, or merged into the last one while typing in one field. */
function edit(state: EditorState, next: (draft: Draft) => Draft, at: number): EditorState {
  const history = historyReducer(state.history, { type: "set", next, at });
  return history === state.history ? state : { ...state, history };
}

const withItems = (state: EditorState, items: Item[], at: number) => edit(state, (draft) => ({ ...draft, items }), at);

const withFocus = (state: EditorState, focus: FocusRequest): EditorState => ({ ...state, focus });
const control = (id: string): FocusRequest => ({ kind: "control", id });

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { items } = state.history.present;
  switch (action.type) {
    case "draft":
      return edit(state, (draft) => ({ ...draft, ...action.change }), action.at);
    case "element": {
      const next = (draft: Draft) => ({ ...draft, items: draft.items.map((item) => (item.key === action.key ? { ...item, element: action.element } : item)) });
      return edit(state, next, action.at);
    }
    case "move": {
      const item = items[action.index];
      if (!item) return state;
      // The pressed button keeps focus, even when the move makes it inert at either end of the list.
      const moved = withItems(state, moveItem(items, action.index, action.by), action.at);
      return withFocus(moved, control(`${elementDomId(item.key)}-${action.by === -1 ? "up" : "down"}`));
    }
    case "moveTo": {
      const item = items[action.from];
      if (!item) return state;
      const moved = withItems(state, moveItemTo(items, action.from, action.to), action.at);
      // A keyboard drop keeps focus on the handle that moved (decision 078); a pointer drop shows the card.
      return withFocus(moved, action.handleId ? control(action.handleId) : { kind: "element", key: item.key });
    }
    case "duplicate": {
      const next = withItems(state, duplicateItem(items, action.index, action.key, action.videoId), action.at);
      return withFocus({ ...next, openKey: action.key }, { kind: "fields", key: action.key });
    }
    case "add": {
      const next = withItems(state, [...items, action.item], action.at);
      return withFocus({ ...next, openKey: action.item.key }, { kind: "fields", key: action.item.key });
    }
    case "delete": {
      const item = items[action.index];
      if (!item) return state;
      const rest = items.filter((_, i) => i !== action.index);
      const next = withItems(state, rest, action.at);
      const lastDeleted = { item, index: action.index, revision: next.history.revision };
      // Focus to the element after it, else (the last one went) to the add panel.
      const after = rest[action.index];
      return withFocus({ ...next, lastDeleted }, after ? { kind: "element", key: after.key } : control(ADD_ID));
    }
    // The message's "undo" is the history's undo of that delete, while that delete is the last step.
    case "undoDelete": {
      const deleted = state.lastDeleted;
      if (!deleted || deleted.revision !== state.history.revision) return state;
      const history = historyReducer(state.history, { type: "undo" });
      return withFocus({ ...state, history, lastDeleted: null }, { kind: "element", key: deleted.item.key });
    }
    // Undo and redo open the card of the element they bring back or change, and say what they did.
    case "step": {
      const target = action.command === "undo" ? state.history.past.at(-1) : state.history.future[0];
      if (!target) return state;
      const key = affectedItemKey(state.history.present, target);
      const announce = { message: action.command === "undo" ? "keep.undone" : "keep.redone", alternate: !state.announce?.alternate } as const;
      const history = historyReducer(state.history, { type: action.command });
      // Focus that fell with an element the step removed goes to the button of that command.
      const focus = { kind: "ifLost", id: action.command === "undo" ? UNDO_ID : REDO_ID } as const;
      return withFocus({ ...state, history, openKey: key ?? state.openKey, announce }, focus);
    }
    case "restore": {
      const next = edit(state, () => action.draft, action.at);
      // Undo is next to hand, to go back on the restore.
      return withFocus({ ...next, announce: { message: "keep.restored", alternate: false } }, control(UNDO_ID));
    }
    case "discard":
      return withFocus(state, control(NAME_ID));
    case "reload": {
      const { draft, saved } = loaded(action.article);
      const history = historyReducer(state.history, { type: "reset", draft });
      // Taking their version removes the conflict panel that had focus: Save gets it.
      return { ...state, history, saved, lastDeleted: null, focus: action.conflict ? control(SAVE_ID) : state.focus };
    }
    case "saved":
      return { ...state, saved: action.saved, lastDeleted: null };
    // Open the faulty element's card; once it renders, focus goes to the field (below the sticky bars).
    case "refused": {
      const focus = refusedFocus(action.target, action.submitted);
      return { ...state, focus, openKey: focus.key ?? state.openKey };
    }
    // "Keep mine" saved: the conflict panel goes, focus goes to Save rather than nowhere.
    case "overwritten":
      return withFocus(state, control(SAVE_ID));
    // Nothing changed is the same state: React renders nothing (the tab is asked for after every refusal).
    case "view": {
      const { change } = action;
      const same = (Object.keys(change) as (keyof EditorView)[]).every((key) => state[key] === change[key]);
      return same ? state : { ...state, ...change };
    }
    // A refused save is made again once logged in, whichever call met the 401 last.
    case "unauthorized":
      return { ...state, session: { retrySave: Boolean(state.session?.retrySave) || action.path === SAVE_PATH } };
  }
}
