// Staff review of an article's translations (issue 9): what exists per language, the segments side by
// side, corrections that win over every engine, stale flags when a reviewed source changed, resets,
// pretranslation, and the problems visitors report.
import { chunks, IN_LIST_MAX } from "~/db/chunks";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { dailyStats, museums, translationFailures, translationMemory, translationReports, translationReviews } from "~/db/schema";
import { DomainError, invalidField, notFound } from "~/errors";
import { clearFailureStatements, type FailureReason } from "~/translation/failures.server";
import { articleCatalogue, type CatalogueEntry, type SegmentKind, type SubtitleReader } from "~/translation/catalogue.server";
import { translateArticle, translateSegments, type TranslationDeps } from "~/translation/translate.server";
import { correctionStatements, dropCorrectedCaches, dropSubtitleCaches } from "./translation-corrections.server";
import { dropCachedPages } from "./translations.server";
import { readArticle } from "./tree.server";
import { auditStatement, recordAudit, type AuditActor } from "~/audit/log.server";
import type { Statement } from "~/translation/memory.server";

const HASHES_PER_STATEMENT = IN_LIST_MAX;
/** How much of a correction the audit entry keeps (code points): enough to recognise it. */
const AUDITED_TEXT_MAX = 200;

async function sourceLanguage(db: Database, museumId: number): Promise<string> {
  const row = await db.select({ lang: museums.sourceLang }).from(museums).where(eq(museums.id, museumId)).get();
  if (!row) throw notFound("Museum");
  return row.lang;
}

/**
 * The live article, its source language and its review catalogue (text segments and its videos' subtitle
 * cues, decision 050) with their hashes, in content order. Reviews and stale flags follow the PUBLISHED
 * text, what visitors read (decision 041); an article never published has only its draft.
 */
export async function articleSegmentsOf(db: Database, museumId: number, articleId: number, readSubtitles: SubtitleReader) {
  const [article, sourceLang] = await Promise.all([readArticle(db, museumId, articleId), sourceLanguage(db, museumId)]);
  const reviewed = article.published?.content ?? article.content;
  const entries = await articleCatalogue(reviewed, readSubtitles);
  return { article, sourceLang, entries, hashes: [...new Set(entries.map((e) => e.hash))] };
}

export function notSource(lang: string, sourceLang: string) {
  if (lang === sourceLang) throw invalidField("lang", "source_language");
}

export type MemoryRow = { lang: string; hash: string; text: string; origin: "machine" | "edited" };

export async function memoryRows(db: Database, museumId: number, sourceLang: string, hashes: readonly string[], lang?: string): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  for (const chunk of chunks(hashes, HASHES_PER_STATEMENT - 1)) {
    rows.push(
      ...(await db
        .select({ lang: translationMemory.targetLang, hash: translationMemory.sourceHash, text: translationMemory.text, origin: translationMemory.origin })
        .from(translationMemory)
        .where(
          and(
            eq(translationMemory.museumId, museumId),
            eq(translationMemory.sourceLang, sourceLang),
            inArray(translationMemory.sourceHash, chunk),
            lang === undefined ? undefined : eq(translationMemory.targetLang, lang),
          ),
        )),
    );
  }
  return rows;
}

async function reviewRows(db: Database, museumId: number, articleId: number, lang?: string) {
  return db
    .select({
      lang: translationReviews.targetLang,
      segmentId: translationReviews.segmentId,
      hash: translationReviews.sourceHash,
      source: translationReviews.sourceText,
      text: translationReviews.text,
    })
    .from(translationReviews)
    .where(
      and(
        eq(translationReviews.museumId, museumId),
        eq(translationReviews.articleId, articleId),
        lang === undefined ? undefined : eq(translationReviews.targetLang, lang),
      ),
    );
}

export type Review = Awaited<ReturnType<typeof reviewRows>>[number];

/**
 * A reviewed translation is stale when the source at its place changed since the review, the new
 * source has no staff translation, and the old source is nowhere in the article any more (a paragraph
 * that only moved is not stale).
 */
export function staleReview(review: Review | undefined, hash: string, memory: MemoryRow | undefined, current: ReadonlySet<string>): review is Review {
  return review !== undefined && review.hash !== hash && memory?.origin !== "edited" && !current.has(review.hash);
}

