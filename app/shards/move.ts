// Moving a museum from one shard to another (decision 143): copy while live, freeze, copy what changed, compare
// every table's rows (count and checksum), switch the directory, then remove the old rows. Every step is recorded
// in the directory's row of the museum, so a move killed at any step is resumed or rolled back, and exactly one
// complete copy is authoritative: the source until the switch, the target from it.
//
// It runs wherever D1 bindings are: in the operator's script (`npm run museum:move`, Node through wrangler's
// local runtime or the remote API) and in the tests' Worker. So it imports no module of the app but keys.ts, by
// its file name, and uses only syntax Node runs as it is.
import { SHARD_ID_SPAN, museumKvKey } from "./keys.ts";

export interface MoveIo {
  directory: D1Database;
  /** Shard k's database; throws for a shard this deployment does not have. */
  shard(k: number): D1Database;
  /**
   * Shard k's jurisdiction ("" or "eu", from wrangler.toml). When given, a museum placed in a jurisdiction only moves
   * to a shard of it: its files stay in that jurisdiction's bucket (decision 144), which a move does not copy.
   */
  jurisdictionOf?: (k: number) => string;
  /** Where the app caches directory rows (`dir:v1:museum:{id}`): rewritten at each state change. */
  kv?: KVNamespace;
  log?: (line: string) => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export type MoveStep = "copied" | "frozen" | "verified" | "switched";

export interface MoveOptions {
  /**
   * How long a directory row may live in an isolate's memory and in KV's edge cache, so every isolate has seen
   * 'copying' before the freeze: then each of them reads the directory on every request of the museum, and
   * sees the freeze and the switch at once. route.server.ts's SHARD_CACHE_MS plus KV's cacheTtl.
   */
  propagationMs: number;
  /** After the freeze, how long writes that had already passed the check get to land before the final copy. */
  graceMs: number;
  /** After the switch, how long before the old rows are removed (requests that read them just before it). */
  cleanupAfterMs: number;
  /** The tests' and the operator's "kill it here": the move stops after this step, as if the process died. */
  stopAfter?: MoveStep;
}

/** Production's waits: isolates trust a row 60 s (route.server.ts), KV's edge cache 60 s more. */
export const MOVE_DEFAULTS: MoveOptions = { propagationMs: 125_000, graceMs: 3_000, cleanupAfterMs: 15_000 };

export interface TableCheck {
  table: string;
  rows: number;
  checksum: string;
}

export interface MoveReport {
  museumId: number;
  from: number;
  to: number;
  /** Rows written on the target by the live copy, then by the copy under freeze. */
  copied: { live: number; frozen: number };
  /** How long staff writes were refused, in ms. */
  frozenMs: number;
  tables: TableCheck[];
  totalMs: number;
}

export class MoveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MoveError";
  }
}

/** Stopped on purpose after a step (`stopAfter`): what a killed process leaves. */
export class MoveStopped extends Error {
  readonly step: MoveStep;
  constructor(step: MoveStep) {
    super(`stopped after step "${step}"`);
    this.name = "MoveStopped";
    this.step = step;
  }
}

interface TableSpec {
  name: string;
  /** Its primary key, in order; null for a table without one (copied whole). */
  key: string[] | null;
  /** Which rows are the museum's (?1 is its id). */
  scope: string;
  /** AUTOINCREMENT: the target's counter is kept in the target's own id range. */
  autoincrement?: boolean;
}

const OWN = "museum_id = ?1";

/**
 * Every table holding a museum's rows, parents before children (the foreign keys). tests/unit/move-tables.test.ts
 * checks this list against the migrated schema: every table is here or in SHARD_TABLES, with its key and order.
 */
