// Errors beside their fields (issue 20 §2, decision 069). The editor knows which inputs a refused save
// names (by id, see field-paths.ts); every field component reads its own message from this context, so
// no form passes errors down by hand and a message is never shown twice.
import { createContext, useContext } from "react";

/** Input id → the message shown under that input. */
export type FieldErrorMap = Readonly<Record<string, string>>;

const FieldErrorsContext = createContext<FieldErrorMap>({});

export const FieldErrorsProvider = FieldErrorsContext.Provider;

/** The message a refused save left on the input `id`, if any. */
export function useFieldError(id: string): string | undefined {
  return useContext(FieldErrorsContext)[id];
}

/** How far down the sticky bars (site menu, the editor's action bar) reach once stuck, in px. */
export function stickyBottom(): number {
  let bottom = 0;
  for (const bar of document.querySelectorAll<HTMLElement>(".navbar, .editor-bar, [data-sticky-bar]")) {
    const style = getComputedStyle(bar);
    if (style.position !== "sticky" && style.position !== "fixed") continue;
    const box = bar.getBoundingClientRect();
    if (box.height === 0) continue;
    const top = Number.parseFloat(style.top);
    bottom = Math.max(bottom, Number.isFinite(top) ? top + box.height : box.bottom);
  }
  return bottom;
}

/**
 * Focus on `input` and scroll so its whole field (label, input, message) sits below the sticky bars,
 * not under them; nothing moves when it is already in full view.
 */
export function revealField(input: HTMLElement): void {
  input.focus({ preventScroll: true });
  const box = (input.closest<HTMLElement>(".field, .ef-check, .ef-upload, fieldset") ?? input).getBoundingClientRect();
  const top = stickyBottom() + 12;
  const bottom = window.innerHeight - 12;
  if (box.top >= top && box.bottom <= bottom) return;
  // Taller than the room left: its top (the label) goes just below the bars.
  window.scrollBy({ top: box.top - top, behavior: "instant" as ScrollBehavior });
}
