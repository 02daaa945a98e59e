import { useEffect } from "react";

/**
 * One emoji-flag burst after the page has loaded, unless the visitor prefers reduced motion: then the
 * fireworks code is not even downloaded.
 */
export function useFlagBurst() {
  useEffect(() => {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("~/components/landing/fireworks").then(({ runBurst }) => {
      if (!cancelled) stop = runBurst();
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, []);
}
