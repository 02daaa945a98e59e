import { chunks, IN_LIST_MAX, rowsPerStatement } from "~/db/chunks";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { translationFailures } from "~/db/schema";
import type { MemoryScope } from "./memory.server";

/**
 * Why a segment has no translation (decision 030): every engine answered with errors ("failed"), the
 * visitor's deadline passed first ("deadline"), or every engine lost a glossary-protected term ("glossary").
 */
/** "bound": the museum's monthly translation bound is reached (decision 148); asked again a minute later, without doubling. */
export type FailureReason = "failed" | "deadline" | "glossary" | "bound";
export const FAILURE_REASONS: readonly FailureReason[] = ["failed", "deadline", "glossary", "bound"];

/** The back-off after the n-th failure in a row: 1 min, doubling, at most 1 h (decision 030). */
export const BACKOFF_FIRST_MS = 60_000;
export const BACKOFF_MAX_MS = 3_600_000;
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, Math.min(failures - 1, 10)));
}

/** What is remembered of a segment's last failure. */
export interface SegmentFailure {
  engines: string;
  reason: FailureReason;
  detail: string;
  failures: number;
  firstFailedAt: number;
  lastFailedAt: number;
  retryAt: number;
}

export interface NewFailure {
  hash: string;
  reason: FailureReason;
  detail: string;
}

// D1 allows 100 bound parameters per statement: the scope takes three, the rest are hashes.
const HASHES_PER_READ = IN_LIST_MAX;
// A failure row binds 12 values.
const ROWS_PER_WRITE = rowsPerStatement(12);
const DETAIL_MAX = 300;

/** The engine list a failure is remembered for: the same segment with other engines is tried at once. */
export function engineChain(engines: readonly { id: string }[]): string {
  return engines.map((engine) => engine.id).join(",");
}

/** Whether this failure holds the segment back now, for these engines. */
export function backingOff(failure: SegmentFailure | undefined, engines: string, now: number): failure is SegmentFailure {
  return failure !== undefined && failure.engines === engines && failure.retryAt > now;
}

const columns = {
  hash: translationFailures.sourceHash,
  engines: translationFailures.engines,
  reason: translationFailures.reason,
  detail: translationFailures.detail,
  failures: translationFailures.failures,
  firstFailedAt: translationFailures.firstFailedAt,
  lastFailedAt: translationFailures.lastFailedAt,
  retryAt: translationFailures.retryAt,
};

function scoped(scope: MemoryScope, hashes: readonly string[]) {
  return and(
    eq(translationFailures.museumId, scope.museumId),
    eq(translationFailures.sourceLang, scope.from),
    eq(translationFailures.targetLang, scope.to),
    inArray(translationFailures.sourceHash, [...hashes]),
  );
}

/** The failure rows of these hashes (at most HASHES_PER_READ): for a D1 batch. */
export function failuresQuery(db: Database, scope: MemoryScope, hashes: readonly string[]) {
  return db.select(columns).from(translationFailures).where(scoped(scope, hashes));
}

export function failureMap(rows: readonly ({ hash: string } & SegmentFailure)[]): Map<string, SegmentFailure> {
  return new Map(rows.map(({ hash, ...failure }) => [hash, failure]));
}

/** The remembered failures of these segments. */
export async function readFailures(db: Database, scope: MemoryScope, hashes: readonly string[]): Promise<Map<string, SegmentFailure>> {
  const found = new Map<string, SegmentFailure>();
  for (const chunk of chunks([...new Set(hashes)], HASHES_PER_READ)) {
    for (const [hash, failure] of failureMap(await failuresQuery(db, scope, chunk))) found.set(hash, failure);
  }
  return found;
}

/**
 * Statements remembering these failures (for a D1 batch, with the claims' release). One upsert per chunk:
 * a failure in a row with the same engines doubles the wait (`retry_at` = now + 1 min × 2^(failures so
 * far), at most 1 h) and keeps `first_failed_at`; other engines start again at one failure. Every
 * expression reads the row as it was, so two requests failing at once never lose a count.
 */
export function recordFailureStatements(
  db: Database,
  scope: MemoryScope,
  failures: readonly NewFailure[],
  context: { engines: string; articleId?: number; now: number },
) {
  const { engines, articleId, now } = context;
  const same = sql`${translationFailures.engines} = excluded.engines`;
  return chunks(failures, ROWS_PER_WRITE).map((chunk) =>
    db
      .insert(translationFailures)
      .values(
        chunk.map((failure) => ({
          museumId: scope.museumId,
          sourceLang: scope.from,
          targetLang: scope.to,
          sourceHash: failure.hash,
          articleId: articleId ?? null,
          engines,
          reason: failure.reason,
          detail: failure.detail.slice(0, DETAIL_MAX),
          failures: 1,
          firstFailedAt: now,
          lastFailedAt: now,
          retryAt: now + backoffMs(1),
        })),
      )
      .onConflictDoUpdate({
        target: [translationFailures.museumId, translationFailures.sourceLang, translationFailures.targetLang, translationFailures.sourceHash],
        set: {
          failures: sql`CASE WHEN ${same} THEN ${translationFailures.failures} + 1 ELSE 1 END`,
          firstFailedAt: sql`CASE WHEN ${same} THEN ${translationFailures.firstFailedAt} ELSE excluded.first_failed_at END`,
          // A bound reached is asked again a minute later (an operator may raise it), never doubled.
          retryAt: sql`CASE WHEN excluded.reason = 'bound' THEN excluded.last_failed_at + ${BACKOFF_FIRST_MS}
            ELSE excluded.last_failed_at + min(${BACKOFF_MAX_MS}, ${BACKOFF_FIRST_MS} << min(CASE WHEN ${same} THEN ${translationFailures.failures} ELSE 0 END, 10)) END`,
          lastFailedAt: sql`excluded.last_failed_at`,
          engines: sql`excluded.engines`,
          reason: sql`excluded.reason`,
          detail: sql`excluded.detail`,
          articleId: sql`coalesce(excluded.article_id, ${translationFailures.articleId})`,
        },
      }),
  );
}

/** Statements forgetting the failures of these segments: a success, a staff correction, a reset. */
export function clearFailureStatements(db: Database, scope: MemoryScope, hashes: readonly string[]) {
  return chunks([...new Set(hashes)], HASHES_PER_READ).map((chunk) => db.delete(translationFailures).where(scoped(scope, chunk)));
}

/**
 * Forgets what failed for an article in one language once it translated completely: rows of segments
 * that an edit removed would otherwise keep a "failing" notice on the dashboard.
 */
export async function clearArticleFailures(db: Database, scope: MemoryScope, articleId: number) {
  await db
    .delete(translationFailures)
    .where(
      and(
        eq(translationFailures.museumId, scope.museumId),
        eq(translationFailures.sourceLang, scope.from),
        eq(translationFailures.targetLang, scope.to),
        eq(translationFailures.articleId, articleId),
      ),
    );
}