export const MOVED_TABLES: readonly TableSpec[] = [
  { name: "museums", key: ["id"], scope: "id = ?1", autoincrement: true },
  { name: "users", key: ["id"], scope: OWN, autoincrement: true },
  { name: "sessions", key: ["id"], scope: "user_id IN (SELECT id FROM users WHERE museum_id = ?1)" },
  { name: "member_tokens", key: ["id"], scope: OWN, autoincrement: true },
  { name: "folders", key: ["id"], scope: OWN, autoincrement: true },
  { name: "articles", key: ["id"], scope: OWN, autoincrement: true },
  { name: "media", key: ["id"], scope: OWN, autoincrement: true },
  { name: "qrcodes", key: ["id"], scope: OWN, autoincrement: true },
  { name: "tours", key: ["id"], scope: OWN, autoincrement: true },
  { name: "tour_stops", key: ["tour_id", "position"], scope: OWN },
  { name: "glossary_terms", key: ["id"], scope: OWN, autoincrement: true },
  { name: "article_versions", key: ["article_id", "number"], scope: OWN },
  { name: "easy_read_versions", key: ["article_id"], scope: OWN },
  { name: "narrations", key: ["id"], scope: OWN, autoincrement: true },
  { name: "narration_claims", key: ["article_id", "lang"], scope: OWN },
  { name: "narration_spend", key: ["museum_id", "month"], scope: OWN },
  { name: "translation_spend", key: ["museum_id", "month"], scope: OWN },
  { name: "engine_usage", key: ["museum_id", "month", "kind", "engine"], scope: OWN },
  { name: "question_spend", key: ["museum_id", "month"], scope: OWN },
  { name: "translation_segments", key: ["museum_id", "source_lang", "source_hash"], scope: OWN },
  { name: "translation_memory", key: ["museum_id", "source_lang", "source_hash", "target_lang"], scope: OWN },
  { name: "translation_reviews", key: ["article_id", "target_lang", "segment_id"], scope: OWN },
  { name: "translation_reports", key: ["id"], scope: OWN, autoincrement: true },
  { name: "translation_failures", key: ["museum_id", "source_lang", "target_lang", "source_hash"], scope: OWN },
  { name: "translation_claims", key: ["museum_id", "source_lang", "target_lang", "source_hash"], scope: OWN },
  { name: "audit_log", key: ["id"], scope: OWN, autoincrement: true },
  { name: "daily_stats", key: ["museum_id", "day", "article_id", "lang"], scope: OWN },
  { name: "easy_read_daily_stats", key: ["museum_id", "day", "article_id", "lang"], scope: OWN },
  { name: "visitor_questions", key: ["id"], scope: OWN, autoincrement: true },
  { name: "tour_daily_stats", key: ["museum_id", "day", "tour_id", "position"], scope: OWN },
  { name: "scan_events", key: ["id"], scope: OWN },
  // A visit's `article_id` is a tour's id for the kinds "tour:{position}" (app/queue/scan-stats.server.ts).
  {
    name: "scan_visits",
    key: null,
    scope:
      "(kind NOT LIKE 'tour:%' AND article_id IN (SELECT id FROM articles WHERE museum_id = ?1)) OR (kind LIKE 'tour:%' AND article_id IN (SELECT id FROM tours WHERE museum_id = ?1))",
  },
];

/**
 * Tables of the shard itself, whose rows are no museum's to move: the sign-in limiter, the visitor-change log (the
 * target's triggers write it as the copy lands, which is what makes visitors' caches read the new copy), and the
 * bookkeeping of SQLite, D1 and wrangler.
 */
export const SHARD_TABLES: readonly string[] = ["login_attempts", "visitor_changes", "sqlite_sequence", "d1_migrations", "_cf_KV", "_cf_METADATA"];

type Row = Record<string, unknown>;
const PAGE = 2500;
/** Statements per D1 batch (each statement carries up to ROWS_PER_STATEMENT rows). */
const WRITE_BATCH = 20;
/** Rows one statement carries, as one JSON array bound as one parameter, and the text it may weigh. */
const ROWS_PER_STATEMENT = 1000;
const JSON_BYTES_PER_STATEMENT = 400_000;

