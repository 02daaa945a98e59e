import { useEffect, type RefObject } from "react";

/** Calls `onOutside` when the pointer is pressed, or Escape typed, outside `ref` while `active`. */
export function useOutsidePress(ref: RefObject<HTMLElement | null>, active: boolean, onOutside: () => void) {
  useEffect(() => {
    if (!active) return;
    function onPointerDown(event: PointerEvent) {
      if (ref.current && !ref.current.contains(event.target as Node)) onOutside();
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") onOutside();
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [ref, active, onOutside]);
}
