import { useEffect, type RefObject } from "react";

export type OutsideReason = "pointer" | "escape";

/**
 * Calls `onOutside` when the pointer is pressed outside `ref`, or Escape typed, while `active`. The reason
 * lets a caller give focus back after Escape without stealing it from whatever a click landed on.
 */
export function useOutsidePress(ref: RefObject<HTMLElement | null>, active: boolean, onOutside: (reason: OutsideReason) => void) {
  useEffect(() => {
    if (!active) return;
    function onPointerDown(event: PointerEvent) {
      if (ref.current && !ref.current.contains(event.target as Node)) onOutside("pointer");
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape") onOutside("escape");
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [ref, active, onOutside]);
}
