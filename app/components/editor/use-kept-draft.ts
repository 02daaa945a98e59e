import { useEffect, useRef, useState } from "react";
import { snapshotOf, type Draft } from "./editor-state";
import { browserStore, pruneKept, readKept, removeKept, writeKept, type KeptDraft } from "./kept-draft";

/** How long typing pauses before the draft is written to the browser. */
export const KEEP_DEBOUNCE_MS = 500;

interface KeepOptions {
  userId: number;
  articleId: number;
  /** The saved article as the page loaded it: a kept draft equal to it has nothing to offer. */
  loadedSnapshot: string;
  draft: Draft;
  dirty: boolean;
  /** The saved version the draft is based on (the save call's version). */
  baseVersion: number;
}

/**
 * Keeps unsaved changes in the browser as the person types (decision 071) and, on opening, finds what an
 * earlier visit left: `offer` until the person restores or discards it. Nothing is written or removed
 * while the offer is open, so the kept draft survives until they choose.
 */
export function useKeptDraft({ userId, articleId, loadedSnapshot, draft, dirty, baseVersion }: KeepOptions) {
  const [offer, setOffer] = useState<KeptDraft | null>(null);
  const [active, setActive] = useState(false);
  const pending = useRef<(() => void) | null>(null);

  // Once, in the browser: what an earlier visit kept of this article, for this user.
  useEffect(() => {
    const store = browserStore();
    const now = Date.now();
    pruneKept(store, now);
    const kept = readKept(store, userId, articleId, now);
    if (kept && snapshotOf(kept.draft) !== loadedSnapshot) setOffer(kept);
    else {
      if (kept) removeKept(store, userId, articleId);
      setActive(true);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per opened article
  }, []);

  // As the draft changes: written after a pause; removed as soon as nothing is unsaved (a save, an undo).
  useEffect(() => {
    if (!active) return;
    const store = browserStore();
    if (!dirty) {
      pending.current = null;
      removeKept(store, userId, articleId);
      return;
    }
    const write = () => {
      pending.current = null;
      writeKept(store, { userId, articleId, baseVersion, keptAt: Date.now(), draft });
    };
    pending.current = write;
    const timer = window.setTimeout(write, KEEP_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [active, dirty, draft, baseVersion, userId, articleId]);

  // A tab closed or hidden (a phone switching apps) within the pause still keeps the last keystrokes.
  useEffect(() => {
    const flush = () => pending.current?.();
    const onVisibility = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onVisibility);
      flush();
    };
  }, []);

  return {
    offer,
    /** The offer answered "restore": the caller puts offer.draft in the editor. */
    accept() {
      setOffer(null);
      setActive(true);
    },
    /** The offer answered "discard": the kept draft is gone for good. */
    discard() {
      removeKept(browserStore(), userId, articleId);
      setOffer(null);
      setActive(true);
    },
  };
}
