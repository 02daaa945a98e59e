import enCommon from "../../locales/en/common.json";
import frCommon from "../../locales/fr/common.json";
import { translateSegments, type TranslationDeps } from "~/translation/translate.server";

export type VisitorStrings = typeof enCommon.visitor;
type Key = keyof VisitorStrings;

const KEYS = Object.keys(enCommon.visitor) as Key[];
const WRITTEN: Record<string, VisitorStrings> = { en: enCommon.visitor, fr: frCommon.visitor };
const CACHE_TTL_SECONDS = 30 * 24 * 3600;

/** The interface strings the locales hold for this language, if they hold it (French and English). */
export function writtenStrings(lang: string): VisitorStrings | undefined {
  return WRITTEN[lang];
}

// Interface strings never change for a given key (it holds the English strings' hash): kept per isolate too.
const inMemory = new Map<string, VisitorStrings>();

async function stringsKey(lang: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(enCommon.visitor)));
  const hex = [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `ui:v1:${lang}:${hex}`;
}

/**
 * The visitor page's own words in the visitor's language. French and English are written by us; every
 * other catalogue language gets the English strings machine-translated through the museum's memory once,
 * then cached in KV for every museum (they are not museum content). If the engines fail, English.
 */
export async function visitorStrings(deps: TranslationDeps, museumId: number | null, lang: string): Promise<{ strings: VisitorStrings; lang: string }> {
  const written = writtenStrings(lang);
  if (written) return { strings: written, lang };
  const key = await stringsKey(lang);
  const remembered = inMemory.get(key);
  if (remembered) return { strings: remembered, lang };
  const cached = await deps.kv.get<VisitorStrings>(key, "json");
  if (cached) {
    inMemory.set(key, cached);
    return { strings: cached, lang };
  }
  if (museumId === null) return { strings: enCommon.visitor, lang: "en" };
  const sources = KEYS.map((k) => enCommon.visitor[k]);
  // The museum's glossary is not applied: these strings are cached for every museum.
  const outcome = await translateSegments(deps, { museumId, from: "en", to: lang }, sources, { glossary: "none" });
  if (!outcome.complete) return { strings: enCommon.visitor, lang: "en" };
  const strings = Object.fromEntries(KEYS.map((k) => [k, outcome.texts.get(enCommon.visitor[k].normalize("NFC")) ?? enCommon.visitor[k]])) as VisitorStrings;
  deps.waitUntil(deps.kv.put(key, JSON.stringify(strings), { expirationTtl: CACHE_TTL_SECONDS }));
  inMemory.set(key, strings);
  return { strings, lang };
}
