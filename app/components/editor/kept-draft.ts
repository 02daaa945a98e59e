// Unsaved changes kept in the browser (decision 071): one localStorage entry per user, article and browser
// tab (decision 079), with the version the draft was based on and when it was kept. Every access is
// guarded: a full quota, private browsing or a refused storage only means nothing is kept; editing goes on.
import { ELEMENT_TYPES as TYPES } from "~/content/model";
import type { MetadatasElement } from "~/content/schema";
import { newKey, type BodyElement, type Draft } from "./editor-state";

export const KEPT_PREFIX = "muselingo:kept-draft:v1:";
/** Past this a kept draft is dropped unread: the length of a session, and the article has moved on. */
export const KEPT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type KeptStore = Pick<Storage, "getItem" | "setItem" | "removeItem" | "key" | "length">;

export interface KeptDraft {
  userId: number;
  articleId: number;
  /** The tab that kept it (decision 079); null for an entry written before tabs had their own. */
  tabId: string | null;
  /** The saved version the draft was edited from. */
  baseVersion: number;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
  draft: Draft;
}

/** A tab's id: letters, digits and dashes (a UUID), so it can end an entry's name. */
export const TAB_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The entry's name: per user, then per article, so a colleague on the same browser never reads it, then per
 * tab, so two tabs on the same article never overwrite each other (decision 079). Without a tab: the name
 * entries had before (decision 071), still read.
 */
export const keptKey = (userId: number, articleId: number, tabId: string | null = null) =>
  `${KEPT_PREFIX}${userId}:${articleId}${tabId === null ? "" : `:${tabId}`}`;

/** An entry's name taken apart; null when it is not one this module writes. */
export function parseKeptKey(name: string): { userId: number; articleId: number; tabId: string | null } | null {
  if (!name.startsWith(KEPT_PREFIX)) return null;
  const match = /^(\d{1,15}):(\d{1,15})(?::([A-Za-z0-9-]{1,64}))?$/.exec(name.slice(KEPT_PREFIX.length));
  return match ? { userId: Number(match[1]), articleId: Number(match[2]), tabId: match[3] ?? null } : null;
}

/** The page's localStorage, or null where the browser refuses it (some private modes throw on access). */
export function browserStore(): KeptStore | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

const ELEMENT_TYPES: ReadonlySet<string> = new Set(TYPES);

interface Stored {
  v: 1;
  userId: number;
  articleId: number;
  baseVersion: number;
  keptAt: number;
  name: string;
  metadatas: MetadatasElement;
  elements: BodyElement[];
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** The stored text as a kept draft for this user and article, or null if it is anything else or too old. */
export function parseKept(text: string | null, userId: number, articleId: number, now: number, tabId: string | null = null): KeptDraft | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || value.v !== 1 || value.userId !== userId || value.articleId !== articleId) return null;
  const { baseVersion, keptAt, name, metadatas, elements } = value;
  if (!isCount(baseVersion) || !isCount(keptAt) || typeof name !== "string") return null;
  if (keptAt > now + 60_000 || now - keptAt > KEPT_MAX_AGE_MS) return null;
  if (!isObject(metadatas) || metadatas.type !== "metadatas" || typeof metadatas.url !== "string" || typeof metadatas.backgroundColor !== "string") return null;
  if (!Array.isArray(elements) || !elements.every((e) => isObject(e) && typeof e.type === "string" && e.type !== "metadatas" && ELEMENT_TYPES.has(e.type)))
    return null;
  return {
    userId,
    articleId,
    tabId,
    baseVersion,
    keptAt,
    // Fresh keys: the ones of the session that kept it could collide with this session's new elements.
    draft: { name, metadatas: metadatas as MetadatasElement, items: (elements as BodyElement[]).map((element) => ({ key: newKey(), element })) },
  };
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

const TAB_SESSION_KEY = "muselingo:tab-id";

/** The id this tab used before (a reload keeps it: sessionStorage is per tab), or null. */
export function storedTabId(): string | null {
  try {
    const id = window.sessionStorage.getItem(TAB_SESSION_KEY);
    return id && TAB_ID_PATTERN.test(id) ? id : null;
  } catch {
    return null;
  }
}

export function storeTabId(id: string) {
  try {
    window.sessionStorage.setItem(TAB_SESSION_KEY, id);
  } catch {
    // The id lives only as long as the page then; a reload gets a new one (its older entry is still offered).
  }
}

export const TAB_LOCK_PREFIX = "muselingo:editor-tab:";

/**
 * The tabs of this browser open now, by the Web Locks each holds while open (a duplicated tab copies
 * sessionStorage, so its id is taken: the lock tells). Empty where the browser has no Web Locks.
 */
export async function openTabIds(): Promise<Set<string>> {
  const ids = new Set<string>();
  try {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    if (!locks) return ids;
    const { held = [] } = await locks.query();
    for (const lock of held) if (lock.name?.startsWith(TAB_LOCK_PREFIX)) ids.add(lock.name.slice(TAB_LOCK_PREFIX.length));
  } catch {
    // No answer: every kept draft counts as left by a closed tab.
  }
  return ids;
}

/** Holds this tab's lock until `signal` aborts (the editor closes) or the tab goes. */
export function holdTab(id: string, signal: AbortSignal) {
  try {
    void navigator.locks
      ?.request(`${TAB_LOCK_PREFIX}${id}`, { signal }, () => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())))
      .catch(() => undefined);
  } catch {
    // Without Web Locks the tab is simply not seen as open by others.
  }
}
