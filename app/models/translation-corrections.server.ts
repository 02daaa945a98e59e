// Reviewed translations written in bulk (issue 19): "mark as reviewed" (the machine text kept as is), "mark
// all shown as reviewed" and an XLIFF file's targets all become staff corrections here, in ONE D1 batch
// (one transaction: all or nothing), then the cached visitor pages and subtitle files that show them are
// dropped so visitors see them at once.
import { chunks, rowsPerStatement } from "~/db/chunks";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, translationMemory, translationReviews } from "~/db/schema";
import { clearFailureStatements } from "~/translation/failures.server";
import { segmentStatements, type Statement } from "~/translation/memory.server";
import type { CatalogueEntry } from "~/translation/catalogue.server";
import { MEDIA_PREFIX } from "~/content/urls";
import { dropCachedPages, dropKvPrefix } from "./translations.server";

export interface Correction {
  articleId: number;
  /** The catalogue entry the text translates (its place, source and hash). */
  entry: CatalogueEntry;
  /** The reviewed translation. */
  text: string;
}

export interface CorrectionScope {
  museumId: number;
  sourceLang: string;
  lang: string;
}

// A memory row binds 8 values, a review row 8; each upsert's SET binds a few more (origin, engine and
// updatedAt; updatedAt), so one row fewer per statement keeps it under D1's 100.
const MEMORY_ROWS = rowsPerStatement(8) - 1;
const REVIEW_ROWS = rowsPerStatement(8) - 1;

/**
 * The statements that make `corrections` reviewed translations in `scope.lang`: the memory rows (origin
 * `edited`, they win over every engine for this sentence wherever the museum uses it), the review rows
 * (what the review was written for, so a later source change shows as stale) and the end of the engine
 * failures they held back. Put them in one batch with whatever else must commit with them (an audit
 * entry). A sentence corrected twice in one call keeps its last text.
 */
export function correctionStatements(db: Database, scope: CorrectionScope, corrections: readonly Correction[], now = Date.now()): Statement[] {
  const byHash = new Map<string, Correction>();
  const byPlace = new Map<string, Correction>();
  for (const correction of corrections) {
    byHash.set(correction.entry.hash, correction);
    byPlace.set(`${correction.articleId}\u0000${correction.entry.id}`, correction);
  }
  const memory = chunks([...byHash.values()], MEMORY_ROWS).map((chunk) =>
    db
      .insert(translationMemory)
      .values(
        chunk.map((c) => ({
          museumId: scope.museumId,
          sourceLang: scope.sourceLang,
          targetLang: scope.lang,
          sourceHash: c.entry.hash,
          text: c.text,
          origin: "edited" as const,
          engine: "staff",
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [translationMemory.museumId, translationMemory.sourceLang, translationMemory.targetLang, translationMemory.sourceHash],
        set: { text: sql`excluded.text`, origin: "edited", engine: "staff", updatedAt: now },
      }),
  );
  const reviews = chunks([...byPlace.values()], REVIEW_ROWS).map((chunk) =>
    db
      .insert(translationReviews)
      .values(
        chunk.map((c) => ({
          museumId: scope.museumId,
          articleId: c.articleId,
          targetLang: scope.lang,
          segmentId: c.entry.id,
          sourceHash: c.entry.hash,
          sourceText: c.entry.source,
          text: c.text,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [translationReviews.articleId, translationReviews.targetLang, translationReviews.segmentId],
        set: { sourceHash: sql`excluded.source_hash`, sourceText: sql`excluded.source_text`, text: sql`excluded.text`, updatedAt: now },
      }),
  );
  const failures = clearFailureStatements(db, { museumId: scope.museumId, from: scope.sourceLang, to: scope.lang }, [...byHash.keys()]);
  const segments = segmentStatements(
    db,
    scope.museumId,
    scope.sourceLang,
    [...byHash.values()].map((c) => ({ hash: c.entry.hash, source: c.entry.source })),
  );
  return [...segments, ...memory, ...reviews, ...failures];
}

/** Articles of the museum whose content (draft or published) holds any of these texts, in their JSON spelling. */
async function articlesContaining(db: Database, museumId: number, texts: readonly string[]): Promise<number[]> {
  const needles = texts.map((text) => JSON.stringify(text).slice(1, -1));
  const rows = await db
    .select({ id: articles.id })
    .from(articles)
    .where(
      and(
        eq(articles.museumId, museumId),
        sql`(${sql.join(
          needles.map((needle) => sql`instr(${articles.content}, ${needle}) > 0 OR instr(coalesce(${articles.publishedContent}, ''), ${needle}) > 0`),
          sql` OR `,
        )})`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * After the batch committed: drops the cached pages in `lang` of the corrected articles and of every
 * article sharing a corrected sentence, and the translated subtitle files (`/vtt`) holding a corrected
 * cue, and marks the museum's visitor snapshot changed (decision 039).
 */
export async function dropCorrectedCaches(db: Database, kv: KVNamespace, scope: CorrectionScope, corrections: readonly Correction[]) {
  const affected = new Set(corrections.map((c) => c.articleId));
  // A text shared with other articles: one scan of the museum's articles per 45 distinct sources (2 bound
  // values each, D1 binds at most 100), rather than one per source (1,000 sources took 2 s locally).
  const sources = [...new Set(corrections.filter((c) => c.entry.kind !== "subtitle").map((c) => c.entry.source))];
  for (const batch of chunks(chunks(sources, 45), 4)) {
    for (const ids of await Promise.all(batch.map((texts) => articlesContaining(db, scope.museumId, texts)))) ids.forEach((id) => affected.add(id));
  }
  const files = new Set(corrections.flatMap((c) => (c.entry.cue ? [c.entry.cue.file] : [])));
  await Promise.all([...[...affected].map((id) => dropCachedPages(kv, id, scope.lang)), dropSubtitleCaches(kv, files, scope.lang)]);
}

/** Drops the translated subtitle files (`/vtt`) in `lang` of these subtitle uploads (`/media/…` addresses). */
export async function dropSubtitleCaches(kv: KVNamespace, files: Iterable<string>, lang: string) {
  // `/vtt` caches per file and language (with a glossary suffix after it): `vtt:v1:{key}:{lang}…`.
  await Promise.all([...files].map((file) => dropKvPrefix(kv, `vtt:v1:${file.slice(MEDIA_PREFIX.length)}:${lang}`)));
}