const quoteId = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One page of the museum's rows of a table, in key order, after `after` (the last key of the previous page). */
async function page(db: D1Database, spec: TableSpec, museumId: number, after: unknown[] | null): Promise<Row[]> {
  const order = spec.key ?? ["rowid"];
  const cols = order.map(quoteId).join(", ");
  const marks = order.map((_, i) => `?${i + 2}`).join(", ");
  const past = after ? ` AND (${cols}) > (${marks})` : "";
  const select = spec.key ? "*" : "rowid AS _rowid, *";
  const sql = `SELECT ${select} FROM ${quoteId(spec.name)} WHERE (${spec.scope})${past} ORDER BY ${cols} LIMIT ${PAGE}`;
  const { results } = await db
    .prepare(sql)
    .bind(museumId, ...(after ?? []))
    .all<Row>();
  return results;
}

/** Every row of the museum in a table, page by page, in key order. */
async function* rowsOf(db: D1Database, spec: TableSpec, museumId: number): AsyncGenerator<Row> {
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await page(db, spec, museumId, after);
    for (const row of rows) {
      if (!spec.key) {
        const { _rowid, ...rest } = row;
        yield rest;
      } else yield row;
    }
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = spec.key ? spec.key.map((k) => last[k]) : [last._rowid];
  }
}

const keyOf = (spec: TableSpec, row: Row) => JSON.stringify((spec.key ?? []).map((k) => row[k]));
const bytesOf = (value: unknown): unknown => (value instanceof ArrayBuffer ? [...new Uint8Array(value)] : value);
const rowText = (row: Row) => JSON.stringify(Object.keys(row).map((k) => [k, bytesOf(row[k])]));

function upsert(db: D1Database, spec: TableSpec, row: Row): D1PreparedStatement {
  const cols = Object.keys(row);
  const values = cols.map((c) => row[c]);
  const insert = `INSERT INTO ${quoteId(spec.name)} (${cols.map(quoteId).join(", ")}) VALUES (${cols.map((_, i) => `?${i + 1}`).join(", ")})`;
  return db.prepare(insert + conflictClause(spec, cols)).bind(...values);
}

/**
 * Statements that write many rows each: the rows go as one JSON array, one bound parameter, read back by
 * `json_each` (D1 binds at most 100 parameters a statement; a statement a row made a full-size museum's copy take
 * more than a quarter of an hour). A row holding bytes (no table has one today) goes alone, bound as it is.
 */
function upsertMany(db: D1Database, spec: TableSpec, rows: readonly Row[]): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  let group: unknown[][] = [];
  let bytes = 0;
  let cols: string[] = [];
  const flush = () => {
    if (group.length === 0) return;
    const select = cols.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
    const insert = `INSERT INTO ${quoteId(spec.name)} (${cols.map(quoteId).join(", ")}) SELECT ${select} FROM json_each(?1) WHERE true`;
    statements.push(db.prepare(insert + conflictClause(spec, cols)).bind(JSON.stringify(group)));
    group = [];
    bytes = 0;
  };
  for (const row of rows) {
    const rowCols = Object.keys(row);
    if (rowCols.some((c) => row[c] instanceof ArrayBuffer)) {
      statements.push(upsert(db, spec, row));
      continue;
    }
    if (rowCols.join("\u0000") !== cols.join("\u0000")) {
      flush();
      cols = rowCols;
    }
    const values = cols.map((c) => row[c]);
    group.push(values);
    bytes += JSON.stringify(values).length;
    if (group.length >= ROWS_PER_STATEMENT || bytes >= JSON_BYTES_PER_STATEMENT) flush();
  }
  flush();
  return statements;
}

function conflictClause(spec: TableSpec, cols: readonly string[]): string {
  if (!spec.key) return "";
  const rest = cols.filter((c) => !spec.key!.includes(c));
  return rest.length === 0
    ? ` ON CONFLICT (${spec.key.map(quoteId).join(", ")}) DO NOTHING`
    : ` ON CONFLICT (${spec.key.map(quoteId).join(", ")}) DO UPDATE SET ${rest.map((c) => `${quoteId(c)} = excluded.${quoteId(c)}`).join(", ")}`;
}

