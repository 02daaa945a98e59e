import type { ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { glossaryRules } from "~/models/glossary.server";
import type { TranslationEngine } from "./engines";
import { glossaryTag, type GlossaryRule } from "./glossary";
import { translateWithGlossary } from "./glossary-translate";
import { claimAndRead, readMemory, releaseClaims, writeMachineMemory, type MemoryEntry, type MemoryScope } from "./memory.server";
import { articleSegments, mapSegments, renderedTranslationPrefix, segmentHash } from "./segments";

export interface TranslationDeps {
  db: Database;
  kv: KVNamespace;
  engines: readonly TranslationEngine[];
  /** Keeps background work (the KV write) alive after the response; `ctx.waitUntil` in a Worker. */
  waitUntil: (promise: Promise<unknown>) => void;
}

export interface TranslateOptions {
  /** The longest a visitor waits for engines and for other requests' translations, in ms. */
  deadlineMs?: number;
  /** How often a request waiting on another's claim looks for its result, in ms. */
  pollMs?: number;
  /**
   * The museum glossary protecting the engine calls (decision 026): by default loaded from D1 when an
   * engine is called; rules already loaded for `scope.to`; or "none" for text that is not the museum's
   * (the visitor page's interface strings, cached for every museum).
   */
  glossary?: readonly GlossaryRule[] | "none";
}

/** A visitor never waits longer than this for a first translation; then gets the original (decision 019). */
export const VISITOR_DEADLINE_MS = 8_000;
// A claim outlives the deadline a little, so a request that died mid-call frees its segments soon after.
const CLAIM_TTL_MS = VISITOR_DEADLINE_MS + 4_000;
const POLL_MS = 150;
const CACHE_TTL_SECONDS = 30 * 24 * 3600;

export interface SegmentsOutcome {
  /** Source segment → its translation, for every segment that has one. */
  texts: Map<string, string>;
  /** Every segment has a translation. */
  complete: boolean;
  /** Every segment's translation was written or corrected by staff. */
  reviewed: boolean;
  /** The engines behind the machine translations used (empty when all come from staff). */
  engines: string[];
  /** Segments this request sent to an engine. */
  translatedNow: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Translates segments through the museum's translation memory: stored translations are reused, the
 * missing ones are claimed, sent to the engines once and stored; segments another request is already
 * translating are waited for rather than sent twice. Never throws for an engine failure: the outcome
 * is then incomplete and nothing is stored.
 */
export async function translateSegments(
  deps: Pick<TranslationDeps, "db" | "engines">,
  scope: MemoryScope,
  segments: readonly string[],
  options: TranslateOptions = {},
): Promise<SegmentsOutcome> {
  const deadline = Date.now() + (options.deadlineMs ?? VISITOR_DEADLINE_MS);
  const sources = [...new Set(segments.map((s) => s.normalize("NFC")))];
  const hashes = await Promise.all(sources.map(segmentHash));
  const sourceOf = new Map(hashes.map((hash, i) => [hash, sources[i]!]));
  const memory = await readMemory(deps.db, scope, hashes);
  let translatedNow = 0;

  const missing = hashes.filter((hash) => !memory.has(hash));
  if (missing.length > 0) {
    // Another request may have stored some between our read and our claim: read again with the claim.
    const { owned, found } = await claimAndRead(deps.db, scope, missing, CLAIM_TTL_MS);
    let released = false;
    try {
      for (const [hash, entry] of found) memory.set(hash, entry);
      const todo = [...owned].filter((hash) => !memory.has(hash));
      if (todo.length > 0) {
        const texts = todo.map((hash) => sourceOf.get(hash)!);
        try {
          const rules = options.glossary === "none" ? [] : (options.glossary ?? (await glossaryRules(deps.db, scope.museumId, scope.to)));
          const outcome = await translateWithGlossary(deps.engines, texts, scope.from, scope.to, rules, { deadlineMs: Math.max(1, deadline - Date.now()) });
          // A segment whose protected terms no engine kept has no text: nothing stored, the next view retries.
          const entries = todo.flatMap((hash, i) => {
            const text = outcome.texts[i];
            return text === undefined ? [] : [{ hash, source: texts[i]!, text, engine: outcome.engines[i]! }];
          });
          // The claims go in the same transaction as the rows they guarded.
          const written = await writeMachineMemory(deps.db, scope, entries, [...owned]);
          released = true;
          for (const entry of entries) if (written.has(entry.hash)) memory.set(entry.hash, { text: entry.text, origin: "machine", engine: entry.engine });
          // A staff correction that landed meanwhile was kept by the write: read it rather than ours.
          const kept = todo.filter((hash) => !written.has(hash));
          if (kept.length > 0) for (const [hash, entry] of await readMemory(deps.db, scope, kept)) memory.set(hash, entry);
          translatedNow = todo.length;
        } catch (error) {
          console.warn(`translation ${scope.from}→${scope.to} failed for ${todo.length} segments: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    } finally {
      if (!released) await releaseClaims(deps.db, scope, [...owned]);
    }
    // What others are translating: wait for their memory rows, up to the deadline.
    let waiting = missing.filter((hash) => !memory.has(hash) && !owned.has(hash));
    while (waiting.length > 0 && Date.now() + (options.pollMs ?? POLL_MS) < deadline) {
      await sleep(options.pollMs ?? POLL_MS);
      for (const [hash, entry] of await readMemory(deps.db, scope, waiting)) memory.set(hash, entry);
      waiting = waiting.filter((hash) => !memory.has(hash));
    }
  }

  const texts = new Map<string, string>();
  const found: MemoryEntry[] = [];
  hashes.forEach((hash, i) => {
    const entry = memory.get(hash);
    if (!entry) return;
    texts.set(sources[i]!, entry.text);
    found.push(entry);
  });
  return {
    texts,
    complete: found.length === hashes.length,
    reviewed: found.length > 0 && found.every((entry) => entry.origin === "edited"),
    engines: [...new Set(found.filter((entry) => entry.origin === "machine").map((entry) => entry.engine))],
    translatedNow,
  };
}

export type TranslationStatus = "original" | "machine" | "reviewed" | "failed";

export interface TranslatedArticle {
  content: ArticleContent;
  status: TranslationStatus;
  engines: string[];
  /** The rendered content, when the caller's `render` made it (kept in the cache with the translation). */
  html?: string;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Where an article's page in one language is cached: the content hash makes an edit a new key, and
 * `glossary` (`glossaryTag` of the rules for `lang` found in the content, "" when none) makes a
 * glossary change that touches the page a new key too (decision 026).
 */
export async function renderedTranslationKey(articleId: number, lang: string, content: ArticleContent, glossary = ""): Promise<string> {
  return `${renderedTranslationPrefix(articleId)}${lang}:${await sha256Hex(JSON.stringify(content))}${glossary ? `:g${glossary}` : ""}`;
}

/** The cache key of an article's page in `lang` with the museum's glossary as it is now. */
export async function currentTranslationKey(db: Database, article: { id: number; museumId: number; content: ArticleContent }, lang: string): Promise<string> {
  const rules = await glossaryRules(db, article.museumId, lang);
  return renderedTranslationKey(article.id, lang, article.content, await glossaryTag(rules, articleSegments(article.content)));
}

interface CachedTranslation {
  content: ArticleContent;
  status: "machine" | "reviewed";
  engines: string[];
  html?: string;
}

export interface ArticleOptions extends TranslateOptions {
  /**
   * Renders the translated content once, on a miss; the result is cached with it, so a cached view
   * skips rendering. Undefined means "do not cache a rendering" (e.g. its labels fell back to English).
   */
  render?: (content: ArticleContent) => Promise<string | undefined>;
}

/**
 * The article in `to`: from the KV cache when this exact content was translated before, else through
 * the memory and engines, then cached. A failed or partial translation gives the original with status
 * "failed" and is never cached.
 */
export async function translateArticle(
  deps: TranslationDeps,
  article: { id: number; museumId: number; content: ArticleContent },
  from: string,
  to: string,
  options: ArticleOptions = {},
): Promise<TranslatedArticle> {
  if (from === to) return { content: article.content, status: "original", engines: [] };
  // The glossary is read once: for the cache key, then for the engine calls on a miss.
  const rules =
    options.glossary === "none" ? [] : Array.isArray(options.glossary) ? (options.glossary as GlossaryRule[]) : await glossaryRules(deps.db, article.museumId, to);
  const segments = articleSegments(article.content);
  const key = await renderedTranslationKey(article.id, to, article.content, await glossaryTag(rules, segments));
  const cached = await deps.kv.get<CachedTranslation>(key, "json");
  if (cached) return cached;
  const outcome = await translateSegments(deps, { museumId: article.museumId, from, to }, segments, { ...options, glossary: rules });
  if (!outcome.complete) return { content: article.content, status: "failed", engines: [] };
  const translated: CachedTranslation = {
    content: mapSegments(article.content, (segment) => outcome.texts.get(segment) ?? segment),
    status: outcome.reviewed ? "reviewed" : "machine",
    engines: outcome.engines,
  };
  if (options.render) translated.html = await options.render(translated.content);
  deps.waitUntil(deps.kv.put(key, JSON.stringify(translated), { expirationTtl: CACHE_TTL_SECONDS }));
  return translated;
}
