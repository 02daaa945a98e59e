// Unsaved changes kept in the browser (decision 071): one localStorage entry per user, article and browser
// tab (decision 079), with the version the draft was based on and when it was kept. This module is the
// pure part: the entry's name and its text read back or refused. The storage
// itself is `kept-store.ts`, the tab's id and lock `kept-tab.ts`.
import { ELEMENT_TYPES as TYPES } from "~/content/model";
import type { MetadatasElement } from "~/content/schema";
import { newKey, type BodyElement, type Draft } from "./editor-state";

export const KEPT_PREFIX = "muselingo:kept-draft:v1:";
/** Past this a kept draft is dropped unread: the length of a session, and the article has moved on. */
export const KEPT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

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

const ELEMENT_TYPES: ReadonlySet<string> = new Set(TYPES);

export interface Stored {
  v: 1;
  userId: number;
  articleId: number;
  baseVersion: number;
  keptAt: number;
  name: string;
  metadatas: MetadatasElement;
  elements: BodyElement[];
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

/** A kept draft offered back, and how many more (older, from other closed tabs) wait their turn. */
export type KeptOffer = KeptDraft & { others: number };
