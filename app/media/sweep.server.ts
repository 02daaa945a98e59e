// The daily sweep of files no row references (issue 29 §2, decision 112). An import killed midway (the Worker
// stopped, the connection cut) has already written its pictures, or an archive's media, to R2 and never
// reaches the D1 batch that would record them: 1,323 and 502 such objects were found. Nothing serves them
// (`/media/` and `/narration/` serve only keys their tables hold) and nothing would ever delete them.
//
// What is swept: the media (`m/{museum}/…`) and narration audio (`n/{museum}/…`) spaces of the MEDIA bucket,
// objects uploaded more than `SWEEP_GRACE_MS` ago (an import under way, however long, is younger than that).
// What is never swept: an object any of these rows names — a media row (uploads, imported pictures, subtitles:
// `media.r2_key`), a narration (`narrations.r2_key`), and, searched as text in the key's museum, an article's
// draft and published content, its history versions, a tour's cover, an easy-to-read version (draft and
// approved). Narration pieces (`n/{museum}/p/…`, a cache their own code prunes: decision 106) and archive
// staging (`imports/…`, deleted by the import and by the next upload: decision 064) are outside both spaces.
// The walk is bounded per run; where it stopped is kept in KV and the next run goes on from there.

/** An object younger than this is never swept: an import writes its files first and its rows last. */
export const SWEEP_GRACE_MS = 24 * 60 * 60 * 1000;
const SPACES = ["m/", "n/"] as const;
/** The museum a key belongs to, and the narration pieces' subspace (never swept). */
const OWNER = /^[mn]\/([1-9][0-9]{0,15})\//;
const PIECES = /^n\/[0-9]+\/p\//;
/** R2 list pages (1,000 keys each) walked per space and per run. */
const PAGES_PER_RUN = 50;
/** D1 binds at most 100 values a statement: two per key. */
const KEYS_PER_QUERY = 49;
const cursorKey = (space: string, label = "") => `media-sweep:cursor:${label ? `${label}:` : ""}${space}`;

export interface SweepResult {
  /** Objects listed, old enough to be looked at, and deleted. */
  listed: number;
  candidates: number;
  deleted: number;
  /** Every space walked to its end in this run. */
  complete: boolean;
}

export interface SweepDeps {
  /**
   * The database that holds the rows, or, with shards (decision 142), the database of a key's museum (null: a
   * museum the directory does not know, whose files are left alone).
   */
  db: D1Database | ((museumId: number) => Promise<D1Database | null>);
  bucket: R2Bucket;
  kv: KVNamespace;
  /** Which bucket, when there are several (decision 144: "eu"): its walk keeps its own place. */
  label?: string;
}

/** Of these keys, the ones some row names (see the file's head). */
export async function referencedKeys(db: D1Database, keys: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < keys.length; i += KEYS_PER_QUERY) {
    const part = keys.slice(i, i + KEYS_PER_QUERY);
    const values = part.map(() => "(?, ?)").join(", ");
    const binds = part.flatMap((key) => [key, Number(OWNER.exec(key)?.[1] ?? 0)]);
    const { results } = await db
      .prepare(
        `WITH k(key, museum) AS (VALUES ${values})
         SELECT k.key AS key FROM k WHERE
              EXISTS (SELECT 1 FROM media WHERE r2_key = k.key)
           OR EXISTS (SELECT 1 FROM narrations WHERE r2_key = k.key)
           OR EXISTS (SELECT 1 FROM articles a WHERE a.museum_id = k.museum
                        AND (instr(a.content, k.key) > 0 OR instr(coalesce(a.published_content, ''), k.key) > 0))
           OR EXISTS (SELECT 1 FROM article_versions v WHERE v.museum_id = k.museum AND instr(v.content, k.key) > 0)
           OR EXISTS (SELECT 1 FROM tours t WHERE t.museum_id = k.museum AND instr(coalesce(t.cover, ''), k.key) > 0)
           OR EXISTS (SELECT 1 FROM easy_read_versions e WHERE e.museum_id = k.museum
                        AND (instr(coalesce(e.content, ''), k.key) > 0 OR instr(coalesce(e.approved_content, ''), k.key) > 0))`,
      )
      .bind(...binds)
      .all<{ key: string }>();
    for (const row of results) found.add(row.key);
  }
  return found;
}

/** Of these keys, the ones to keep: referenced in their museum's shard, or of a museum no shard is known for. */
async function keptKeys(db: SweepDeps["db"], keys: readonly string[]): Promise<Set<string>> {
  if (typeof db !== "function") return referencedKeys(db, keys);
  const byMuseum = new Map<number, string[]>();
  for (const key of keys) {
    const museum = Number(OWNER.exec(key)?.[1] ?? 0);
    byMuseum.set(museum, [...(byMuseum.get(museum) ?? []), key]);
  }
  const kept = new Set<string>();
  for (const [museum, own] of byMuseum) {
    const shard = await db(museum);
    const found = shard ? await referencedKeys(shard, own) : new Set(own);
    for (const key of found) kept.add(key);
  }
  return kept;
}

/** Deletes the media and narration files no row references that are older than the grace period. */
export async function sweepOrphanMedia(
  deps: SweepDeps,
  now: number,
  options: { graceMs?: number; pagesPerRun?: number; pageSize?: number } = {},
): Promise<SweepResult> {
  const cutoff = now - (options.graceMs ?? SWEEP_GRACE_MS);
  const pages = options.pagesPerRun ?? PAGES_PER_RUN;
  const result: SweepResult = { listed: 0, candidates: 0, deleted: 0, complete: true };
  for (const space of SPACES) {
    let cursor = (await deps.kv.get(cursorKey(space, deps.label))) ?? undefined;
    let finished = false;
    for (let page = 0; page < pages; page++) {
      const listed = await deps.bucket.list({ prefix: space, cursor, limit: options.pageSize ?? 1000 });
      result.listed += listed.objects.length;
      const candidates = listed.objects.filter((o) => o.uploaded.getTime() < cutoff && OWNER.test(o.key) && !PIECES.test(o.key)).map((o) => o.key);
      result.candidates += candidates.length;
      if (candidates.length > 0) {
        const referenced = await keptKeys(deps.db, candidates);
        const doomed = candidates.filter((key) => !referenced.has(key));
        if (doomed.length > 0) await deps.bucket.delete(doomed);
        result.deleted += doomed.length;
      }
      if (!listed.truncated) {
        finished = true;
        break;
      }
      cursor = listed.cursor;
    }
    if (finished) await deps.kv.delete(cursorKey(space, deps.label));
    else if (cursor) {
      await deps.kv.put(cursorKey(space, deps.label), cursor);
      result.complete = false;
    }
  }
  return result;
}