type FailureRow = { lang: string; hash: string; reason: FailureReason; detail: string; firstFailedAt: number; lastFailedAt: number; retryAt: number };

async function failureRows(db: Database, museumId: number, sourceLang: string, hashes: readonly string[], lang?: string): Promise<FailureRow[]> {
  const rows: FailureRow[] = [];
  for (const chunk of chunks(hashes, HASHES_PER_STATEMENT - 1)) {
    rows.push(
      ...(await db
        .select({
          lang: translationFailures.targetLang,
          hash: translationFailures.sourceHash,
          reason: translationFailures.reason,
          detail: translationFailures.detail,
          firstFailedAt: translationFailures.firstFailedAt,
          lastFailedAt: translationFailures.lastFailedAt,
          retryAt: translationFailures.retryAt,
        })
        .from(translationFailures)
        .where(
          and(
            eq(translationFailures.museumId, museumId),
            eq(translationFailures.sourceLang, sourceLang),
            inArray(translationFailures.sourceHash, chunk),
            lang === undefined ? undefined : eq(translationFailures.targetLang, lang),
          ),
        )),
    );
  }
  return rows;
}

/**
 * "Translation failing since …" for one language of an article (decision 030): its segments whose last
 * engine call failed and that still have no translation. `since` and the reason are the oldest failure's;
 * `retryAt` is when the engines are next asked on a visitor's view.
 */
export interface TranslationFailing {
  segments: number;
  reason: FailureReason;
  detail: string;
  since: number;
  lastFailedAt: number;
  retryAt: number;
}

function failingSummary(rows: readonly FailureRow[], translated: (hash: string) => boolean): TranslationFailing | null {
  const open = rows.filter((row) => !translated(row.hash)).sort((a, b) => a.firstFailedAt - b.firstFailedAt);
  const [oldest] = open;
  if (!oldest) return null;
  return {
    segments: new Set(open.map((row) => row.hash)).size,
    reason: oldest.reason,
    detail: oldest.detail,
    since: oldest.firstFailedAt,
    lastFailedAt: Math.max(...open.map((row) => row.lastFailedAt)),
    retryAt: Math.min(...open.map((row) => row.retryAt)),
  };
}

export interface TranslationLanguage {
  lang: string;
  views: number;
  segments: number;
  reviewed: number;
  stale: number;
  reports: number;
  /** Null unless some of its segments failed lately and have no translation yet. */
  failing: TranslationFailing | null;
}

/**
 * `GET /api/read/translations`: every language the article has a translation (or an open report) in, and
 * `total`, the article's distinct source sentences (subtitle cues included) that each language's
 * `segments` counts against. `offered` languages (a translator's own, decision 123) have a row even
 * before anything is translated into them, so a new article shows its translator where to start.
 */
export async function listTranslationLanguages(
  db: Database,
  museumId: number,
  articleId: number,
  readSubtitles: SubtitleReader,
  offered: readonly string[] = [],
): Promise<{ languages: TranslationLanguage[]; total: number }> {
  const { entries, hashes, sourceLang } = await articleSegmentsOf(db, museumId, articleId, readSubtitles);
  const [memory, reviews, reports, views, failures] = await Promise.all([
    memoryRows(db, museumId, sourceLang, hashes),
    reviewRows(db, museumId, articleId),
    db
      .select({ lang: translationReports.lang, count: sql<number>`count(*)` })
      .from(translationReports)
      .where(and(eq(translationReports.museumId, museumId), eq(translationReports.articleId, articleId), isNull(translationReports.resolvedAt)))
      .groupBy(translationReports.lang),
    db
      .select({ lang: dailyStats.lang, count: sql<number>`sum(${dailyStats.scans} + ${dailyStats.views})` })
      .from(dailyStats)
      .where(and(eq(dailyStats.museumId, museumId), eq(dailyStats.articleId, articleId)))
      .groupBy(dailyStats.lang),
    failureRows(db, museumId, sourceLang, hashes),
  ]);
  const current = new Set(hashes);
  const langs = new Set([
    ...offered,
    ...memory.map((r) => r.lang),
    ...reports.map((r) => r.lang),
    ...reviews.map((r) => r.lang),
    ...failures.map((r) => r.lang),
  ]);
  langs.delete(sourceLang);
  const languages = [...langs].sort().map((lang) => {
    const rows = new Map(memory.filter((r) => r.lang === lang).map((r) => [r.hash, r]));
    const byPlace = new Map(reviews.filter((r) => r.lang === lang).map((r) => [r.segmentId, r]));
    return {
      lang,
      views: Number(views.find((v) => v.lang === lang)?.count ?? 0),
      segments: hashes.filter((h) => rows.has(h)).length,
      reviewed: hashes.filter((h) => rows.get(h)?.origin === "edited").length,
      stale: entries.filter((e) => staleReview(byPlace.get(e.id), e.hash, rows.get(e.hash), current)).length,
      reports: Number(reports.find((r) => r.lang === lang)?.count ?? 0),
      failing: failingSummary(
        failures.filter((r) => r.lang === lang),
        (hash) => rows.has(hash),
      ),
    };
  });
  return { languages, total: hashes.length };
}