/** Deletes rows by key, many a statement (their keys as one JSON array, as upsertMany). */
function removals(db: D1Database, spec: TableSpec, keys: readonly unknown[][]): D1PreparedStatement[] {
  const cols = spec.key!.map(quoteId).join(", ");
  const picked = spec.key!.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < keys.length; i += ROWS_PER_STATEMENT)
    statements.push(
      db
        .prepare(`DELETE FROM ${quoteId(spec.name)} WHERE (${cols}) IN (SELECT ${picked} FROM json_each(?1))`)
        .bind(JSON.stringify(keys.slice(i, i + ROWS_PER_STATEMENT))),
    );
  return statements;
}

/**
 * The first block of ids a shard may be moved to (shard k's own first block is k, so shards stay below 512): see
 * `idsAboveMuseum`. Ids stay below 10^15, the 15 digits the app's id fields accept: blocks 512 to 908.
 */
export const FIRST_MOVE_BLOCK = 512;
const ID_LIMIT = 10 ** 15;

/**
 * Inserting a row keeps its id, and SQLite's AUTOINCREMENT gives the next row an id above both the table's counter
 * and the largest id it holds. A museum whose ids are above the target's own would send the target's next ids right
 * after the museum's: into the range of the shard it came from, where they are handed out too. Before any of its
 * rows is written, such a target moves every counter to a fresh block claimed in the directory (`id_blocks`, 512
 * and up, each above every id ever handed out), so its next ids are above the museum's. A block is 2^40 ids.
 * Returns the block claimed, or null.
 */
export async function idsAboveMuseum(io: MoveIo, source: D1Database, target: D1Database, targetShard: number, museumId: number): Promise<number | null> {
  const tables = MOVED_TABLES.filter((spec) => spec.autoincrement);
  let needed = false;
  for (const spec of tables) {
    const moved = await source
      .prepare(`SELECT max(id) AS n FROM ${quoteId(spec.name)} WHERE ${spec.scope}`)
      .bind(museumId)
      .first<{ n: number | null }>();
    const next = await target
      .prepare(`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), coalesce((SELECT max(id) FROM ${quoteId(spec.name)}), 0)) AS n`)
      .bind(spec.name)
      .first<{ n: number }>();
    if ((moved?.n ?? 0) > (next?.n ?? 0)) needed = true;
  }
  if (!needed) return null;
  const claimed = await io.directory
    .prepare("INSERT INTO id_blocks (block, shard, claimed_at) SELECT max(?1, coalesce(max(block), 0) + 1), ?2, ?3 FROM id_blocks RETURNING block")
    .bind(FIRST_MOVE_BLOCK, targetShard, (io.now ?? Date.now)())
    .first<{ block: number }>();
  const block = claimed!.block;
  const start = block * SHARD_ID_SPAN;
  if (start + SHARD_ID_SPAN > ID_LIMIT) throw new MoveError(`no id block is left below 10^15 (block ${block}): ids of 16 digits are refused by the app`);
  await target.batch(
    tables.flatMap((spec) => [
      target.prepare("UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1 AND seq < ?2").bind(spec.name, start),
      target
        .prepare("INSERT INTO sqlite_sequence (name, seq) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?1)")
        .bind(spec.name, start),
    ]),
  );
  io.log?.(`shard ${targetShard}'s ids now start at block ${block} (${start}), above the museum's`);
  return block;
}

async function writeAll(db: D1Database, statements: D1PreparedStatement[]) {
  for (let i = 0; i < statements.length; i += WRITE_BATCH) await db.batch(statements.slice(i, i + WRITE_BATCH));
}

/**
 * Makes the target's rows of the museum what the source's are: rows missing or different are written (upserts,
 * parents first), rows the source no longer has are deleted (children first). Returns the rows written.
 */
