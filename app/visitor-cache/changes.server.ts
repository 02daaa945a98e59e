/**
 * Which writes change what visitors see (issue 31 §1, decision 132): the tables a visitor page reads carry
 * SQLite triggers (drizzle/0013_visitor_changes.sql) that note the museum in `visitor_changes` on any insert,
 * update or delete, whoever writes. This module is the Worker's side: a D1 handle that notices when a
 * statement writes one of those tables (from its SQL, when it is prepared: no extra round trip), and the one
 * read that, after such writes, says which museums changed. A handle that wrote none of them never reads.
 *
 * `createDb` (app/db/client.server.ts) watches every handle, so every model, route, cron and queue consumer
 * is covered; app/visitor-cache/snapshot.server.ts publishes the museums' change stamps.
 */

/**
 * The tables a visitor page reads whose rows change what it shows, each with triggers in drizzle/0013 (the
 * test tests/integration/visitor-changes.test.ts derives the tables the visitor pages read, and checks each
 * is here or excluded there with its reason, and that each one here moves the stamp on insert, update, delete).
 */
export const VISITOR_TABLES = [
  "museums",
  "folders",
  "articles",
  "qrcodes",
  "glossary_terms",
  "media",
  "tours",
  "tour_stops",
  "narrations",
  "easy_read_versions",
  "translation_memory",
] as const;

const WATCHED: ReadonlySet<string> = new Set(VISITOR_TABLES);

/**
 * D1's clock in ms, as the triggers write it. The rows are selected by D1's clock at both ends, so the
 * Worker's and D1's clocks need not agree (the published stamp is the Worker's own clock, see snapshot.server.ts).
 */
const D1_NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/**
 * Added to the time the Worker saw pass since its first write, to cover what it cannot see: the write's trip
 * to D1, time in D1's queue, and a clock that only moves on I/O (a deployed Worker's). Reading too far back
 * only publishes another museum's recent change again (harmless); too short would miss one.
 */
export const SLACK_MS = 5_000;

/** Registered, so the copies of this module in workers/app.ts and in the Remix server build read one state. */
const STATE = Symbol.for("muselingo.visitor-writes");

interface Writes {
  /** `Date.now()` when the first statement writing a visitor table was prepared since the last read; null: none. */
  firstAt: number | null;
}

/** Leading white space and SQL comments. */
const LEAD = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?(?:\*\/|$))*/;
const NAME = String.raw`(?:"((?:[^"]|"")+)"|\x60((?:[^\x60]|\x60\x60)+)\x60|\[([^\]]+)\]|([^\s(,;]+))`;
const WRITE = [
  new RegExp(String.raw`^(?:insert|replace)(?:\s+or\s+\w+)?\s+into\s+` + NAME, "i"),
  new RegExp(String.raw`^update(?:\s+or\s+\w+)?\s+` + NAME, "i"),
  new RegExp(String.raw`^delete\s+from\s+` + NAME, "i"),
];

/**
 * The table a statement writes, lower-cased: null for a read (SELECT, VALUES, EXPLAIN), "*" when it cannot
 * be told (a WITH before the write, CREATE, DROP, PRAGMA…), which counts as a write of every table.
 */
export function writtenTable(sql: string): string | null {
  const text = sql.replace(LEAD, "");
  if (/^(?:select|values|explain)\b/i.test(text)) return null;
  // A WITH that writes nothing (the live-article rule's recursive walk up the folders, decision 134) is a read: a
  // write needs one of these words, so a WITH without any of them cannot write (a word inside a string literal
  // only makes it count as a write, the safe side).
  if (/^with\b/i.test(text) && !/\b(?:insert|update|delete|replace)\b/i.test(text)) return null;
  for (const pattern of WRITE) {
    const m = pattern.exec(text);
    if (!m) continue;
    // A schema before the table (`main.articles`): not told apart, so counted as any table.
    if (text[m[0].length] === "." || m[4]?.includes(".")) return "*";
    return (m[1]?.replace(/""/g, '"') ?? m[2]?.replace(/``/g, "`") ?? m[3] ?? m[4] ?? "").toLowerCase();
  }
  return "*";
}

/** Whether a statement may write a table of VISITOR_TABLES. */
export function writesVisitorTable(sql: string): boolean {
  const table = writtenTable(sql);
  return table !== null && (table === "*" || WATCHED.has(table));
}

function writesOf(d1: object): Writes | undefined {
  return (d1 as Record<symbol, Writes | undefined>)[STATE];
}

/**
 * The D1 binding (or a wrapper of it), watched: each statement is looked at when prepared, nothing else
 * changes (the statements are the inner handle's own, so its `batch` takes them). Idempotent.
 */
export function watchVisitorWrites(d1: D1Database): D1Database {
  if (writesOf(d1)) return d1;
  const writes: Writes = { firstAt: null };
  const note = (sql: string, any = false) => {
    if (writes.firstAt === null && (any || writesVisitorTable(sql))) writes.firstAt = Date.now();
  };
  return new Proxy(d1, {
    get(target, name) {
      if (name === STATE) return writes;
      if (name === "prepare")
        return (query: string) => {
          note(query);
          return target.prepare(query);
        };
      if (name === "exec")
        return (query: string) => {
          note(query, true);
          return target.exec(query);
        };
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A museum the triggers noted, and the value of its note (strictly increasing over all notes). */
export interface MuseumChange {
  museumId: number;
  changedAt: number;
}

/**
 * The museums whose visitor tables changed since this handle's first write of one of them (and perhaps a
 * few others changed just before: harmless), and forgets those writes. No query when it wrote none; a
 * handle that is not watched has nothing to say. Call it after the writes' D1 calls returned.
 */
export async function changedMuseums(d1: D1Database): Promise<MuseumChange[]> {
  const writes = writesOf(d1);
  if (!writes || writes.firstAt === null) return [];
  const since = writes.firstAt;
  // Forgotten before the read: a write prepared while it is under way is read by the next call.
  writes.firstAt = null;
  const back = Date.now() - since + SLACK_MS;
  try {
    const { results } = await d1
      .prepare(`SELECT museum_id, changed_at FROM visitor_changes WHERE changed_at >= ${D1_NOW_MS} - ?1`)
      .bind(back)
      .all<{ museum_id: number; changed_at: number }>();
    return results.map((row) => ({ museumId: row.museum_id, changedAt: row.changed_at }));
  } catch (error) {
    // Asked again by the next call (the cron's, a later flush), from the same first write.
    writes.firstAt = Math.min(since, writes.firstAt ?? since);
    throw error;
  }
}
