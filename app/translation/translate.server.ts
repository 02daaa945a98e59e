import { asDomainError } from "~/errors";
import { sha256Hex } from "~/lib/crypto";
import type { ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { AllEnginesFailed, EngineError, type TranslationEngine } from "./engines";
import {
  BACKOFF_FIRST_MS,
  backingOff,
  backoffMs,
  clearArticleFailures,
  clearFailureStatements,
  engineChain,
  recordFailureStatements,
  type FailureReason,
  type SegmentFailure,
} from "./failures.server";
import { glossaryTag, type GlossaryRule } from "./glossary";
import { translateWithGlossary } from "./glossary-translate";
import { claimAndRead, readMemory, readMemoryAndFailures, releaseClaims, writeMachineMemory, type MemoryEntry, type MemoryScope } from "./memory.server";
import { articleSegments, mapSegments, renderedTranslationPrefix, segmentHash } from "./segments";
import { giveBackTranslationChars, takeTranslationChars, textsChars, TRANSLATION_MONTHLY_CHARS_DEFAULT, usageInsert } from "~/usage/usage.server";

export interface TranslationDeps {
  db: Database;
  kv: KVNamespace;
  engines: readonly TranslationEngine[];
  /** Keeps background work (the KV write) alive after the response; `ctx.waitUntil` in a Worker. */
  waitUntil: (promise: Promise<unknown>) => void;
  /** The museum glossary's rules for a target language (decision 026), passed in so translation needs no model. */
  glossary: (museumId: number, to: string) => Promise<GlossaryRule[]>;
  /** The deployment's monthly translation bound per museum (decision 148); a museum's own bound overrides it. */
  monthlyChars?: number;
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
  /** The article these segments belong to, remembered with a failure so staff can find it (decision 030). */
  articleId?: number;
  /**
   * Calls the engines even for segments whose last failure is still backing off: staff asking for a
   * translation now (pretranslate) rather than a visitor's view (decision 030).
   */
  ignoreBackoff?: boolean;
}

/** A visitor never waits longer than this for a first translation; then gets the original (decision 019). */
export const VISITOR_DEADLINE_MS = 8_000;
// A claim outlives the deadline a little, so a request that died mid-call frees its segments soon after.
const CLAIM_TTL_MS = VISITOR_DEADLINE_MS + 4_000;
const POLL_MS = 150;
const CACHE_TTL_SECONDS = 30 * 24 * 3600;

/** Why some segments have no translation, for the visitor page and for staff (decision 030). */
export interface TranslationFailure {
  reason: FailureReason;
  /** The engines' own words (status, message), for staff; never keys or addresses. */
  detail: string;
  /** The first failure of the current run, the last one, and when an engine is asked again. */
  since: number;
  lastFailedAt: number;
  retryAt: number;
  /** True when no engine was asked this time: the segments are backing off after earlier failures. */
  backingOff: boolean;
}

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
  /** Segments without a translation because they failed now or are backing off; undefined when none did. */
  failure?: TranslationFailure;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const short = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();

/** The reason and the engines' words for a batch that threw: only engine failures are remembered. */
function thrownFailure(error: unknown): { reason: FailureReason; detail: string } | undefined {
  if (error instanceof AllEnginesFailed) {
    if (error.reason === "unsupported") return undefined;
    const detail = error.failures.length > 0 ? error.failures.map(short).join(" · ") : short(error);
    return { reason: error.reason, detail };
  }
  if (error instanceof EngineError) return { reason: "failed", detail: short(error) };
  return undefined;
}

/** Why one text of a partly translated batch has no translation. */
function textFailure(lost: readonly string[], error: unknown): { reason: FailureReason; detail: string } {
  if (lost.length > 0) {
    const also = error === undefined ? "" : ` · ${short(error)}`;
    return { reason: "glossary", detail: `${lost.join(", ")}: lost a protected glossary term${also}` };
  }
  return thrownFailure(error) ?? { reason: "deadline", detail: error === undefined ? "no time left before the visitor's deadline" : short(error) };
}

/** The most telling of several failures: the oldest run, as staff read "failing since". */
function summary(failures: readonly SegmentFailure[], backingOff: boolean): TranslationFailure | undefined {
  const [first, ...rest] = [...failures].sort((a, b) => a.firstFailedAt - b.firstFailedAt);
  if (!first) return undefined;
  return {
    reason: first.reason,
    detail: first.detail,
    since: first.firstFailedAt,
    lastFailedAt: Math.max(first.lastFailedAt, ...rest.map((f) => f.lastFailedAt)),
    retryAt: Math.min(first.retryAt, ...rest.map((f) => f.retryAt)),
    backingOff,
  };
}

/**
 * Translates segments through the museum's translation memory: stored translations are reused, the
 * missing ones are claimed, sent to the engines once and stored; segments another request is already
 * translating are waited for rather than sent twice. Never throws for an engine failure: the outcome
 * is then incomplete and nothing is stored, but the failure is remembered, and the segment is not sent
 * again before its back-off ends (1 min, doubling to 1 h: decision 030); a success forgets it.
 */
export async function translateSegments(
  deps: Pick<TranslationDeps, "db" | "engines" | "glossary" | "monthlyChars">,
  scope: MemoryScope,
  segments: readonly string[],
  options: TranslateOptions = {},
): Promise<SegmentsOutcome> {
  const startedAt = Date.now();
  const deadline = startedAt + (options.deadlineMs ?? VISITOR_DEADLINE_MS);
  const chain = engineChain(deps.engines);
  const sources = [...new Set(segments.map((s) => s.normalize("NFC")))];
  const hashes = await Promise.all(sources.map(segmentHash));
  const sourceOf = new Map(hashes.map((hash, i) => [hash, sources[i]!]));
  const { memory, failures: remembered } = await readMemoryAndFailures(deps.db, scope, hashes);
  let translatedNow = 0;
  // Segments left without a translation: what failed now, what is backing off.
  const failedNow: SegmentFailure[] = [];
  const heldBack: SegmentFailure[] = [];
  const holds = (failure: SegmentFailure | undefined) => !options.ignoreBackoff && backingOff(failure, chain, Date.now());

  const missing = hashes.filter((hash) => !memory.has(hash));
  for (const hash of missing) if (holds(remembered.get(hash))) heldBack.push(remembered.get(hash)!);
  const toClaim = missing.filter((hash) => !holds(remembered.get(hash)));
  if (toClaim.length > 0) {
    // Another request may have stored some between our read and our claim, or failed them: read again with the claim.
    // A museum frozen for its move (decision 143) takes no write: its visitors' new segments are translated all the
    // same, and stored by a later request once the move is done.
    const frozen = { owned: new Set(toClaim), found: new Map<string, MemoryEntry>(), failures: new Map<string, SegmentFailure>() };
    const claimed = await claimAndRead(deps.db, scope, toClaim, CLAIM_TTL_MS).catch((error: unknown) => {
      if (asDomainError(error)?.reason === "museum_moving") return null;
      throw error;
    });
    const { owned, found, failures } = claimed ?? frozen;
    let released = claimed === null;
    try {
      for (const [hash, entry] of found) memory.set(hash, entry);
      const todo = [...owned].filter((hash) => {
        if (memory.has(hash)) return false;
        const failure = failures.get(hash);
        if (!holds(failure)) return true;
        heldBack.push(failure!);
        return false;
      });
      if (todo.length > 0) {
        const texts = todo.map((hash) => sourceOf.get(hash)!);
        const now = () => Date.now();
        const chars = textsChars(texts);
        // Counted before the call (parallel first views never overshoot the bound); a frozen museum counts nothing.
        const room =
          claimed === null ? true : await takeTranslationChars(deps.db.$client, scope.museumId, chars, deps.monthlyChars ?? TRANSLATION_MONTHLY_CHARS_DEFAULT);
        if (!room) {
          // Visitors read the original; the segments are remembered as failing (staff see why) and asked again a
          // minute later, so parallel views stop waiting for them at once (decision 148).
          const at = now();
          const failed = todo.map((hash) => ({ hash, reason: "bound" as const, detail: "the museum's monthly translation bound is reached" }));
          await releaseClaims(
            deps.db,
            scope,
            [...owned],
            recordFailureStatements(deps.db, scope, failed, { engines: chain, articleId: options.articleId, now: at }),
          );
          released = true;
          for (const one of failed) failedNow.push(newFailure(one, failures.get(one.hash), chain, at));
        } else
          try {
            const rules = options.glossary === "none" ? [] : (options.glossary ?? (await deps.glossary(scope.museumId, scope.to)));
            const outcome = await translateWithGlossary(deps.engines, texts, scope.from, scope.to, rules, { deadlineMs: Math.max(1, deadline - Date.now()) });
            // A segment whose protected terms no engine kept has no text: nothing stored, its failure remembered.
            const entries = todo.flatMap((hash, i) => {
              const text = outcome.texts[i];
              return text === undefined ? [] : [{ hash, source: texts[i]!, text, engine: outcome.engines[i]! }];
            });
            const failed = todo.flatMap((hash, i) => (outcome.texts[i] === undefined ? [{ hash, ...textFailure(outcome.lost[i]!, outcome.error) }] : []));
            const at = now();
            // The claims, the failures remembered and the ones forgotten go in the same transaction as the rows.
            const written =
              claimed === null
                ? new Set(entries.map((entry) => entry.hash))
                : await writeMachineMemory(deps.db, scope, entries, [...owned], at, [
                    ...clearFailureStatements(
                      deps.db,
                      scope,
                      entries.map((entry) => entry.hash),
                    ),
                    ...recordFailureStatements(deps.db, scope, failed, { engines: chain, articleId: options.articleId, now: at }),
                    // What each engine translated, for the operator's figures (decision 148), in the same transaction.
                    ...usageByEngine(entries).map(([engine, used]) =>
                      usageInsert(deps.db, { museumId: scope.museumId, kind: "translation", engine, chars: used.chars, calls: used.calls, now: at }),
                    ),
                  ]);
            released = true;
            for (const entry of entries) if (written.has(entry.hash)) memory.set(entry.hash, { text: entry.text, origin: "machine", engine: entry.engine });
            // A staff correction that landed meanwhile was kept by the write: read it rather than ours.
            const kept = entries.filter((entry) => !written.has(entry.hash)).map((entry) => entry.hash);
            if (kept.length > 0) for (const [hash, entry] of await readMemory(deps.db, scope, kept)) memory.set(hash, entry);
            for (const failure of failed) failedNow.push(newFailure(failure, failures.get(failure.hash), chain, at));
            translatedNow = todo.length;
          } catch (error) {
            console.warn(`translation ${scope.from}→${scope.to} failed for ${todo.length} segments: ${short(error)}`);
            // No engine translated anything: the characters go back to the month's bound.
            if (claimed !== null && !released) await giveBackTranslationChars(deps.db.$client, scope.museumId, chars);
            const failure = thrownFailure(error);
            if (failure && !released && claimed !== null) {
              const at = now();
              const failed = todo.map((hash) => ({ hash, ...failure }));
              await releaseClaims(
                deps.db,
                scope,
                [...owned],
                recordFailureStatements(deps.db, scope, failed, { engines: chain, articleId: options.articleId, now: at }),
              );
              released = true;
              for (const one of failed) failedNow.push(newFailure(one, failures.get(one.hash), chain, at));
            }
          }
      }
    } finally {
      if (!released) await releaseClaims(deps.db, scope, [...owned]);
    }
    // What others are translating: wait for their memory rows, up to the deadline, unless they failed meanwhile.
    let waiting = toClaim.filter((hash) => !memory.has(hash) && !owned.has(hash));
    while (waiting.length > 0 && Date.now() + (options.pollMs ?? POLL_MS) < deadline) {
      await sleep(options.pollMs ?? POLL_MS);
      const seen = await readMemoryAndFailures(deps.db, scope, waiting);
      for (const [hash, entry] of seen.memory) memory.set(hash, entry);
      waiting = waiting.filter((hash) => {
        if (memory.has(hash)) return false;
        const failure = seen.failures.get(hash);
        // The request we waited for failed (after we started): the original now, not at the deadline.
        if (failure && failure.lastFailedAt >= startedAt) {
          failedNow.push(failure);
          return false;
        }
        return true;
      });
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
  const complete = found.length === hashes.length;
  return {
    texts,
    complete,
    reviewed: found.length > 0 && found.every((entry) => entry.origin === "edited"),
    engines: [...new Set(found.filter((entry) => entry.origin === "machine").map((entry) => entry.engine))],
    translatedNow,
    failure: complete ? undefined : summary([...failedNow, ...heldBack], failedNow.length === 0 && heldBack.length > 0),
  };
}

/** Characters and segments each engine translated in one call. */
function usageByEngine(entries: readonly { source: string; engine: string }[]): [string, { chars: number; calls: number }][] {
  const by = new Map<string, { chars: number; calls: number }>();
  for (const entry of entries) {
    const used = by.get(entry.engine) ?? { chars: 0, calls: 0 };
    used.chars += textsChars([entry.source]);
    by.set(entry.engine, used);
  }
  // One call per engine that answered (a batch may be split across engines when one fails).
  for (const used of by.values()) used.calls = 1;
  return [...by];
}

/** The failure row as the upsert just left it (its count and back-off), for the outcome. */
function newFailure(failure: { reason: FailureReason; detail: string }, before: SegmentFailure | undefined, engines: string, now: number): SegmentFailure {
  const same = before !== undefined && before.engines === engines;
  const count = same ? before.failures + 1 : 1;
  return {
    engines,
    reason: failure.reason,
    detail: failure.detail,
    failures: count,
    firstFailedAt: same ? before.firstFailedAt : now,
    lastFailedAt: now,
    retryAt: now + (failure.reason === "bound" ? BACKOFF_FIRST_MS : backoffMs(count)),
  };
}

export type TranslationStatus = "original" | "machine" | "reviewed" | "failed";

export interface TranslatedArticle {
  content: ArticleContent;
  status: TranslationStatus;
  engines: string[];
  /** The rendered content, when the caller's `render` made it (kept in the cache with the translation). */
  html?: string;
  /**
   * With status "failed": why, and whether engines were asked at all (`backingOff`: the original came at
   * once because this language failed lately; decision 030). The page shows the original with its notice.
   */
  failure?: TranslationFailure;
}

/**
 * Where an article's page in one language is cached: the content hash makes an edit a new key, and
 * `glossary` (`glossaryTag` of the rules for `lang` found in the content, "" when none) makes a
 * glossary change that touches the page a new key too (decision 026).
 */
export async function renderedTranslationKey(articleId: number, lang: string, content: ArticleContent, glossary = "", variant = ""): Promise<string> {
  // A variant (the easy-to-read version, decision 094) keeps its own keys under the article's and the
  // language's prefix, so the article's corrections and resets in that language drop it too.
  return `${renderedTranslationPrefix(articleId)}${lang}:${variant ? `${variant}:` : ""}${await sha256Hex(JSON.stringify(content))}${glossary ? `:g${glossary}` : ""}`;
}

// Cache keys by the content object itself (decision 133): a visitor snapshot's content is one object for every
// view of it in this isolate, so its segments, glossary tag and hash are worked out once, not on each view.
// Content is never changed in place (a translation or an edit is a new object).
const keysByContent = new WeakMap<ArticleContent, Map<string, Promise<string>>>();
const KEYS_PER_CONTENT = 32;

function articleKey(
  article: { id: number; content: ArticleContent },
  to: string,
  rules: readonly GlossaryRule[],
  variant: string | undefined,
): Promise<string> {
  const keys = keysByContent.get(article.content) ?? new Map<string, Promise<string>>();
  keysByContent.set(article.content, keys);
  const memo = JSON.stringify([article.id, to, variant ?? "", rules]);
  let key = keys.get(memo);
  if (!key) {
    key = glossaryTag(rules, articleSegments(article.content)).then((tag) => renderedTranslationKey(article.id, to, article.content, tag, variant));
    // A key that failed is worked out again next time rather than kept.
    key.catch(() => keys.delete(memo));
    keys.set(memo, key);
    if (keys.size > KEYS_PER_CONTENT) keys.delete(keys.keys().next().value!);
  }
  return key;
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
  /** Another text of the same article (the easy-to-read version: "easy"), cached under its own keys. */
  variant?: string;
}

/**
 * The article in `to`: from the KV cache when this exact content was translated before, else through
 * the memory and engines, then cached. A failed or partial translation gives the original with status
 * "failed" (and why, in `failure`) and is never cached; while its failure backs off, at once.
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
    options.glossary === "none" ? [] : Array.isArray(options.glossary) ? (options.glossary as GlossaryRule[]) : await deps.glossary(article.museumId, to);
  const key = await articleKey(article, to, rules, options.variant);
  const cached = await deps.kv.get<CachedTranslation>(key, "json");
  if (cached) return cached;
  const segments = articleSegments(article.content);
  const outcome = await translateSegments(deps, { museumId: article.museumId, from, to }, segments, {
    ...options,
    glossary: rules,
    articleId: options.articleId ?? article.id,
  });
  if (!outcome.complete) return { content: article.content, status: "failed", engines: [], ...(outcome.failure ? { failure: outcome.failure } : {}) };
  const translated: CachedTranslation = {
    content: mapSegments(article.content, (segment) => outcome.texts.get(segment) ?? segment),
    status: outcome.reviewed ? "reviewed" : "machine",
    engines: outcome.engines,
  };
  if (options.render) translated.html = await options.render(translated.content);
  // Complete now: nothing of this article fails in `to` any more (rows of segments an edit removed included).
  deps.waitUntil(
    clearArticleFailures(deps.db, { museumId: article.museumId, from, to }, article.id).catch((error: unknown) =>
      console.warn(`failures not cleared: ${short(error)}`),
    ),
  );
  deps.waitUntil(deps.kv.put(key, JSON.stringify(translated), { expirationTtl: CACHE_TTL_SECONDS }));
  return translated;
}
