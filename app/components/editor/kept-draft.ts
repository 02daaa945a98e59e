// Unsaved changes kept in the browser (decision 071): one localStorage entry per user and article, with the
// version the draft was based on and when it was kept. Every access is guarded: a full quota, private
// browsing or a refused storage only means nothing is kept; editing goes on.
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
  /** The saved version the draft was edited from. */
  baseVersion: number;
  /** When it was kept (ms since the epoch). */
  keptAt: number;
  draft: Draft;
}

/** The entry's name: per user, then per article, so a colleague on the same browser never reads it. */
export const keptKey = (userId: number, articleId: number) => `${KEPT_PREFIX}${userId}:${articleId}`;

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
export function writeKept(store: KeptStore | null, kept: KeptDraft): boolean {
  if (!store) return false;
  const { draft, ...rest } = kept;
  const stored: Stored = { v: 1, ...rest, name: draft.name, metadatas: draft.metadatas, elements: draft.items.map((item) => item.element) };
  try {
    store.setItem(keptKey(kept.userId, kept.articleId), JSON.stringify(stored));
    return true;
  } catch {
    return false;
  }
}

export function removeKept(store: KeptStore | null, userId: number, articleId: number) {
  try {
    store?.removeItem(keptKey(userId, articleId));
  } catch {
    // Nothing to do: the entry stays until the browser lets it go.
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** The stored text as a kept draft for this user and article, or null if it is anything else or too old. */
export function parseKept(text: string | null, userId: number, articleId: number, now: number): KeptDraft | null {
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
  if (!Array.isArray(elements) || !elements.every((e) => isObject(e) && typeof e.type === "string" && e.type !== "metadatas" && ELEMENT_TYPES.has(e.type))) return null;
  return {
    userId,
    articleId,
    baseVersion,
    keptAt,
    // Fresh keys: the ones of the session that kept it could collide with this session's new elements.
    draft: { name, metadatas: metadatas as MetadatasElement, items: (elements as BodyElement[]).map((element) => ({ key: newKey(), element })) },
  };
}

/** This user's kept draft of the article; an unreadable or expired entry is removed on the way. */
export function readKept(store: KeptStore | null, userId: number, articleId: number, now: number): KeptDraft | null {
  if (!store) return null;
  let text: string | null;
  try {
    text = store.getItem(keptKey(userId, articleId));
  } catch {
    return null;
  }
  const kept = parseKept(text, userId, articleId, now);
  if (text !== null && !kept) removeKept(store, userId, articleId);
  return kept;
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
      const match = /^(\d+):(\d+)$/.exec(name.slice(KEPT_PREFIX.length));
      if (!match || !parseKept(store.getItem(name), Number(match[1]), Number(match[2]), now)) store.removeItem(name);
    }
  } catch {
    // A browser that refuses storage has nothing to prune.
  }
}
