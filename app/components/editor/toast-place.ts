// Toasts never cover the editor's action bar (issue 20): the page's toaster sits at the top right, where the
// sticky bar with Save is; on a 320–375 px phone a toast hid Save for its five seconds. While the editor is
// open the toaster's top follows the bar's bottom edge (editor.css reads --editor-toast-top), so messages
// show right under the bar, readable and near where the person looks, with Save always reachable.
import { useEffect, type RefObject } from "react";

export const TOAST_TOP_VAR = "--editor-toast-top";
const GAP = 8;

export function useToastsBelow(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return;
    const root = document.documentElement;
    let frame = 0;
    const place = () => {
      frame = 0;
      root.style.setProperty(TOAST_TOP_VAR, `${Math.max(0, Math.round(element.getBoundingClientRect().bottom)) + GAP}px`);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    place();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(schedule);
    observer?.observe(element);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      observer?.disconnect();
      root.style.removeProperty(TOAST_TOP_VAR);
    };
  }, [bar]);
}
