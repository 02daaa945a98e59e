import { chunks, IN_LIST_MAX, rowsPerStatement } from "~/db/chunks";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "~/db/client.server";
import { translationClaims, translationMemory, translationSegments } from "~/db/schema";
import { failureMap, failuresQuery, type SegmentFailure } from "./failures.server";

/** Extra statements that must commit with a write (failures remembered or forgotten). */
export type Statement = BatchItem<"sqlite">;

/** One language pair of one museum: the scope of every memory row and claim. */
export interface MemoryScope {
  museumId: number;
  from: string;
  to: string;
}

export interface MemoryEntry {
  text: string;
  origin: "machine" | "edited";
  engine: string;
}

export interface NewMemoryEntry {
  hash: string;
  source: string;
  text: string;
  engine: string;
}

// D1 allows 100 bound parameters per statement: the scope takes three, the rest are hashes.
const HASHES_PER_READ = IN_LIST_MAX;
// A memory row binds 8 values; a segment 4; a claim binds 5.
const ROWS_PER_WRITE = rowsPerStatement(8);
const SEGMENTS_PER_WRITE = rowsPerStatement(4);
const CLAIMS_PER_WRITE = rowsPerStatement(5) - 2;

/** The memory rows of these hashes (at most HASHES_PER_READ) in one language pair. */
function memoryQuery(db: Database, scope: MemoryScope, hashes: readonly string[]) {
  return db
    .select({ hash: translationMemory.sourceHash, text: translationMemory.text, origin: translationMemory.origin, engine: translationMemory.engine })
    .from(translationMemory)
    .where(
      and(
        eq(translationMemory.museumId, scope.museumId),
        eq(translationMemory.sourceLang, scope.from),
        eq(translationMemory.targetLang, scope.to),
        inArray(translationMemory.sourceHash, [...hashes]),
      ),
    );
}

/** Takes the claims of these hashes (at most CLAIMS_PER_WRITE) that are free or expired; returns those taken. */
function claimStatement(db: Database, scope: MemoryScope, hashes: readonly string[], ttlMs: number, now: number) {
  return db
    .insert(translationClaims)
    .values(hashes.map((hash) => ({ museumId: scope.museumId, sourceLang: scope.from, targetLang: scope.to, sourceHash: hash, expiresAt: now + ttlMs })))
    .onConflictDoUpdate({
      target: [translationClaims.museumId, translationClaims.sourceLang, translationClaims.targetLang, translationClaims.sourceHash],
      set: { expiresAt: sql`excluded.expires_at` },
      setWhere: lt(translationClaims.expiresAt, now),
    })
    .returning({ hash: translationClaims.sourceHash });
}

/** Gives back the claims of these hashes (at most HASHES_PER_READ). */
function releaseStatement(db: Database, scope: MemoryScope, hashes: readonly string[]) {
  return db
    .delete(translationClaims)
    .where(
      and(
        eq(translationClaims.museumId, scope.museumId),
        eq(translationClaims.sourceLang, scope.from),
        eq(translationClaims.targetLang, scope.to),
        inArray(translationClaims.sourceHash, [...hashes]),
      ),
    );
}

/** The stored translations of these segment hashes, staff-edited and machine alike. */
export async function readMemory(db: Database, scope: MemoryScope, hashes: readonly string[]): Promise<Map<string, MemoryEntry>> {
  const found = new Map<string, MemoryEntry>();
  for (const chunk of chunks([...new Set(hashes)], HASHES_PER_READ)) {
    const rows = await memoryQuery(db, scope, chunk);
    for (const row of rows) found.set(row.hash, { text: row.text, origin: row.origin, engine: row.engine });
  }
  return found;
}

/**
 * The stored translations of these segments and, in the same read, the failures remembered for them
 * (decision 030): one round trip per chunk.
 */
export async function readMemoryAndFailures(db: Database, scope: MemoryScope, hashes: readonly string[]) {
  const memory = new Map<string, MemoryEntry>();
  const failures = new Map<string, SegmentFailure>();
  for (const chunk of chunks([...new Set(hashes)], HASHES_PER_READ)) {
    const [rows, failed] = await db.batch([memoryQuery(db, scope, chunk), failuresQuery(db, scope, chunk)]);
    for (const row of rows) memory.set(row.hash, { text: row.text, origin: row.origin, engine: row.engine });
    for (const [hash, failure] of failureMap(failed)) failures.set(hash, failure);
  }
  return { memory, failures };
}

/**
 * The statements that store each segment's source text once (0014, decision 145), to run before the memory rows
 * that point at them in the same batch (their foreign key). A segment already stored is left as it is: its hash
 * is of that very text.
 */
