import { useEffect, useRef } from "react";

/**
 * A ref that follows a prop, for callbacks that finish later (an upload): they must apply their result
 * to the element as it is then, not as it was when they started, or edits made meanwhile are lost.
 */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useEffect(() => {
    ref.current = value;
  });
  return ref;
}