export interface ReviewSegment {
  id: string;
  source: string;
  /** What the segment is (a subtitle cue, an alt text …) and the top-level element it belongs to. */
  kind: SegmentKind;
  element: number;
  /** For a subtitle cue: its timings and subtitle file. */
  cue?: CatalogueEntry["cue"];
  /** The translation staff see: theirs when reviewed (even stale), else the machine's; null when none yet. */
  text: string | null;
  origin: "machine" | "edited" | null;
  stale: boolean;
  /** For a stale review: the source it was written for. */
  previousSource?: string;
  /** For a stale review: what visitors get meanwhile (the fresh machine translation), if made yet. */
  machineText?: string | null;
}

/** `GET /api/read/translation`: the article's segments in content order with their translation in `lang`. */
export async function readTranslation(db: Database, museumId: number, articleId: number, lang: string, readSubtitles: SubtitleReader) {
  const { entries, hashes, sourceLang } = await articleSegmentsOf(db, museumId, articleId, readSubtitles);
  notSource(lang, sourceLang);
  const [memory, reviews, reports, failures] = await Promise.all([
    memoryRows(db, museumId, sourceLang, hashes, lang),
    reviewRows(db, museumId, articleId, lang),
    db
      .select({ id: translationReports.id, message: translationReports.message, createdAt: translationReports.createdAt })
      .from(translationReports)
      .where(
        and(
          eq(translationReports.museumId, museumId),
          eq(translationReports.articleId, articleId),
          eq(translationReports.lang, lang),
          isNull(translationReports.resolvedAt),
        ),
      )
      .orderBy(translationReports.createdAt),
    failureRows(db, museumId, sourceLang, hashes, lang),
  ]);
  const rows = new Map(memory.map((r) => [r.hash, r]));
  const byPlace = new Map(reviews.map((r) => [r.segmentId, r]));
  const current = new Set(hashes);
  const segments: ReviewSegment[] = entries.map(({ id, source, hash, kind, element, cue }) => {
    const row = rows.get(hash);
    const review = byPlace.get(id);
    const place = { id, source, kind, element, ...(cue ? { cue } : {}) };
    if (staleReview(review, hash, row, current)) {
      return { ...place, text: review.text, origin: "edited", stale: true, previousSource: review.source, machineText: row?.text ?? null };
    }
    return { ...place, text: row?.text ?? null, origin: row?.origin ?? null, stale: false };
  });
  const failing = failingSummary(failures, (hash) => rows.has(hash));
  return { articleId, lang, sourceLang, segments, reports, failing };
}

/**
 * `POST /api/manage/update_translation`: the staff text becomes the segment's translation in `lang`
 * (`origin: edited`), wins over every engine from now on, for this sentence wherever the museum uses
 * it, and the cached pages (and, for a subtitle cue, the translated subtitle file) that show it are
 * dropped so visitors see it at once. The correction and its audit entry are one batch (decision 124).
 */
