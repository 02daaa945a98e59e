import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useOutsidePress, type OutsideReason } from "~/hooks/use-outside-press";
import type { Destination } from "./tree-helpers";

export interface MenuPosition {
  x: number;
  y: number;
}

/** Where focus goes once the menu closes: its "⋯" button, the next stop after that button, or nowhere. */
export type MenuExit = "button" | "next" | "none";

interface ItemMenuProps {
  label: string;
  position: MenuPosition;
  destinations: Destination[];
  onRename: () => void;
  onMove: (destination: Destination) => void;
  onDelete: () => void;
  onClose: (exit: MenuExit) => void;
}

const MARGIN = 8;

/**
 * The context menu of a row, opened by a right-click or the row's "⋯" button. Arrows, Home and End move;
 * Escape closes it back to the "⋯" button; Tab and Shift+Tab leave it (and close it), as in a menu button.
 */
export function ItemMenu({ label, position, destinations, onRename, onMove, onDelete, onClose }: ItemMenuProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [moveOpen, setMoveOpen] = useState(false);
  const [place, setPlace] = useState({ left: position.x, top: position.y });
  const onOutside = useCallback((reason: OutsideReason) => onClose(reason === "escape" ? "button" : "none"), [onClose]);
  useOutsidePress(ref, true, onOutside);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);

  // Keep the whole menu inside the window, whichever corner was clicked and however long the list.
  useLayoutEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const maxLeft = window.innerWidth - menu.offsetWidth - MARGIN;
    const maxTop = window.innerHeight - menu.offsetHeight - MARGIN;
    setPlace({ left: Math.max(MARGIN, Math.min(position.x, maxLeft)), top: Math.max(MARGIN, Math.min(position.y, maxTop)) });
  }, [position.x, position.y, moveOpen]);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === "Tab") {
      event.preventDefault();
      onClose(event.shiftKey ? "button" : "next");
      return;
    }
    const moveItem = ref.current?.querySelector<HTMLElement>('[aria-haspopup="true"]');
    const inSubmenu = Boolean((document.activeElement as HTMLElement | null)?.closest(".item-menu__sub"));
    // ArrowRight on "Move to" opens its list and enters it; ArrowLeft inside the list goes back out.
    if (event.key === "ArrowRight" && document.activeElement === moveItem) {
      event.preventDefault();
      setMoveOpen(true);
      requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('.item-menu__sub [role="menuitem"]')?.focus());
      return;
    }
    if (event.key === "ArrowLeft" && inSubmenu) {
      event.preventDefault();
      setMoveOpen(false);
      moveItem?.focus();
      return;
    }
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next: Record<string, number> = {
      ArrowDown: (at + 1) % items.length,
      ArrowUp: (at - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    };
    if (!(event.key in next)) return;
    event.preventDefault();
    items[next[event.key]!]?.focus();
  }

  return (
    <div ref={ref} className="item-menu" role="menu" aria-label={label} style={place} onKeyDown={onKeyDown}>
      <button type="button" role="menuitem" onClick={onRename}>
        {t("articles.rename")}
      </button>
      <button type="button" role="menuitem" aria-haspopup="true" aria-expanded={moveOpen} onClick={() => setMoveOpen((v) => !v)}>
        {t("articles.moveTo")} <span aria-hidden="true">{moveOpen ? "▾" : "▸"}</span>
      </button>
      {moveOpen ? (
        <div role="group" aria-label={t("articles.moveTo")} className="item-menu__sub">
          {destinations.length === 0 ? (
            <p className="item-menu__empty">{t("articles.noDestination")}</p>
          ) : (
            destinations.map((d) => (
              <button key={`${d.toPathArray.join("/")}/${d.toFolderId ?? ""}`} type="button" role="menuitem" onClick={() => onMove(d)}>
                {d.isParent ? `↑ ${t("articles.parentFolder")} (${d.label || t("articles.root")})` : d.label || t("articles.root")}
              </button>
            ))
          )}
        </div>
      ) : null}
      <button type="button" role="menuitem" className="item-menu__danger" onClick={onDelete}>
        {t("articles.delete")}
      </button>
    </div>
  );
}
