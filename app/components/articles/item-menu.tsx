import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { useOutsidePress } from "~/hooks/use-outside-press";
import type { Destination } from "./tree-helpers";

export interface MenuPosition {
  x: number;
  y: number;
}

interface ItemMenuProps {
  label: string;
  position: MenuPosition;
  destinations: Destination[];
  onRename: () => void;
  onMove: (destination: Destination) => void;
  onDelete: () => void;
  onClose: () => void;
}

/** The context menu of a row: opened by a right-click or the row's "⋯" button; arrows move, Escape closes. */
export function ItemMenu({ label, position, destinations, onRename, onMove, onDelete, onClose }: ItemMenuProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [moveOpen, setMoveOpen] = useState(false);
  useOutsidePress(ref, true, onClose);

  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    event.preventDefault();
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === "ArrowDown" ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next]?.focus();
  }

  // Keep the menu inside the window, whichever corner was clicked.
  const style = {
    left: Math.max(8, Math.min(position.x, (typeof window === "undefined" ? 1024 : window.innerWidth) - 248)),
    top: Math.max(8, position.y),
  };

  return (
    <div ref={ref} className="item-menu" role="menu" aria-label={label} style={style} onKeyDown={onKeyDown}>
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
                {d.isParent ? `↑ ${t("articles.parentFolder")} (${d.label || t("articles.root")})` : d.label}
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