export async function updateTranslation(
  db: Database,
  kv: KVNamespace,
  museumId: number,
  input: { articleId: number; lang: string; segmentId: string; text: string },
  readSubtitles: SubtitleReader,
  actor: AuditActor,
) {
  const { entries, sourceLang, article } = await articleSegmentsOf(db, museumId, input.articleId, readSubtitles);
  notSource(input.lang, sourceLang);
  const entry = entries.find((e) => e.id === input.segmentId);
  if (!entry) throw notFound("Segment", "segmentId");
  const scope = { museumId, sourceLang, lang: input.lang };
  const corrections = [{ articleId: input.articleId, entry, text: input.text }];
  const audit = auditStatement(db, {
    museumId,
    actor,
    action: "translations.update",
    target: `article:${input.articleId}`,
    detail: { name: article.unformatted_name, lang: input.lang, segment: entry.id, text: [...input.text].slice(0, AUDITED_TEXT_MAX).join("") },
  });
  const [first, ...rest]: Statement[] = [...correctionStatements(db, scope, corrections), audit];
  await db.batch([first!, ...rest]);
  await dropCorrectedCaches(db, kv, scope, corrections);
  const { id, source, kind, element, cue } = entry;
  return {
    articleId: input.articleId,
    lang: input.lang,
    segment: { id, source, kind, element, ...(cue ? { cue } : {}), text: input.text, origin: "edited" as const, stale: false },
  };
}

/**
 * `POST /api/manage/reset_translation`: forgets the article's translation in one language (machine and
 * staff). The memory rows and the review rows go in one D1 batch (one transaction), so a correction
 * saved at the same moment is either gone with its review row or kept with it, never kept without it
 * (issue 16: without the batch, its stale flag could never fire).
 */
export async function resetTranslation(
  db: Database,
  kv: KVNamespace,
  museumId: number,
  input: { articleId: number; lang: string },
  actor: AuditActor,
  readSubtitles: SubtitleReader,
) {
  const { hashes, sourceLang, article, entries } = await articleSegmentsOf(db, museumId, input.articleId, readSubtitles);
  notSource(input.lang, sourceLang);
  const memoryDeletes = chunks(hashes, HASHES_PER_STATEMENT - 2).map((chunk) =>
    db
      .delete(translationMemory)
      .where(
        and(
          eq(translationMemory.museumId, museumId),
          eq(translationMemory.sourceLang, sourceLang),
          eq(translationMemory.targetLang, input.lang),
          inArray(translationMemory.sourceHash, chunk),
        ),
      )
      .returning({ hash: translationMemory.sourceHash }),
  );
  const reviewDelete = db
    .delete(translationReviews)
    .where(and(eq(translationReviews.museumId, museumId), eq(translationReviews.articleId, input.articleId), eq(translationReviews.targetLang, input.lang)));
  // Staff asked for a fresh translation: the next view asks the engines, back-off or not (decision 030).
  const failureDeletes = clearFailureStatements(db, { museumId, from: sourceLang, to: input.lang }, hashes);
  const audit = auditStatement(db, {
    museumId,
    actor,
    action: "translations.reset",
    target: `article:${input.articleId}`,
    detail: { name: article.unformatted_name, languages: [input.lang] },
  });
  const results = await db.batch([reviewDelete, ...memoryDeletes, ...failureDeletes, audit]);
  const deleted = results.slice(1, 1 + memoryDeletes.length).reduce((n, rows) => n + (rows as unknown[]).length, 0);
  // The subtitle cues were reset with the text: their translated files are made again on the next view.
  const files = new Set(entries.flatMap((e) => (e.cue ? [e.cue.file] : [])));
  await Promise.all([dropCachedPages(kv, input.articleId, input.lang), dropSubtitleCaches(kv, files, input.lang)]);
  return { articleId: input.articleId, lang: input.lang, deleted };
}

/**
 * `POST /api/manage/pretranslate`: translates the article now into each language (two at a time), so
 * staff can review before the exhibition opens. Each language reports its own outcome; a failed one can
 * simply be asked again. The published text is translated, and the draft too when it differs (its new
 * sentences), so a new language is ready the moment the draft is published (decision 041): `status` is
 * the published text's (the draft's for an article never published), `draftStatus` the draft's.
 */
