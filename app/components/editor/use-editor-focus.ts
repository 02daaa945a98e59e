import { useEffect, useRef, type Dispatch } from "react";
import type { EditorAction } from "./editor-reducer";
import { revealField } from "./field-errors";
import { focusMove, type FocusRequest } from "./focus-machine";

const FIRST_FIELD = "[data-fields] :is(input, textarea, select, button, [tabindex='0'])";

/**
 * Carries out the focus machine's request once the page shows the action's result (decision 137), then drops
 * it; and a conflict, when its panel opens next to Save, takes focus to its heading, where the eyes are.
 */
export function useEditorFocus(request: FocusRequest | null, dispatch: Dispatch<EditorAction>, conflictShown: boolean) {
  const addRef = useRef<HTMLSelectElement>(null);
  const conflictHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!request) return;
    dispatch({ type: "focused" });
    const move = focusMove<HTMLElement>(request, {
      byId: (id) => document.getElementById(id),
      firstField: (card) => card.querySelector<HTMLElement>(FIRST_FIELD),
      // The Workers types' `remove()` clashes with the DOM's in this one subtype: a plain upcast.
      add: addRef.current as unknown as HTMLElement | null,
      lost() {
        const active = document.activeElement;
        return !active || active === document.body || !active.isConnected;
      },
    });
    if (move?.reveal) revealField(move.element);
    else move?.element.focus();
  }, [request, dispatch]);

  useEffect(() => {
    if (conflictShown) conflictHeading.current?.focus();
  }, [conflictShown]);

  return { addRef, conflictHeading };
}
