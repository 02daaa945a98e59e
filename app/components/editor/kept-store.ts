// Where kept drafts live (decision 071): the page's localStorage. Every access is guarded: a full quota,
// private browsing or a refused storage only means nothing is kept; editing goes on.
import { KEPT_PREFIX, keptKey, parseKept, parseKeptKey, type KeptDraft, type Stored } from "./kept-draft";

export type KeptStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

/** The page's localStorage, or null where the browser refuses it (some private modes throw on access). */
export function browserStore(): KeptStore | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Writes the draft; false when the browser refused (quota, private mode), which is never an error. */
export function writeKept(store: KeptStore | null, kept: Omit<KeptDraft, "tabId"> & { tabId?: string | null }): boolean {
  if (!store) return false;
  const { draft, tabId: _tab, ...rest } = kept;
  const stored: Stored = { v: 1, ...rest, name: draft.name, metadatas: draft.metadatas, elements: draft.items.map((item) => item.element) };
  try {
    store.setItem(keptKey(kept.userId, kept.articleId, kept.tabId ?? null), JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}

export function removeKept(store: KeptStore | null, userId: number, articleId: number, tabId: string | null = null) {
  try {
    store?.removeItem(keptKey(userId, articleId, tabId));
  } catch {
    // Nothing to do: the entry stays until the browser lets it go.
  }
}

/** This user's kept draft of the article from one tab; an unreadable or expired entry is removed on the way. */
export function readKept(store: KeptStore | null, userId: number, articleId: number, now: number, tabId: string | null = null): KeptDraft | null {
  if (!store) return null;
  let text: string | null;
  try {
    text = store.getItem(keptKey(userId, articleId, tabId));
  } catch {
    return null;
  }
  const kept = parseKept(text, userId, articleId, now, tabId);
  if (text !== null && !kept) removeKept(store, userId, articleId, tabId);
  return kept;
}

/** Every tab's kept draft of the article for this user (and the one from before tabs), newest first. */
export function listKept(store: KeptStore | null, userId: number, articleId: number, now: number): KeptDraft[] {
  if (!store) return [];
  const tabs: (string | null)[] = [];
  try {
    for (let i = 0; i < store.length; i++) {
      const parsed = parseKeptKey(store.key(i) ?? "");
      if (parsed && parsed.userId === userId && parsed.articleId === articleId) tabs.push(parsed.tabId);
    }
  } catch {
    return [];
  }
  return tabs
    .map((tabId) => readKept(store, userId, articleId, now, tabId))
    .filter((kept): kept is KeptDraft => kept !== null)
    .sort((a, b) => b.keptAt - a.keptAt);
}

/** Drops every kept draft (any user's) older than KEPT_MAX_AGE_MS or unreadable, so storage does not fill up. */
export function pruneKept(store: KeptStore | null, now: number) {
  if (!store) return;
  try {
    const names: string[] = [];
    for (let i = 0; i < store.length; i++) {
      const name = store.key(i);
      if (name?.startsWith(KEPT_PREFIX)) names.push(name);
    }
    for (const name of names) {
      const key = parseKeptKey(name);
      if (!key || !parseKept(store.getItem(name), key.userId, key.articleId, now, key.tabId)) store.removeItem(name);
    }
  } catch {
    // A browser that refuses storage has nothing to prune.
  }
}
