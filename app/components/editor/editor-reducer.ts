// The article editor's state as one pure reducer (decision 137): the draft with its undo history (decision
// 072), the saved article it is compared with, the open card, the dialog, the tab, what is read out, the
// login dialog and where focus goes next. What is not pure (the clock, new keys, the server, the browser's
// storage) stays in use-article-editor.ts and reaches here as values in the actions.
import type { ArticleContent, MetadatasElement } from "~/content/schema";
import { draftFrom, duplicateItem, moveItem, moveItemTo, snapshotOf, type BodyElement, type Draft, type Item } from "./editor-state";
import type { EditorTab } from "./editor-tabs";
import { focusAfter, refusedFocus, type FocusEvent, type FocusRequest } from "./focus-machine";
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
  /** Read out after undo, redo or a restore; `alternate` adds a no-break space, so the same words are read again. */
  announce: { message: "undone" | "redone" | "restored"; alternate: boolean } | null;
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
export type EditorAction =
  | { type: "name"; name: string; at: number }
  | { type: "metadatas"; metadatas: MetadatasElement; at: number }
  /** By key, not position: a change that lands after a move or a delete in the same batch edits its own element. */
  | { type: "element"; key: string; element: BodyElement; at: number }
  | { type: "move"; index: number; by: -1 | 1; at: number }
  | { type: "moveTo"; from: number; to: number; handleId?: string; at: number }
  | { type: "duplicate"; index: number; key: string; videoId: string; at: number }
  | { type: "delete"; index: number; at: number }
  | { type: "add"; item: Item; at: number }
  /** The draft replaced as one step (links completed before a save). */
  | { type: "replace"; draft: Draft; at: number }
  | { type: "undoDelete" }
  | { type: "step"; command: "undo" | "redo" }
  | { type: "restore"; draft: Draft; at: number }
  | { type: "discard" }
  /** The loader read the saved article again ("reload the saved version", "take theirs", a discarded publication). */
  | { type: "reload"; article: LoadedArticle; conflict: boolean }
  | { type: "saved"; saved: SavedArticle }
  | { type: "refused"; target: Exclude<FocusTarget, null>; submitted: Draft }
  | { type: "overwritten" }
  | { type: "open"; key: string | null }
  | { type: "dialog"; dialog: EditorDialog | null }
  | { type: "tab"; tab: EditorTab }
  /** A call answered 401, at this API path. */
  | { type: "unauthorized"; path: string }
  | { type: "sessionClosed" }
  | { type: "focused" };

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

function withFocus(state: EditorState, event: FocusEvent): EditorState {
  const focus = focusAfter(event);
  return focus ? { ...state, focus } : state;
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { items } = state.history.present;
  switch (action.type) {
    case "name":
      return edit(state, (draft) => ({ ...draft, name: action.name }), action.at);
    case "metadatas":
      return edit(state, (draft) => ({ ...draft, metadatas: action.metadatas }), action.at);
    case "element": {
      const next = (draft: Draft) => ({ ...draft, items: draft.items.map((item) => (item.key === action.key ? { ...item, element: action.element } : item)) });
      return edit(state, next, action.at);
    }
    case "replace":
      return edit(state, () => action.draft, action.at);
    case "move": {
      const item = items[action.index];
      if (!item) return state;
      return withFocus(withItems(state, moveItem(items, action.index, action.by), action.at), { type: "moved", key: item.key, by: action.by });
    }
    case "moveTo": {
      const item = items[action.from];
      if (!item) return state;
      const moved = withItems(state, moveItemTo(items, action.from, action.to), action.at);
      return withFocus(moved, { type: "dropped", key: item.key, handleId: action.handleId });
    }
    case "duplicate": {
      const next = withItems(state, duplicateItem(items, action.index, action.key, action.videoId), action.at);
      return withFocus({ ...next, openKey: action.key }, { type: "inserted", key: action.key });
    }
    case "add": {
      const next = withItems(state, [...items, action.item], action.at);
      return withFocus({ ...next, openKey: action.item.key }, { type: "inserted", key: action.item.key });
    }
    case "delete": {
      const item = items[action.index];
      if (!item) return state;
      const rest = items.filter((_, i) => i !== action.index);
      const next = withItems(state, rest, action.at);
      const lastDeleted = { item, index: action.index, revision: next.history.revision };
      return withFocus({ ...next, lastDeleted }, { type: "deleted", nextKey: rest[action.index]?.key ?? null });
    }
    // The message's "undo" is the history's undo of that delete, while that delete is the last step.
    case "undoDelete": {
      const deleted = state.lastDeleted;
      if (!deleted || deleted.revision !== state.history.revision) return state;
      const history = historyReducer(state.history, { type: "undo" });
      return withFocus({ ...state, history, lastDeleted: null }, { type: "undeleted", key: deleted.item.key });
    }
    // Undo and redo open the card of the element they bring back or change, and say what they did.
    case "step": {
      const target = action.command === "undo" ? state.history.past.at(-1) : state.history.future[0];
      if (!target) return state;
      const key = affectedItemKey(state.history.present, target);
      const announce = { message: action.command === "undo" ? "undone" : "redone", alternate: !state.announce?.alternate } as const;
      const history = historyReducer(state.history, { type: action.command });
      return withFocus({ ...state, history, openKey: key ?? state.openKey, announce }, { type: "stepped", command: action.command });
    }
    case "restore": {
      const next = edit(state, () => action.draft, action.at);
      return withFocus({ ...next, announce: { message: "restored", alternate: false } }, { type: "restored" });
    }
    case "discard":
      return withFocus(state, { type: "discarded" });
    case "reload": {
      const { draft, saved } = loaded(action.article);
      const history = historyReducer(state.history, { type: "reset", draft });
      return withFocus({ ...state, history, saved, lastDeleted: null }, { type: "reloaded", conflict: action.conflict });
    }
    case "saved":
      return { ...state, saved: action.saved, lastDeleted: null };
    // Open the faulty element's card; once it renders, focus goes to the field (below the sticky bars).
    case "refused": {
      const focus = refusedFocus(action.target, action.submitted);
      return { ...state, focus, openKey: focus.key ?? state.openKey };
    }
    case "overwritten":
      return withFocus(state, { type: "overwritten" });
    case "open":
      return state.openKey === action.key ? state : { ...state, openKey: action.key };
    case "dialog":
      return state.dialog === action.dialog ? state : { ...state, dialog: action.dialog };
    case "tab":
      return state.tab === action.tab ? state : { ...state, tab: action.tab };
    // A refused save is made again once logged in, whichever call met the 401 last.
    case "unauthorized":
      return { ...state, session: { retrySave: Boolean(state.session?.retrySave) || action.path === SAVE_PATH } };
    case "sessionClosed":
      return state.session === null ? state : { ...state, session: null };
    case "focused":
      return state.focus === null ? state : { ...state, focus: null };
  }
}
