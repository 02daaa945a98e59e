import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

/** The row to focus: the first of `keys` still listed, else the row now at `index` (its neighbour). */
export interface FocusTarget {
  keys: string[];
  index: number;
  part: "link" | "more";
}

interface Pending {
  target: FocusTarget;
  afterReload: boolean;
  sawReload: boolean;
}

/**
 * Puts focus back on a row after an action, so it is never left on <body>. Actions reload the list, so
 * `focusAfterReload` waits for the reload to start and end, then looks for the row among the new items.
 * With no row left, `fallback` takes focus.
 */
export function useRowFocus(
  list: RefObject<HTMLElement | null>,
  fallback: RefObject<HTMLElement | null>,
  { items, reloading, busy }: { items: unknown; reloading: boolean; busy: boolean },
) {
  const pending = useRef<Pending | null>(null);
  const [request, setRequest] = useState(0);

  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    if (p.afterReload) {
      if (reloading) p.sawReload = true;
      if (reloading || !p.sawReload || busy) return;
    }
    pending.current = null;
    const rows = [...(list.current?.querySelectorAll<HTMLElement>("[data-key]") ?? [])];
    const row = p.target.keys.map((key) => rows.find((r) => r.dataset.key === key)).find(Boolean) ?? rows[Math.min(p.target.index, rows.length - 1)];
    const selector = p.target.part === "more" ? ".tree-row__more" : ".tree-row__link, .tree-row__more";
    (row?.querySelector<HTMLElement>(selector) ?? fallback.current)?.focus();
  }, [list, fallback, items, reloading, busy, request]);

  const schedule = useCallback((target: FocusTarget, afterReload: boolean) => {
    pending.current = { target, afterReload, sawReload: false };
    setRequest((n) => n + 1);
  }, []);

  return {
    focusNow: useCallback((target: FocusTarget) => schedule(target, false), [schedule]),
    focusAfterReload: useCallback((target: FocusTarget) => schedule(target, true), [schedule]),
  };
}
