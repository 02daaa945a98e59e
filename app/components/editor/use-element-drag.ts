import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Item } from "./editor-state";
import { elementDomId } from "./focus-machine";

/** A card being dragged from `from`, dropping at `to`; `keyboard`: picked up with the handle's keys (decision 078). */
export interface Drag {
  from: number;
  to: number;
  keyboard?: boolean;
}

/** What a key did: the drag after it, the words said (`editorCards.<say>`) and the position they name (from 0). */
export interface KeyStep {
  drag: Drag | null;
  say: "pickedUp" | "movingTo" | "moveCancelled" | "droppedInPlace" | "moved";
  at: number;
}

/**
 * A key on the handle of card `index` of `count`, pure: Space or Enter picks up, arrows, Home and End move,
 * Space or Enter drops, Escape (and leaving the handle) cancels. Null: the key is not the drag's (it goes on).
 */
export function keyStep(drag: Drag | null, index: number, key: string, count: number): KeyStep | null {
  const lifted = drag?.keyboard && drag.from === index ? drag : null;
  const isDrop = key === " " || key === "Enter";
  if (!lifted) return isDrop ? { drag: { from: index, to: index, keyboard: true }, say: "pickedUp", at: index } : null;
  let to = lifted.to;
  if (key === "ArrowUp" || key === "ArrowLeft") to = Math.max(0, to - 1);
  else if (key === "ArrowDown" || key === "ArrowRight") to = Math.min(count - 1, to + 1);
  else if (key === "Home") to = 0;
  else if (key === "End") to = count - 1;
  else if (key === "Escape") return { drag: null, say: "moveCancelled", at: index };
  else if (isDrop) return { drag: null, say: lifted.to === index ? "droppedInPlace" : "moved", at: lifted.to };
  else return null;
  return { drag: to === lifted.to ? lifted : { ...lifted, to }, say: "movingTo", at: to };
}

/** Where a dragged card would land: the number of other cards whose middle is above the pointer. */
export function dropIndex(boxes: readonly { top: number; height: number }[], from: number, clientY: number): number {
  let index = 0;
  boxes.forEach((box, i) => {
    if (i !== from && clientY > box.top + box.height / 2) index++;
  });
  return index;
}

/**
 * Both ways a card moves by its handle: the pointer (mouse, pen and touch) and the keys (decision 078), and
 * what is announced of every step. `onMoveTo(from, to, focusId)` is called once, at the drop.
 */
export function useElementDrag(items: Item[], onMoveTo: (from: number, to: number, focusId?: string) => void) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLOListElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const typeName = (item: Item) => t(`editor.types.${item.element.type}`);
  const count = items.length;
  // A trailing no-break space alternates, so the same words (the same position twice) are read again.
  const say = (words: string) => setAnnouncement((current) => words + (current.endsWith("\u00a0") ? "" : "\u00a0"));
  const announceMove = (item: Item, to: number) => say(t("editorCards.moved", { type: typeName(item), position: to + 1, count }));

  // The place a keyboard move would drop at stays on screen as the arrows take it down a long list.
  const keyboardTo = drag?.keyboard ? drag.to : null;
  useEffect(() => {
    if (keyboardTo === null) return;
    listRef.current?.children[keyboardTo]?.scrollIntoView({ block: "nearest" });
  }, [keyboardTo]);

  // A key on a handle; leaving a picked-up handle (Tab, a click elsewhere) is Escape: the element goes back, announced.
  function onKey(key: string, index: number, event?: ReactKeyboardEvent<HTMLElement>) {
    const item = items[index];
    const step = item && keyStep(drag, index, key, count);
    if (!step) return;
    event?.preventDefault();
    setDrag(step.drag); // the same drag when nothing moved: React renders nothing
    if (step.say === "moved") onMoveTo(index, step.at, `${elementDomId(item.key)}-handle`);
    say(t(`editorCards.${step.say}`, { type: typeName(item), position: step.at + 1, count }));
  }

  function startDrag(event: ReactPointerEvent<HTMLElement>, index: number) {
    if (event.button !== 0 || drag?.keyboard) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ from: index, to: index });
  }

  function moveDrag(event: ReactPointerEvent<HTMLElement>) {
    if (!drag || drag.keyboard || !listRef.current) return;
    // Near the window's top or bottom edge the page scrolls, so a card can travel past the screen.
    const edge = 48;
    if (event.clientY < edge) window.scrollBy(0, -16);
    else if (event.clientY > window.innerHeight - edge) window.scrollBy(0, 16);
    const to = dropIndex(
      Array.from(listRef.current.children, (card) => card.getBoundingClientRect()),
      drag.from,
      event.clientY,
    );
    if (to !== drag.to) setDrag({ ...drag, to });
  }

  function endDrag() {
    if (!drag || drag.keyboard) return;
    setDrag(null);
    const item = items[drag.from];
    if (!item || drag.to === drag.from) return;
    onMoveTo(drag.from, drag.to);
    announceMove(item, drag.to);
  }

  // The list, the drag, the words said, the element's type name, what the up/down buttons say, and the handle's
  // own props (keys, blur, pointer).
  return [
    listRef,
    drag,
    announcement,
    setAnnouncement,
    typeName,
    announceMove,
    (index: number) => ({
      onKeyDown: (event: ReactKeyboardEvent<HTMLElement>) => onKey(event.key, index, event),
      onBlur: () => onKey("Escape", index),
      onPointerDown: (event: ReactPointerEvent<HTMLElement>) => startDrag(event, index),
      onPointerMove: moveDrag,
      onPointerUp: endDrag,
      onPointerCancel: () => setDrag(null),
    }),
  ] as const;
}
