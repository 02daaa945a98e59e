// Which statements count as writes of a visitor table (decision 132): read from their SQL when prepared.
// Telling too many costs one D1 read after the request; telling too few would leave a change unpublished,
// so anything the parser cannot place counts as a write of every table.
import { describe, expect, it } from "vitest";
import { VISITOR_TABLES, watchVisitorWrites, writesVisitorTable, writtenTable } from "~/visitor-cache/changes.server";

describe("writtenTable", () => {
  it("reads are not writes", () => {
    for (const sql of [
      'select "id" from "articles" where "museum_id" = ?',
      "  SELECT 1",
      "-- a comment\nselect * from articles",
      "/* a block */ select * from museums",
      "VALUES (1)",
      "explain query plan select 1",
    ])
      expect(writtenTable(sql), sql).toBeNull();
  });

  it("names the table of drizzle's and hand-written writes, quoted or not, in any case", () => {
    expect(writtenTable('insert into "articles" ("museum_id") values (?)')).toBe("articles");
    expect(writtenTable('update "tour_stops" set "position" = ?')).toBe("tour_stops");
    expect(writtenTable('delete from "glossary_terms" where "id" = ?')).toBe("glossary_terms");
    expect(writtenTable("INSERT OR IGNORE INTO narrations (id) VALUES (1)")).toBe("narrations");
    expect(writtenTable("REPLACE INTO media (id) VALUES (1)")).toBe("media");
    expect(writtenTable("UPDATE OR ROLLBACK Articles SET x = 1")).toBe("articles");
    expect(writtenTable("insert into `qrcodes`(link) values ('a')")).toBe("qrcodes");
    expect(writtenTable("insert into [folders] (name) values ('a')")).toBe("folders");
    expect(writtenTable("\n\t/* why */ -- and how\n  DELETE FROM easy_read_versions WHERE article_id = ?")).toBe("easy_read_versions");
    expect(writtenTable('insert into "daily_stats" values (1)')).toBe("daily_stats");
    expect(writtenTable('insert into "we""ird" values (1)')).toBe('we"ird');
  });

  it("counts what it cannot place as a write of every table", () => {
    for (const sql of [
      "WITH x AS (SELECT 1) INSERT INTO articles SELECT * FROM x",
      "CREATE TABLE t (x)",
      "DROP TABLE articles",
      "PRAGMA foreign_keys = ON",
      "insert into main.articles (id) values (1)",
      'update "main"."articles" set x = 1',
      "",
      "   ",
      "/* never closed",
      "ＩＮＳＥＲＴ INTO articles VALUES (1)",
    ])
      expect(writtenTable(sql), sql).toBe("*");
  });

  it("a visitor table, or one it cannot place, is a visitor write; statistics and sessions are not", () => {
    for (const table of VISITOR_TABLES) expect(writesVisitorTable(`insert into "${table}" default values`), table).toBe(true);
    expect(writesVisitorTable("WITH x AS (SELECT 1) DELETE FROM articles")).toBe(true);
    for (const table of ["daily_stats", "scan_events", "scan_visits", "sessions", "users", "translation_claims", "narration_claims", "audit_log"])
      expect(writesVisitorTable(`insert into "${table}" default values`), table).toBe(false);
    expect(writesVisitorTable('select * from "articles"')).toBe(false);
    // A WITH that only reads (the live-article rule's walk up the folders) costs no publishing read.
    expect(writtenTable("WITH RECURSIVE up(id) AS (SELECT folder_id FROM articles WHERE id = ?) SELECT * FROM up")).toBeNull();
    expect(writesVisitorTable("with x as (select 'insert' as w) select * from x")).toBe(true);
  });
});

describe("watchVisitorWrites", () => {
  /** A D1 stand-in that only records what was prepared. */
  function fake() {
    const prepared: string[] = [];
    const d1 = {
      prepare: (sql: string) => {
        prepared.push(sql);
        return { sql };
      },
      batch: async (statements: unknown[]) => statements.map(() => ({ results: [] })),
      exec: async () => ({ count: 0, duration: 0 }),
    };
    return { prepared, d1: d1 as unknown as D1Database };
  }

  it("hands the inner handle's statements through unchanged, and is idempotent", async () => {
    const { d1, prepared } = fake();
    const watched = watchVisitorWrites(d1);
    expect(watchVisitorWrites(watched)).toBe(watched);
    const statement = watched.prepare('insert into "articles" default values');
    expect(statement).toEqual({ sql: 'insert into "articles" default values' });
    expect(prepared).toEqual(['insert into "articles" default values']);
    expect(await watched.batch([statement])).toEqual([{ results: [] }]);
  });
});
