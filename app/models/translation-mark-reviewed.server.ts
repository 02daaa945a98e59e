// "Mark as reviewed" (decision 051): the machine translation a person read and found right becomes the
// reviewed translation as it is, for one segment or every segment shown. The text they saw comes with
// each id, so a translation that changed meanwhile (a colleague's correction, an engine's retranslation)
// is a conflict and nothing is written: the person looks again rather than approving what they never read.
import { eq, sql } from "drizzle-orm";
import { chunks } from "~/db/chunks";
import type { Database } from "~/db/client.server";
import { lostRace } from "~/db/guards";
import { museums } from "~/db/schema";
import { conflict, DomainError, invalid, notFound } from "~/errors";
import { auditStatement, type AuditActor } from "~/audit/log.server";
import type { CatalogueEntry, SubtitleReader } from "~/translation/catalogue.server";
import type { Statement } from "~/translation/memory.server";
import { correctionStatements, dropCorrectedCaches, type Correction } from "./translation-corrections.server";
import { articleSegmentsOf, memoryRows, notSource, type MemoryRow } from "./translation-review.server";

export interface MarkReviewedInput {
  articleId: number;
  lang: string;
  segments: { id: string; text: string }[];
}

/** A 409 naming every segment whose stored translation is no longer the text the person saw. */
export class MarkConflict extends DomainError {
  constructor(readonly segments: string[]) {
    super("conflict", `The translation of ${segments.length} segment(s) changed since it was shown: nothing was marked`, "segments", "stale_version");
  }
}

// A guard binds 4 scope values and 2 per segment (hash, text): D1 binds at most 100.
const GUARDED_PER_STATEMENT = 45;

/**
 * A statement that aborts the batch (decision 051: `json('lost')`, as `db/guards.ts`) unless every one of
 * `rows` is still the machine translation it was read as. Inside the batch, so a write that lands between
 * our read and our batch makes the whole batch roll back instead of being overwritten.
 */
function stillMachine(db: Database, museumId: number, sourceLang: string, lang: string, rows: readonly MemoryRow[]) {
  const matches = sql.join(
    rows.map((r) => sql`(source_hash = ${r.hash} AND text = ${r.text})`),
    sql` OR `,
  );
  return db
    .select({
      guard: sql<string>`json(CASE WHEN (SELECT count(*) FROM translation_memory WHERE museum_id = ${museumId} AND source_lang = ${sourceLang}
        AND target_lang = ${lang} AND origin = 'machine' AND (${matches})) = ${rows.length} THEN '0' ELSE 'lost' END)`,
    })
    .from(museums)
    .where(eq(museums.id, museumId));
}

type Plan = { corrections: Correction[]; rows: MemoryRow[]; already: number };

/** Checks every asked segment against the stored translations: 404/400/409 before anything is written. */
function plan(entries: readonly CatalogueEntry[], memory: ReadonlyMap<string, MemoryRow>, input: MarkReviewedInput): Plan {
  const byId = new Map(entries.map((e) => [e.id, e]));
  // A segment asked twice is one place: counted and written once.
  const corrections = new Map<string, Correction>();
  const rows = new Map<string, MemoryRow>();
  const conflicts: string[] = [];
  const already = new Set<string>();
  input.segments.forEach((asked, index) => {
    const entry = byId.get(asked.id);
    if (!entry) throw notFound("Segment", `segments.${index}.id`);
    const row = memory.get(entry.hash);
    if (!row) throw invalid(`segments.${index}.id`, "not_translated", `Segment ${asked.id} has no translation yet: there is nothing to mark as reviewed`);
    if (row.text.normalize("NFC") !== asked.text.normalize("NFC")) conflicts.push(asked.id);
    else if (row.origin === "edited") already.add(entry.id);
    else {
      corrections.set(entry.id, { articleId: input.articleId, entry, text: row.text });
      rows.set(row.hash, row);
    }
  });
  if (conflicts.length > 0) throw new MarkConflict([...new Set(conflicts)]);
  return { corrections: [...corrections.values()], rows: [...rows.values()], already: already.size };
}

/**
 * `POST /api/manage/mark_reviewed {articleId, lang, segments:[{id, text}]}`: every asked segment's machine
 * translation becomes its reviewed translation (origin `edited`) unchanged, all or nothing, with one audit
 * entry; segments already reviewed with that text are left as they are. Parallel identical calls end in
 * the same state and exactly one of them writes (and is audited): the others find the work done.
 */
export async function markReviewed(
  db: Database,
  kv: KVNamespace,
  museumId: number,
  input: MarkReviewedInput,
  actor: AuditActor,
  readSubtitles: SubtitleReader,
) {
  const { article, entries, sourceLang } = await articleSegmentsOf(db, museumId, input.articleId, readSubtitles);
  notSource(input.lang, sourceLang);
  const scope = { museumId, sourceLang, lang: input.lang };
  const asked = new Set(input.segments.map((s) => s.id));
  const hashes = [...new Set(entries.filter((e) => asked.has(e.id)).map((e) => e.hash))];
  // A lost race is read again: the winner's write is then either the same text (done) or a conflict.
  for (let attempt = 0; ; attempt++) {
    const memory = new Map((await memoryRows(db, museumId, sourceLang, hashes, input.lang)).map((r) => [r.hash, r]));
    const { corrections, rows, already } = plan(entries, memory, input);
    if (corrections.length === 0) return { articleId: input.articleId, lang: input.lang, marked: 0, alreadyReviewed: already };
    const guards = chunks(rows, GUARDED_PER_STATEMENT).map((chunk) => stillMachine(db, museumId, sourceLang, input.lang, chunk));
    const audit = auditStatement(db, {
      museumId,
      actor,
      action: "translations.mark_reviewed",
      target: `article:${input.articleId}`,
      detail: { name: article.unformatted_name, lang: input.lang, count: corrections.length },
    });
    try {
      const [first, ...rest]: Statement[] = [...guards, ...correctionStatements(db, scope, corrections), audit];
      await db.batch([first!, ...rest]);
    } catch (error) {
      if (!lostRace(error)) throw error;
      if (attempt >= 3)
        throw conflict("segments", "The translations kept changing while they were being marked: nothing was marked, try again", "stale_version");
      continue;
    }
    await dropCorrectedCaches(db, kv, scope, corrections);
    return { articleId: input.articleId, lang: input.lang, marked: corrections.length, alreadyReviewed: already };
  }
}
