import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { dayNumber, isDay, isoDay } from "~/lib/dates";

// Migration 0014 (issue 32 §3, decision 145) converts a database in place: each table it rebuilds is created
// anew, filled from the old one, dropped, renamed. Here it runs on a real SQLite holding rows written by the
// layout before it (0000–0013), with foreign keys on as D1 has them; `npm run bench:size` runs it on a
// full-size museum and measures before and after.
const DIR = "drizzle";
const FILES = readdirSync(DIR)
  .filter((f) => /^\d{4}_.*\.sql$/.test(f))
  .sort();
const LEANER = FILES.indexOf("0014_leaner_rows.sql");

function database(files: string[]): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  for (const file of files) db.exec(readFileSync(`${DIR}/${file}`, "utf8").replaceAll("--> statement-breakpoint", ""));
  return db;
}

type Row = Record<string, unknown>;
const all = (db: DatabaseSync, sql: string, ...args: (string | number | null)[]) => db.prepare(sql).all(...args) as Row[];

describe("migration 0014: leaner rows, in place", () => {
  it("the rows written before it read the same after it", () => {
    expect(LEANER).toBeGreaterThan(0);
    const db = database(FILES.slice(0, LEANER));
    const museum = Number(db.prepare("INSERT INTO museums (name, slug, source_lang, timezone) VALUES ('M', 'm', 'fr', 'UTC')").run().lastInsertRowid);
    const other = Number(db.prepare("INSERT INTO museums (name, slug, source_lang, timezone) VALUES ('O', 'o', 'fr', 'UTC')").run().lastInsertRowid);
    const memory = db.prepare(
      "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, source_text, text, origin, engine, updated_at) VALUES (?, 'fr', ?, ?, ?, ?, ?, 'e', 1)",
    );
    // One segment in three languages, one in one, the same hash in another museum, an odd source text.
    for (const lang of ["en", "de", "ar"]) memory.run(museum, lang, "h1", "Le vase « grec » 🏺", `${lang}: vase`, lang === "de" ? "edited" : "machine");
    memory.run(museum, "en", "h2", "Salle 2", "Room 2", "machine");
    memory.run(other, "en", "h1", "Le vase « grec » 🏺", "Vase", "machine");
    const stats = db.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, 1, 'en', ?, ?)");
    stats.run(museum, "2024-02-29", 3, 4);
    stats.run(museum, "2026-11-27", 5, 6);
    db.prepare("INSERT INTO tour_daily_stats (museum_id, day, tour_id, position, views) VALUES (?, '2026-01-01', 7, 2, 9)").run(museum);
    db.prepare("INSERT INTO easy_read_daily_stats (museum_id, day, article_id, lang, opens) VALUES (?, '1999-12-31', 1, 'fr', 2)").run(museum);
    db.prepare("INSERT INTO scan_events (id, museum_id, article_id, qrcode_id, lang, kind, occurred_at) VALUES ('e1', ?, 1, NULL, 'en', 'scan', 123)").run(
      museum,
    );
    const memoryBefore = all(
      db,
      "SELECT museum_id, source_lang, target_lang, source_hash, source_text, text, origin, engine, updated_at FROM translation_memory ORDER BY 1, 2, 3, 4",
    );

    const started = Date.now();
    db.exec(readFileSync(`${DIR}/${FILES[LEANER]}`, "utf8"));

    // The memory reads back identical through its segment, and each source text is stored once.
    expect(
      all(
        db,
        `SELECT m.museum_id, m.source_lang, m.target_lang, m.source_hash, s.source_text, m.text, m.origin, m.engine, m.updated_at
         FROM translation_memory m JOIN translation_segments s USING (museum_id, source_lang, source_hash) ORDER BY 1, 2, 3, 4`,
      ),
    ).toEqual(memoryBefore);
    expect(all(db, "SELECT museum_id, source_hash FROM translation_segments ORDER BY 1, 2")).toEqual([
      { museum_id: museum, source_hash: "h1" },
      { museum_id: museum, source_hash: "h2" },
      { museum_id: other, source_hash: "h1" },
    ]);
    // Counters: the same counts on the same days, the day now a number.
    expect(all(db, "SELECT day, scans, views FROM daily_stats ORDER BY day").map((r) => ({ ...r, day: isoDay(Number(r.day)) }))).toEqual([
      { day: "2024-02-29", scans: 3, views: 4 },
      { day: "2026-11-27", scans: 5, views: 6 },
    ]);
    expect(all(db, "SELECT day, views FROM tour_daily_stats")).toEqual([{ day: dayNumber("2026-01-01"), views: 9 }]);
    expect(all(db, "SELECT day, opens FROM easy_read_daily_stats")).toEqual([{ day: dayNumber("1999-12-31"), opens: 2 }]);
    // A raw event kept gets its five days from the migration on.
    const [event] = all(db, "SELECT id, occurred_at, received_at FROM scan_events");
    expect(event).toMatchObject({ id: "e1", occurred_at: 123 });
    expect(Number(event!.received_at)).toBeGreaterThanOrEqual(started - 1000);
    // WITHOUT ROWID, the indexes the queries use, the triggers of 0013 back, and nothing dangling.
    for (const table of ["translation_segments", "translation_memory", "daily_stats", "tour_daily_stats", "easy_read_daily_stats", "scan_events"])
      expect(String(all(db, "SELECT sql FROM sqlite_master WHERE name = ?", table)[0]!.sql), table).toMatch(/WITHOUT ROWID$/);
    expect(
      all(
        db,
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' AND tbl_name IN ('daily_stats', 'tour_daily_stats', 'scan_events') ORDER BY 1",
      ),
    ).toEqual([{ name: "daily_stats_article_day_idx" }, { name: "scan_events_received_idx" }, { name: "tour_daily_stats_tour_idx" }]);
    expect(all(db, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'translation_memory' ORDER BY 1").map((r) => r.name)).toEqual([
      "translation_segment_unused",
      "visitor_change_translation_memory_delete",
      "visitor_change_translation_memory_insert",
      "visitor_change_translation_memory_update",
    ]);
    expect(all(db, "PRAGMA foreign_key_check")).toEqual([]);
    expect(all(db, "SELECT name FROM sqlite_master WHERE name LIKE '%\\_new' ESCAPE '\\'")).toEqual([]);
  });

  it("keeps a segment while a translation points at it, drops it with the last, and refuses a translation without one", () => {
    const db = database(FILES);
    const museum = Number(db.prepare("INSERT INTO museums (name, slug, source_lang, timezone) VALUES ('M', 'm', 'fr', 'UTC')").run().lastInsertRowid);
    db.prepare("INSERT INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', 'h', 'Vase')").run(museum);
    const memory = db.prepare(
      "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at) VALUES (?, 'fr', ?, ?, 'x', 'machine', 'e', 1)",
    );
    memory.run(museum, "en", "h");
    memory.run(museum, "de", "h");
    expect(() => memory.run(museum, "en", "missing")).toThrow(/FOREIGN KEY/);
    const segments = () => all(db, "SELECT count(*) AS n FROM translation_segments")[0]!.n;
    db.prepare("DELETE FROM translation_memory WHERE target_lang = 'en'").run();
    expect(segments()).toBe(1);
    db.prepare("DELETE FROM translation_memory WHERE target_lang = 'de'").run();
    expect(segments()).toBe(0);
    // A museum deleted takes its segments and their translations with it.
    db.prepare("INSERT INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', 'h', 'Vase')").run(museum);
    memory.run(museum, "en", "h");
    db.prepare("DELETE FROM museums WHERE id = ?").run(museum);
    expect(all(db, "SELECT (SELECT count(*) FROM translation_memory) + (SELECT count(*) FROM translation_segments) AS n")).toEqual([{ n: 0 }]);
  });
});

describe("day numbers", () => {
  it("round-trip every day of four years, leap day included, and refuse what is not a day", () => {
    const first = dayNumber("2024-01-01");
    for (let n = first; n < first + 4 * 366; n++) expect(dayNumber(isoDay(n))).toBe(n);
    expect(dayNumber("1970-01-01")).toBe(0);
    expect(isoDay(dayNumber("2024-02-29"))).toBe("2024-02-29");
    for (const bad of ["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "", "2026-01-01T00:00:00Z", "２０２６-01-01"]) {
      expect(isDay(bad), bad).toBe(false);
      expect(() => dayNumber(bad)).toThrow(RangeError);
    }
  });
});
