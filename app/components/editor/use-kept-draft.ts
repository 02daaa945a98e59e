import { useEffect, useRef, useState } from "react";
import { snapshotOf, type Draft } from "./editor-state";
import { parseKeptKey, type KeptOffer } from "./kept-draft";
import { browserStore, listKept, pruneKept, removeKept, writeKept } from "./kept-store";
import { holdTab, openTabIds, storedTabId, storeTabId } from "./kept-tab";

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

const newTabId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/**
 * Keeps unsaved changes in the browser as the person types (decision 071), each tab under its own entry
 * (decision 079), and, on opening, finds what earlier visits left: the newest kept draft of a tab that is
 * no longer open is the `offer` until the person restores or discards it. Drafts of tabs still open are
 * theirs, never offered; `elsewhere` says another open tab has unsaved changes to this article. Nothing is
 * written or removed while the offer is open, so the kept draft survives until they choose.
 */
export function useKeptDraft({ userId, articleId, loadedSnapshot, draft, dirty, baseVersion }: KeepOptions) {
  const [offer, setOffer] = useState<KeptOffer | null>(null);
  const [active, setActive] = useState(false);
  const [elsewhere, setElsewhere] = useState(false);
  const tab = useRef<string | null>(null);
  const pending = useRef<(() => void) | null>(null);

  // Once, in the browser: this tab's id (kept across reloads, new for a duplicated tab), then what closed
  // tabs kept of this article for this user.
  useEffect(() => {
    const release = new AbortController();
    void (async () => {
      const store = browserStore();
      const now = Date.now();
      pruneKept(store, now);
      const open = await openTabIds();
      if (release.signal.aborted) return;
      let id = storedTabId();
      if (!id || open.has(id)) id = newTabId();
      storeTabId(id);
      holdTab(id, release.signal);
      tab.current = id;
      const kept = listKept(store, userId, articleId, now);
      setElsewhere(kept.some((k) => k.tabId !== null && open.has(k.tabId)));
      const left = kept.filter((k) => k.tabId === null || !open.has(k.tabId));
      // A kept draft equal to the saved article has nothing to offer: it goes.
      for (const k of left) if (snapshotOf(k.draft) === loadedSnapshot) removeKept(store, userId, articleId, k.tabId);
      const offered = left.filter((k) => snapshotOf(k.draft) !== loadedSnapshot);
      if (offered[0]) setOffer({ ...offered[0], others: offered.length - 1 });
      else setActive(true);
    })();
    // Another tab writing its own draft of this article: say so (each tab keeps its own, nothing is overwritten).
    const onStorage = (event: StorageEvent) => {
      const key = event.key ? parseKeptKey(event.key) : null;
      if (key && key.userId === userId && key.articleId === articleId && key.tabId !== tab.current && event.newValue !== null) setElsewhere(true);
    };
    window.addEventListener("storage", onStorage);
    return () => {
      release.abort();
      window.removeEventListener("storage", onStorage);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per opened article
  }, []);

  // As the draft changes: written after a pause; removed as soon as nothing is unsaved (a save, an undo).
  useEffect(() => {
    if (!active || tab.current === null) return;
    const store = browserStore();
    const tabId = tab.current;
    if (!dirty) {
      pending.current = null;
      removeKept(store, userId, articleId, tabId);
      return;
    }
    const write = () => {
      pending.current = null;
      writeKept(store, { userId, articleId, tabId, baseVersion, keptAt: Date.now(), draft });
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
    /** Another open tab of this browser has unsaved changes to this article (its own, kept apart). */
    elsewhere,
    /** The offer answered "restore": the caller puts offer.draft in the editor; it is kept as this tab's now. */
    accept() {
      const store = browserStore();
      if (offer && offer.tabId !== tab.current) {
        // Kept at once as this tab's (a crash in the next half second loses nothing), then the old entry goes.
        writeKept(store, { ...offer, tabId: tab.current });
        removeKept(store, userId, articleId, offer.tabId);
      }
      setOffer(null);
      setActive(true);
    },
    /** The offer answered "discard": that kept draft is gone for good (others wait for the next opening). */
    discard() {
      if (offer) removeKept(browserStore(), userId, articleId, offer.tabId);
      setOffer(null);
      setActive(true);
    },
  };
}
