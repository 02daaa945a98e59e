// Where focus goes after each editor action (decision 137): pure, so the rules are tested without a browser.
// An action leaves a request (`focusAfter`); once the page has rendered its result, the request is resolved
// against the page (`focusMove`) and dropped. Moves, deletes and undo re-order or remove DOM nodes, which
// drops focus: the request puts it back where the person was, or on the nearest thing that still exists.
import type { Draft } from "./editor-state";
import { fieldTarget } from "./field-paths";
import type { FocusTarget } from "./use-save-article";

/** The element card's id in the list; its controls add `-up`, `-down` and `-handle`. */
export const elementDomId = (key: string) => `editor-${key}`;
export const UNDO_ID = "editor-undo";
export const REDO_ID = "editor-redo";
export const SAVE_ID = "editor-save";
export const NAME_ID = "editor-name";

export type FocusRequest =
  | { kind: "control"; id: string }
  | { kind: "element"; key: string }
  /** The first field of the element's (open) card, else the card. */
  | { kind: "fields"; key: string }
  | { kind: "add" }
  /** A refused field (decision 069): its input once its card is open, else the card; scrolled below the bars. */
  | { kind: "refused"; inputId: string | null; key: string | null }
  /** Only when focus fell with an element an undo or redo removed. */
  | { kind: "ifLost"; id: string };

/** What an action did, as far as focus is concerned. */
export type FocusEvent =
  | { type: "moved"; key: string; by: -1 | 1 }
  | { type: "dropped"; key: string; handleId?: string }
  | { type: "inserted"; key: string }
  | { type: "deleted"; nextKey: string | null }
  | { type: "undeleted"; key: string }
  | { type: "stepped"; command: "undo" | "redo" }
  | { type: "restored" }
  | { type: "discarded" }
  | { type: "reloaded"; conflict: boolean }
  | { type: "overwritten" };

/** The request an action leaves, or null when focus stays where it is. */
export function focusAfter(event: FocusEvent): FocusRequest | null {
  switch (event.type) {
    // The pressed button keeps focus, even when the move makes it inert at either end of the list.
    case "moved":
      return { kind: "control", id: `${elementDomId(event.key)}-${event.by === -1 ? "up" : "down"}` };
    // A keyboard drop keeps focus on the handle that moved (decision 078); a pointer drop shows the card.
    case "dropped":
      return event.handleId ? { kind: "control", id: event.handleId } : { kind: "element", key: event.key };
    // An added or duplicated element: its first field, to start typing.
    case "inserted":
      return { kind: "fields", key: event.key };
    // The element after the deleted one, else the add panel (the last one went).
    case "deleted":
      return event.nextKey ? { kind: "element", key: event.nextKey } : { kind: "add" };
    case "undeleted":
      return { kind: "element", key: event.key };
    case "stepped":
      return { kind: "ifLost", id: event.command === "undo" ? UNDO_ID : REDO_ID };
    // A kept draft restored: Undo is next to hand, to go back on it.
    case "restored":
      return { kind: "control", id: UNDO_ID };
    case "discarded":
      return { kind: "control", id: NAME_ID };
    // Taking their version removes the conflict panel that had focus: Save gets it.
    case "reloaded":
      return event.conflict ? { kind: "control", id: SAVE_ID } : null;
    // "Keep mine" saved: the panel goes, focus goes to Save rather than nowhere.
    case "overwritten":
      return { kind: "control", id: SAVE_ID };
  }
}

/** Where focus goes when a save is refused: the field's input, and the element card to open for it. */
export function refusedFocus(target: Exclude<FocusTarget, null>, submitted: Draft): Extract<FocusRequest, { kind: "refused" }> {
  if (typeof target === "object") {
    const place = fieldTarget(target.path, submitted);
    return { kind: "refused", inputId: place?.inputId ?? null, key: place?.key ?? null };
  }
  return { kind: "refused", inputId: { name: NAME_ID, slug: "editor-slug", colour: "editor-colour-hex" }[target], key: null };
}

/** The page as focus sees it (the DOM in the browser, plain objects in the tests). */
export interface FocusPage<E> {
  byId(id: string): E | null;
  /** The first field inside an element's card. */
  firstField(card: E): E | null;
  /** The add panel's type chooser. */
  add: E | null;
  /** Whether focus fell: nothing, or the page's body, has it, or it is on a removed node. */
  lost(): boolean;
}

/** What to do once the page shows the action's result: focus `element`, scrolled below the sticky bars if `reveal`. */
export function focusMove<E>(request: FocusRequest, page: FocusPage<E>): { element: E; reveal: boolean } | null {
  const focus = (element: E | null) => (element === null ? null : { element, reveal: false });
  switch (request.kind) {
    case "add":
      return focus(page.add);
    case "control":
      return focus(page.byId(request.id));
    case "ifLost":
      return page.lost() ? focus(page.byId(request.id)) : null;
    case "element":
      return focus(page.byId(elementDomId(request.key)));
    case "fields": {
      const card = page.byId(elementDomId(request.key));
      return focus(card === null ? null : (page.firstField(card) ?? card));
    }
    case "refused": {
      const input = request.inputId ? page.byId(request.inputId) : null;
      const place = input ?? (request.key ? page.byId(elementDomId(request.key)) : null);
      return place === null ? null : { element: place, reveal: true };
    }
  }
}
