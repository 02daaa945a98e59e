import { useEffect, type Dispatch } from "react";
import type { EditorAction } from "./editor-reducer";
import { revealField } from "./field-errors";
import { focusMove, type FocusRequest } from "./focus-machine";

const FIRST_FIELD = "[data-fields] :is(input, textarea, select, button, [tabindex='0'])";

/** Carries out the focus machine's request once the page shows the action's result (decision 137), then drops it. */
export function useEditorFocus(request: FocusRequest | null, dispatch: Dispatch<EditorAction>) {
  useEffect(() => {
    if (!request) return;
    dispatch({ type: "view", change: { focus: null } });
    const move = focusMove<HTMLElement>(request, {
      byId: (id) => document.getElementById(id),
      firstField: (card) => card.querySelector<HTMLElement>(FIRST_FIELD),
      lost() {
        const active = document.activeElement;
        return !active || active === document.body || !active.isConnected;
      },
    });
    if (move?.reveal) revealField(move.element);
    else move?.element.focus();
  }, [request, dispatch]);
}
