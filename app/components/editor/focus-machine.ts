// Where focus goes after each editor action (decision 137): pure, so the rules are tested without a browser.
// An action leaves a request in the editor's state (editor-reducer.ts says which); once the page has rendered
// its result, the request is resolved against the page (`focusMove`) and dropped. Moves, deletes and undo
// re-order or remove DOM nodes, which drops focus: the request puts it back where the person was, or on the
// nearest thing that still exists.
import type { Draft } from "./editor-state";
import { fieldTarget } from "./field-paths";
import type { FocusTarget } from "./use-save-article";

/** The element card's id in the list; its controls add `-up`, `-down` and `-handle`. */
export const elementDomId = (key: string) => `editor-${key}`;
export const UNDO_ID = "editor-undo";
export const REDO_ID = "editor-redo";
export const SAVE_ID = "editor-save";
export const NAME_ID = "editor-name";
/** The add panel's type chooser. */
export const ADD_ID = "editor-add-type";

export type FocusRequest =
  | { kind: "control"; id: string }
  | { kind: "element"; key: string }
  /** The first field of the element's (open) card, else the card. */
  | { kind: "fields"; key: string }
  /** A refused field (decision 069): its input once its card is open, else the card; scrolled below the bars. */
  | { kind: "refused"; inputId: string | null; key: string | null }
  /** Only when focus fell with an element an undo or redo removed. */
  | { kind: "ifLost"; id: string };

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
  /** Whether focus fell: nothing, or the page's body, has it, or it is on a removed node. */
  lost(): boolean;
}

/** What to do once the page shows the action's result: focus `element`, scrolled below the sticky bars if `reveal`. */
export function focusMove<E>(request: FocusRequest, page: FocusPage<E>): { element: E; reveal: boolean } | null {
  const focus = (element: E | null) => (element === null ? null : { element, reveal: false });
  switch (request.kind) {
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
