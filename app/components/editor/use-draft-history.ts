import { useCallback, useEffect, useReducer, useRef, type Dispatch, type SetStateAction } from "react";
import type { Draft } from "./editor-state";
import { historyCommand, historyReducer, initialHistory, isTextEntry } from "./history";

/**
 * The editor's draft with undo and redo (decision 072). `setDraft` has useState's signature, so the code
 * that edits the draft does not change; each change is a step, typing in one field merged until a pause.
 */
export function useDraftHistory(init: () => Draft) {
  const [state, dispatch] = useReducer(historyReducer, undefined, () => initialHistory(init()));
  const setDraft: Dispatch<SetStateAction<Draft>> = useCallback((next) => dispatch({ type: "set", next, at: Date.now() }), []);
  const undo = useCallback(() => dispatch({ type: "undo" }), []);
  const redo = useCallback(() => dispatch({ type: "redo" }), []);
  /** Replaces the draft and forgets the steps (a reload of the saved version). */
  const reset = useCallback((draft: Draft) => dispatch({ type: "reset", draft }), []);
  return {
    draft: state.present,
    setDraft,
    undo,
    redo,
    reset,
    canUndo: state.past.length > 0,
    canRedo: state.future.length > 0,
    /** The draft an undo would bring back, and a redo. */
    previous: state.past.at(-1) ?? null,
    next: state.future[0] ?? null,
    revision: state.revision,
  };
}

/**
 * Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z and Ctrl+Y anywhere on the page, except in a text field (the browser undoes
 * the typing there) and while a modal dialog is open.
 */
export function useHistoryKeys(onCommand: (command: "undo" | "redo") => void) {
  const latest = useRef(onCommand);
  latest.current = onCommand;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const command = historyCommand(event);
      if (!command || isTextEntry(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      latest.current(command);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