export async function syncMuseum(source: D1Database, target: D1Database, museumId: number, sourceChecks?: TableCheck[]): Promise<number> {
  let written = 0;
  const deletions: { spec: TableSpec; keys: unknown[][] }[] = [];
  for (const spec of MOVED_TABLES) {
    // Both sides at once: under the freeze, reading is most of the time staff wait.
    const [sourceRows, targetRows] = await Promise.all([collect(rowsOf(source, spec, museumId)), spec.key ? collect(rowsOf(target, spec, museumId)) : []]);
    // The source's checksum from the rows just read: the comparison then reads only the target again.
    if (sourceChecks) sourceChecks.push(await checkOf(spec, sourceRows));
    if (!spec.key) {
      // A table without a key (visits kept an hour) is copied whole.
      await target
        .prepare(`DELETE FROM ${quoteId(spec.name)} WHERE ${spec.scope}`)
        .bind(museumId)
        .run();
      await writeAll(target, upsertMany(target, spec, sourceRows));
      written += sourceRows.length;
      continue;
    }
    const there = new Map<string, string>();
    for (const row of targetRows) there.set(keyOf(spec, row), rowText(row));
    let pending: Row[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const statements = upsertMany(target, spec, pending);
      await writeAll(target, statements);
      written += pending.length;
      pending = [];
    };
    for (const row of sourceRows) {
      const key = keyOf(spec, row);
      const same = there.get(key) === rowText(row);
      there.delete(key);
      if (same) continue;
      pending.push(row);
      if (pending.length >= ROWS_PER_STATEMENT * WRITE_BATCH) await flush();
    }
    await flush();
    if (there.size > 0) deletions.push({ spec, keys: [...there.keys()].map((k) => JSON.parse(k) as unknown[]) });
  }
  for (const { spec, keys } of deletions.reverse()) {
    await writeAll(target, removals(target, spec, keys));
    written += keys.length;
  }
  return written;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Each table's count of the museum's rows and a SHA-256 of them in key order (rows without a key: in content order). */
export async function checkMuseum(db: D1Database, museumId: number): Promise<TableCheck[]> {
  const checks: TableCheck[] = [];
  for (const spec of MOVED_TABLES) checks.push(await checkOf(spec, await collect(rowsOf(db, spec, museumId))));
  return checks;
}

async function checkOf(spec: TableSpec, rows: readonly Row[]): Promise<TableCheck> {
  const texts = rows.map(rowText);
  if (!spec.key) texts.sort();
  return { table: spec.name, rows: rows.length, checksum: await sha256Hex(texts.join("\n")) };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Deletes the museum's rows from a shard, children first, in batches (a museum can be many rows). */
export async function removeMuseum(db: D1Database, museumId: number): Promise<number> {
  let removed = 0;
  for (const spec of [...MOVED_TABLES].reverse()) {
    for (;;) {
      // By the key: the WITHOUT ROWID tables (0014) have no rowid; a table without a key has one.
      const key = spec.key ? `(${spec.key.map(quoteId).join(", ")})` : "rowid";
      const result = await db
        .prepare(
          `DELETE FROM ${quoteId(spec.name)} WHERE ${key} IN (SELECT ${key.replace(/^\(|\)$/g, "")} FROM ${quoteId(spec.name)} WHERE ${spec.scope} LIMIT 1000)`,
        )
        .bind(museumId)
        .run();
      removed += result.meta.changes ?? 0;
      if ((result.meta.changes ?? 0) < 1000) break;
    }
  }
  return removed;
}

interface DirectoryRow {
  id: number;
  slug: string;
  shard: number;
  state: "active" | "copying" | "frozen";
  jurisdiction: string;
  moving_to: number | null;
  moved_from: number | null;
  state_since: number | null;
}

async function directoryRow(io: MoveIo, museumId: number): Promise<DirectoryRow> {
  const row = await io.directory
    .prepare("SELECT id, slug, shard, state, jurisdiction, moving_to, moved_from, state_since FROM museums WHERE id = ?1")
    .bind(museumId)
    .first<DirectoryRow>();
  if (!row) throw new MoveError(`no museum ${museumId} in the directory`);
  return row;
}

/** The museum's id from its slug or id, as the operator types it. */
export async function museumIdOf(directory: D1Database, museum: string): Promise<number> {
  const row = /^\d+$/.test(museum)
    ? await directory.prepare("SELECT id FROM museums WHERE id = ?1").bind(Number(museum)).first<{ id: number }>()
    : await directory.prepare("SELECT id FROM museums WHERE slug = ?1").bind(museum).first<{ id: number }>();
  if (!row) throw new MoveError(`no museum "${museum}" in the directory`);
  return row.id;
}

/** Rewrites the app's KV copy of the directory row (what route.server.ts's museumEntry reads). */
async function publishRow(io: MoveIo, museumId: number): Promise<DirectoryRow> {
  const row = await directoryRow(io, museumId);
  if (io.kv) {
    const { id, slug, shard, state, jurisdiction } = row;
    await io.kv.put(museumKvKey(id), JSON.stringify({ id, slug, shard, state, jurisdiction }), { expirationTtl: 24 * 3600 });
  }
  return row;
}

/** Changes the directory row if it is still in `from` (another operator's move or rollback wins otherwise). */
async function transition(io: MoveIo, museumId: number, fromState: string, set: string, values: unknown[]): Promise<void> {
  const now = (io.now ?? Date.now)();
  const result = await io.directory
    .prepare(`UPDATE museums SET ${set}, state_since = ?2 WHERE id = ?1 AND state = '${fromState}'`)
    .bind(museumId, now, ...values)
    .run();
  if ((result.meta.changes ?? 0) !== 1) throw new MoveError(`museum ${museumId} is no longer ${fromState}: another move or rollback changed it`);
  await publishRow(io, museumId);
}

const sleepFor = (io: MoveIo) => io.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

/**
 * Moves a museum to shard `to`, or takes up where a killed move stopped (same museum, same target). Throws
 * MoveError when the museum cannot move now (already there, another move under way, old rows not yet removed:
 * `finishMove` first) or when the copies differ after the freeze (then the move is rolled back).
 */
export async function moveMuseum(io: MoveIo, museumId: number, to: number, options: MoveOptions): Promise<MoveReport> {
  const log = io.log ?? (() => {});
  const now = io.now ?? Date.now;
  const sleep = sleepFor(io);
  const started = now();
  io.shard(to);
  let row = await directoryRow(io, museumId);
  if (row.moved_from !== null)
    throw new MoveError(`museum ${museumId}'s old rows on shard ${row.moved_from} are not removed yet: run the move again with --resume`);
  if (row.state === "active") {
    await beginMove(io, museumId, to);
    row = await directoryRow(io, museumId);
    log(`copying museum ${museumId} from shard ${row.shard} to shard ${to} (staff and visitors carry on)`);
  } else if (row.moving_to !== to) {
    throw new MoveError(`museum ${museumId} is already moving to shard ${row.moving_to}: resume that move or roll it back`);
  } else log(`resuming the move of museum ${museumId} to shard ${to} (it was ${row.state})`);
  const from = row.shard;
  const source = io.shard(from);
  const target = io.shard(to);
  const copied = { live: 0, frozen: 0 };
  let frozenAt: number;
  if (row.state === "copying") {
    await idsAboveMuseum(io, source, target, to, museumId);
    copied.live = await syncMuseum(source, target, museumId);
    log(`live copy: ${copied.live} rows written`);
    if (options.stopAfter === "copied") throw new MoveStopped("copied");
    // Every isolate must have seen 'copying' (then it reads the directory on each request) before the freeze.
    const wait = (row.state_since ?? 0) + options.propagationMs - now();
    if (wait > 0) {
      log(`waiting ${Math.ceil(wait / 1000)} s until every isolate knows the museum is moving`);
      await sleep(wait);
    }
    await transition(io, museumId, "copying", "state = 'frozen'", []);
    frozenAt = now();
    log("frozen: staff writes now answer 503 with Retry-After");
    if (options.stopAfter === "frozen") throw new MoveStopped("frozen");
  } else frozenAt = row.state_since ?? now();
  await sleep(options.graceMs);
  await idsAboveMuseum(io, source, target, to, museumId);
  const a: TableCheck[] = [];
  copied.frozen = await syncMuseum(source, target, museumId, a);
  const b = await checkMuseum(target, museumId);
  const differ = a.filter((check, i) => check.rows !== b[i]!.rows || check.checksum !== b[i]!.checksum);
  if (differ.length > 0) {
    await rollbackMove(io, museumId);
    throw new MoveError(`the copies differ after the freeze (${differ.map((d) => d.table).join(", ")}): the move was rolled back`);
  }
  log(`copy under freeze: ${copied.frozen} rows written; ${a.length} tables compared, counts and checksums equal`);
  if (options.stopAfter === "verified") throw new MoveStopped("verified");
  await transition(io, museumId, "frozen", "state = 'active', shard = ?3, moving_to = NULL, moved_from = ?4", [to, from]);
  const frozenMs = now() - frozenAt;
  log(`switched: museum ${museumId} now lives on shard ${to} (frozen ${frozenMs} ms)`);
  if (options.stopAfter === "switched") throw new MoveStopped("switched");
  await sleep(options.cleanupAfterMs);
  await finishMove(io, museumId);
  return { museumId, from, to, copied, frozenMs, tables: b, totalMs: now() - started };
}

/**
 * The move's first step alone: the museum, active on another shard of its jurisdiction, is marked as copying to `to`
 * (a guarded transition: of two operators starting a move at once, one gets a MoveError). `moveMuseum` then takes it
 * up from there; the operator's console does this step in its request and leaves the rest to the moves queue.
 */
export async function beginMove(io: MoveIo, museumId: number, to: number): Promise<void> {
  io.shard(to);
  const row = await directoryRow(io, museumId);
  if (row.moved_from !== null)
    throw new MoveError(`museum ${museumId}'s old rows on shard ${row.moved_from} are not removed yet: run the move again with --resume`);
  if (row.state !== "active") throw new MoveError(`museum ${museumId} is already moving to shard ${row.moving_to}`);
  if (row.shard === to) throw new MoveError(`museum ${museumId} is already on shard ${to}`);
  const there = io.jurisdictionOf?.(to);
  if (row.jurisdiction && there !== undefined && there !== row.jurisdiction)
    throw new MoveError(`museum ${museumId} keeps its data in the ${row.jurisdiction.toUpperCase()} jurisdiction, and shard ${to} is not in it`);
  await transition(io, museumId, "active", "state = 'copying', moving_to = ?3", [to]);
}

/** After the switch: removes the museum's old rows from the shard it left. Nothing to do otherwise. */
export async function finishMove(io: MoveIo, museumId: number): Promise<number> {
  const row = await directoryRow(io, museumId);
  if (row.moved_from === null) return 0;
  if (row.moved_from === row.shard) throw new MoveError(`museum ${museumId} left shard ${row.moved_from} and is on it again`);
  const removed = await removeMuseum(io.shard(row.moved_from), museumId);
  await io.directory.prepare("UPDATE museums SET moved_from = NULL WHERE id = ?1 AND moved_from = ?2").bind(museumId, row.moved_from).run();
  io.log?.(`removed ${removed} old rows from shard ${row.moved_from}`);
  return removed;
}

/**
 * Gives up a move before its switch: the museum stays where it was, active, and the partial copy is removed from the
 * target. After the switch the target is the museum's only complete copy, and a rollback is refused.
 */
export async function rollbackMove(io: MoveIo, museumId: number): Promise<number> {
  const row = await directoryRow(io, museumId);
  if (row.state === "active") {
    if (row.moved_from !== null) throw new MoveError(`museum ${museumId} has switched to shard ${row.shard}: finish the move (--resume), then move it back`);
    throw new MoveError(`museum ${museumId} is not moving`);
  }
  const to = row.moving_to!;
  await transition(io, museumId, row.state, "state = 'active', moving_to = NULL", []);
  const removed = await removeMuseum(io.shard(to), museumId);
  io.log?.(`rolled back: museum ${museumId} stays on shard ${row.shard}; ${removed} copied rows removed from shard ${to}`);
  return removed;
}
