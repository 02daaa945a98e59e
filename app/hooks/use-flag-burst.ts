import { useEffect } from "react";

/**
 * One burst of flags (drawn from shapes, app/components/landing/flags.ts) after the page has loaded, unless the visitor prefers reduced motion: then the
 * fireworks code is not even downloaded.
 */
export function useFlagBurst() {
  useEffect(() => {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    // After the page has loaded and the main thread is idle: the show never delays the content.
    const start = () => {
      const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 200));
      idle(() => {
        void import("~/components/landing/fireworks").then(({ runBurst }) => {
          if (!cancelled) stop = runBurst();
        });
      });
    };
    if (document.readyState === "complete") start();
    else window.addEventListener("load", start, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener("load", start);
      stop?.();
    };
  }, []);
}