export async function pretranslate(
  deps: TranslationDeps,
  museumId: number,
  input: { articleId: number; langs: string[] },
  readSubtitles: SubtitleReader,
  actor: AuditActor,
) {
  const { article, sourceLang, entries } = await articleSegmentsOf(deps.db, museumId, input.articleId, readSubtitles);
  for (const lang of input.langs) notSource(lang, sourceLang);
  const published = article.published?.content ?? article.content;
  const draft = article.published && article.status === "draft" ? article.content : null;
  const results: { lang: string; status: string; draftStatus?: string }[] = [];
  const cues = entries.filter((e) => e.kind === "subtitle").map((e) => e.source);
  const queue = [...input.langs];
  const worker = async () => {
    for (let lang = queue.shift(); lang !== undefined; lang = queue.shift()) {
      // Staff asking now: the engines are called even while a visitor's back-off holds (decision 030).
      const options = { deadlineMs: 25_000, ignoreBackoff: true };
      const outcome = await translateArticle(deps, { id: article.id, museumId, content: published }, sourceLang, lang, options);
      // The draft after: the sentences it shares with the published text come from the memory.
      const drafted = draft ? await translateArticle(deps, { id: article.id, museumId, content: draft }, sourceLang, lang, options) : null;
      // The published text's subtitle cues too (decision 050): the counts then cover what visitors get.
      const subtitled =
        cues.length > 0 ? await translateSegments(deps, { museumId, from: sourceLang, to: lang }, cues, { ...options, articleId: article.id }) : null;
      const status =
        subtitled && !subtitled.complete ? "failed" : subtitled && outcome.status === "reviewed" && !subtitled.reviewed ? "machine" : outcome.status;
      results.push({ lang, status, ...(drafted ? { draftStatus: drafted.status } : {}) });
    }
  };
  await Promise.all([worker(), worker()]);
  results.sort((a, b) => input.langs.indexOf(a.lang) - input.langs.indexOf(b.lang));
  // The languages that got machine text are a change staff asked for (decision 124); all failed, nothing changed.
  const translated = results.filter((r) => r.status !== "failed").map((r) => r.lang);
  if (translated.length > 0) {
    await recordAudit(deps.db, {
      museumId,
      actor,
      action: "translations.pretranslate",
      target: `article:${article.id}`,
      detail: { name: article.unformatted_name, languages: translated },
    });
  }
  return { articleId: article.id, results };
}

/** A visitor's report on the article's translation in `lang` (no login; the route rate-limits it). */
export async function addReport(db: Database, report: { museumId: number; articleId: number; lang: string; message: string }) {
  await db.insert(translationReports).values({ ...report, createdAt: Date.now() });
}

/** `POST /api/manage/resolve_report`: marks a report handled (again is harmless: the first time stays). */
export async function resolveReport(db: Database, museumId: number, reportId: number, mayReview: (lang: string) => boolean = () => true) {
  const now = Date.now();
  // A translator limited to some languages answers only their languages' reports (decision 040).
  const report = await db
    .select({ lang: translationReports.lang })
    .from(translationReports)
    .where(and(eq(translationReports.id, reportId), eq(translationReports.museumId, museumId)))
    .get();
  if (!report) throw notFound("Report", "reportId");
  if (!mayReview(report.lang)) throw new DomainError("forbidden", `Your role does not cover translations into ${report.lang}`, "reportId");
  const row = await db
    .update(translationReports)
    .set({ resolvedAt: sql`coalesce(${translationReports.resolvedAt}, ${now})` })
    .where(and(eq(translationReports.id, reportId), eq(translationReports.museumId, museumId)))
    .returning({ id: translationReports.id, resolvedAt: translationReports.resolvedAt })
    .get();
  if (!row) throw notFound("Report", "reportId");
  return row;
}

/** Open reports of the museum, for the dashboard. */
export async function openReportCount(db: Database, museumId: number): Promise<number> {
  const row = await db
    .select({ count: sql<number>`count(*)` })
    .from(translationReports)
    .where(and(eq(translationReports.museumId, museumId), isNull(translationReports.resolvedAt)))
    .get();
  return Number(row?.count ?? 0);
}
