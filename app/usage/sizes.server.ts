/**
 * Each museum's share of its shard's D1 size (issue 33 §2, decision 150). D1 reports a database's size, not a
 * museum's: the daily cron adds up the bytes of each museum's rows, column by column (`length` of each value as a
 * blob, plus a few bytes a row), in every table that holds a museum's rows, then scales the shard's museums so that
 * they add up to the size D1 reports (indexes and free pages shared in proportion). One batch of small reads per
 * museum, each through the museum_id prefix of its table's key; D1 bills the rows read, about all of the shard's
 * rows once a day.
 */
import { MOVED_TABLES } from "~/shards/move";

/** SQLite's record header and cell pointer, roughly, per row. */
const ROW_OVERHEAD = 8;

async function columnsOf(db: D1Database, table: string): Promise<string[]> {
  const { results } = await db.prepare("SELECT name FROM pragma_table_info(?1)").bind(table).all<{ name: string }>();
  return results.map((r) => r.name);
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The statements that measure one museum's rows in each table (the tables whose rows carry its id). */
async function measuringStatements(db: D1Database): Promise<((museumId: number) => D1PreparedStatement)[]> {
  const out: ((museumId: number) => D1PreparedStatement)[] = [];
  for (const spec of MOVED_TABLES) {
    const columns = await columnsOf(db, spec.name);
    if (columns.length === 0) continue;
    const bytes = columns.map((c) => `coalesce(length(CAST(${quote(c)} AS BLOB)), 0)`).join(" + ");
    const sql = `SELECT coalesce(sum(${bytes} + ${ROW_OVERHEAD}), 0) AS bytes FROM ${quote(spec.name)} WHERE ${spec.scope}`;
    out.push((museumId) => db.prepare(sql).bind(museumId));
  }
  return out;
}

/**
 * Measures the museums of one shard and records each one's share in the directory. `shardBytes` is the size D1
 * reported for the shard (recordShardSize). Returns the museums measured.
 */
export async function recordMuseumSizes(directory: D1Database, shard: number, db: D1Database, shardBytes: number, now = Date.now()): Promise<number> {
  const { results: museums } = await directory.prepare("SELECT id FROM museums WHERE shard = ?1 AND state = 'active'").bind(shard).all<{ id: number }>();
  if (museums.length === 0) return 0;
  const statements = await measuringStatements(db);
  const raw = new Map<number, number>();
  for (const { id } of museums) {
    const answers = await db.batch<{ bytes: number }>(statements.map((make) => make(id)));
    raw.set(
      id,
      answers.reduce((sum, answer) => sum + Number(answer.results[0]?.bytes ?? 0), 0),
    );
  }
  const total = [...raw.values()].reduce((a, b) => a + b, 0);
  // Scaled to what D1 reports; unscaled when it reported nothing (a local database may say 0).
  const scale = total > 0 && shardBytes > 0 ? shardBytes / total : 1;
  await directory.batch(
    [...raw].map(([id, bytes]) =>
      directory.prepare("UPDATE museums SET d1_bytes = ?2, d1_measured_at = ?3 WHERE id = ?1").bind(id, Math.round(bytes * scale), now),
    ),
  );
  return raw.size;
}
