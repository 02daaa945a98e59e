import { useEffect, useRef } from "react";
import { historyCommand, isTextEntry } from "./history";

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
