import { useEffect, useRef } from "react";

/** Ctrl+S, or Cmd+S on a Mac, with no other modifier. */
export function isSaveShortcut(event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): boolean {
  return !event.altKey && !event.shiftKey && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s";
}

/**
 * Ctrl/Cmd+S saves the draft from anywhere on the page, inside a text field too (decision 124): the browser's
 * "save this page" is never what someone writing an article means. Focus stays where it is. While a modal
 * dialog is open the keys do nothing (the dialog is what is being answered).
 */
export function useSaveKey(onSave: () => void) {
  const latest = useRef(onSave);
  latest.current = onSave;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || !isSaveShortcut(event)) return;
      event.preventDefault();
      if (event.repeat || document.querySelector("dialog[open]")) return;
      latest.current();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