export function segmentStatements(db: Database, museumId: number, sourceLang: string, segments: readonly { hash: string; source: string }[]): Statement[] {
  const unique = [...new Map(segments.map((segment) => [segment.hash, segment])).values()];
  return chunks(unique, SEGMENTS_PER_WRITE).map((chunk) =>
    db
      .insert(translationSegments)
      .values(chunk.map((segment) => ({ museumId, sourceLang, sourceHash: segment.hash, sourceText: segment.source })))
      .onConflictDoNothing(),
  );
}

/**
 * Stores machine translations and returns the hashes written; `release` gives those claims back and
 * `extra` (failures remembered or forgotten) runs in the same transaction. A row staff edited meanwhile
 * is kept (and not returned): the machine never overwrites a person's correction.
 */
export async function writeMachineMemory(
  db: Database,
  scope: MemoryScope,
  entries: readonly NewMemoryEntry[],
  release: readonly string[] = [],
  now = Date.now(),
  extra: readonly Statement[] = [],
) {
  const statements = chunks(entries, ROWS_PER_WRITE).map((chunk) =>
    db
      .insert(translationMemory)
      .values(
        chunk.map((entry) => ({
          museumId: scope.museumId,
          sourceLang: scope.from,
          targetLang: scope.to,
          sourceHash: entry.hash,
          text: entry.text,
          origin: "machine" as const,
          engine: entry.engine,
          updatedAt: now,
        })),
      )
      .onConflictDoUpdate({
        target: [translationMemory.museumId, translationMemory.sourceLang, translationMemory.targetLang, translationMemory.sourceHash],
        set: { text: sql`excluded.text`, engine: sql`excluded.engine`, updatedAt: sql`excluded.updated_at` },
        setWhere: sql`${translationMemory.origin} = 'machine'`,
      })
      .returning({ hash: translationMemory.sourceHash }),
  );
  const releases = chunks([...new Set(release)], HASHES_PER_READ).map((chunk) => releaseStatement(db, scope, chunk));
  const segments = segmentStatements(db, scope.museumId, scope.from, entries);
  const [first, ...rest] = [...segments, ...statements, ...releases, ...extra];
  const written = new Set<string>();
  if (!first) return written;
  const results = await db.batch([first, ...rest]);
  for (const rows of results.slice(segments.length, segments.length + statements.length) as { hash: string }[][]) for (const row of rows) written.add(row.hash);
  return written;
}

/**
 * Claims the segments no other request is translating now (or whose claim has expired): the returned
 * hashes are this request's to translate. One atomic upsert per chunk, so two requests never own the
 * same segment.
 */
export async function claimSegments(db: Database, scope: MemoryScope, hashes: readonly string[], ttlMs: number, now = Date.now()): Promise<Set<string>> {
  const owned = new Set<string>();
  for (const chunk of chunks([...new Set(hashes)], CLAIMS_PER_WRITE)) {
    const rows = await claimStatement(db, scope, chunk, ttlMs, now);
    for (const row of rows) owned.add(row.hash);
  }
  return owned;
}

/**
 * Claims what is missing and, in the same transaction, reads what another request stored since our first
 * read, and the failures another request remembered meanwhile (decision 030): one round trip instead of
 * three on a visitor's first view.
 */
export async function claimAndRead(db: Database, scope: MemoryScope, hashes: readonly string[], ttlMs: number, now = Date.now()) {
  const unique = [...new Set(hashes)];
  if (unique.length > CLAIMS_PER_WRITE) {
    const owned = await claimSegments(db, scope, unique, ttlMs, now);
    const { memory, failures } = await readMemoryAndFailures(db, scope, [...owned]);
    return { owned, found: memory, failures };
  }
  const [claimed, rows, failed] = await db.batch([
    claimStatement(db, scope, unique, ttlMs, now),
    memoryQuery(db, scope, unique),
    failuresQuery(db, scope, unique),
  ]);
  const owned = new Set(claimed.map((row) => row.hash));
  const found = new Map<string, MemoryEntry>();
  for (const row of rows) if (owned.has(row.hash)) found.set(row.hash, { text: row.text, origin: row.origin, engine: row.engine });
  const failures = failureMap(failed.filter((row) => owned.has(row.hash)));
  return { owned, found, failures };
}

/**
 * Gives claims back, after the memory is written or when the engines failed (the next visitor retries
 * after the back-off); `extra` (the failures remembered) commits in the same transaction.
 */
export async function releaseClaims(db: Database, scope: MemoryScope, hashes: readonly string[], extra: readonly Statement[] = []) {
  const statements = [...chunks([...new Set(hashes)], HASHES_PER_READ).map((chunk) => releaseStatement(db, scope, chunk)), ...extra];
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}
