import { sha256Hex } from "~/lib/crypto";
import enCommon from "../../locales/en/common.json";
import frCommon from "../../locales/fr/common.json";
import { machineTranslate, type TranslationEngine } from "~/translation/engines";
import { VISITOR_DEADLINE_MS } from "~/translation/translate.server";
import { frenchSpacing } from "./typography";

export type VisitorStrings = typeof enCommon.visitor;
type Key = keyof VisitorStrings;

/** What the interface words need: the engines, the KV cache, and a way to finish the cache write. */
export interface StringsDeps {
  kv: KVNamespace;
  engines: readonly TranslationEngine[];
  waitUntil: (promise: Promise<unknown>) => void;
}

const KEYS = Object.keys(enCommon.visitor) as Key[];
const WRITTEN: Record<string, VisitorStrings> = {
  en: enCommon.visitor,
  fr: Object.fromEntries(KEYS.map((k) => [k, frenchSpacing(frCommon.visitor[k])])) as VisitorStrings,
};
const CACHE_TTL_SECONDS = 30 * 24 * 3600;
// After the engines fail for a language, its pages use English for this long, doubling per failure.
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 15 * 60_000;

/** The interface strings the locales hold for this language, if they hold it (French and English). */
export function writtenStrings(lang: string): VisitorStrings | undefined {
  return WRITTEN[lang];
}

// Per isolate: translations made or read (a key never changes meaning), requests under way, failures.
const remembered = new Map<string, VisitorStrings>();
const underway = new Map<string, Promise<VisitorStrings | null>>();
const failures = new Map<string, { count: number; until: number }>();
// The hash of the English words and an engine list (a configuration has one list).
const wordsHashes = new Map<string, Promise<string>>();

/**
 * The KV key of the words in `lang`: a new key whenever the English words or the configured engines
 * change. `ui:v2` (decision 033): `ui:v1` entries were made through a museum's memory and are never read.
 */
export async function interfaceWordsKey(lang: string, engines: readonly TranslationEngine[]): Promise<string> {
  const ids = engines.map((engine) => engine.id);
  // Hashed once per engine list in this isolate, not on every view (decision 133): the words are the build's.
  const known = wordsHashes.get(ids.join(","));
  const hash = known ?? sha256Hex(JSON.stringify({ words: enCommon.visitor, engines: ids })).then((hex) => hex.slice(0, 16));
  if (!known) wordsHashes.set(ids.join(","), hash);
  return `ui:v2:${lang}:${await hash}`;
}

/** A cached value is used only if it holds a non-empty string for every key. */
function asStrings(value: unknown): VisitorStrings | null {
  if (value === null || typeof value !== "object") return null;
  const record = value as Record<string, unknown>;
  return KEYS.every((k) => typeof record[k] === "string" && record[k] !== "") ? (record as VisitorStrings) : null;
}

async function translateWords(deps: StringsDeps, lang: string, key: string): Promise<VisitorStrings | null> {
  const sources = KEYS.map((k) => enCommon.visitor[k]);
  try {
    // The engines alone: no museum's memory, corrections or glossary may shape the product's own words.
    const outcome = await machineTranslate(deps.engines, sources, "en", lang, { deadlineMs: VISITOR_DEADLINE_MS });
    const strings = Object.fromEntries(KEYS.map((k, i) => [k, outcome.texts[i]!])) as VisitorStrings;
    remembered.set(key, strings);
    failures.delete(key);
    deps.waitUntil(deps.kv.put(key, JSON.stringify(strings), { expirationTtl: CACHE_TTL_SECONDS }));
    return strings;
  } catch (error) {
    const count = (failures.get(key)?.count ?? 0) + 1;
    failures.set(key, { count, until: Date.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (count - 1)) });
    console.warn(`visitor interface en→${lang} not translated: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** The promise, or null once `ms` have passed (a request never waits on another one for longer). */
function within<T>(promise: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The visitor page's own words in the visitor's language. French and English are written by us; every
 * other catalogue language gets the English words machine-translated by the engines alone, then cached
 * in KV and per isolate for every museum (decision 033). While the engines fail, English.
 */
export async function visitorStrings(deps: StringsDeps, lang: string): Promise<{ strings: VisitorStrings; lang: string }> {
  const written = writtenStrings(lang);
  if (written) return { strings: written, lang };
  const english = { strings: enCommon.visitor, lang: "en" };
  const key = await interfaceWordsKey(lang, deps.engines);
  const known = remembered.get(key);
  if (known) return { strings: known, lang };
  if (!underway.has(key)) {
    const cached = asStrings(await deps.kv.get(key, "json").catch(() => null));
    if (cached) {
      remembered.set(key, cached);
      return { strings: cached, lang };
    }
  }
  // Another request of this isolate may have finished (or failed) while this one read KV.
  const meanwhile = remembered.get(key);
  if (meanwhile) return { strings: meanwhile, lang };
  if ((failures.get(key)?.until ?? 0) > Date.now()) return english;
  // Simultaneous first views in one language share one engine call; each waits at most the deadline.
  let pending = underway.get(key);
  if (!pending) {
    pending = translateWords(deps, lang, key).finally(() => underway.delete(key));
    underway.set(key, pending);
  }
  const strings = await within(pending, VISITOR_DEADLINE_MS + 1_000);
  return strings ? { strings, lang } : english;
}
