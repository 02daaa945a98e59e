// Visitor pages can never be stale by omission (issue 31 §1, decision 132). The tables the visitor pages read
// are DERIVED here, by recording the SQL of every kind of visitor page read from D1 (article by code and by
// address, in the source language and translated, easy to read, narrated, a tour and its stop, the keypad,
// subtitles); each must carry the triggers that move the museum's change stamp, or be excluded below with its
// reason. Then each such table is inserted into, updated and deleted from, and the museum's stamp must move.
// A new table read by a visitor page without a trigger fails the first test; a trigger lost fails the others.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { dayNumber } from "~/lib/dates";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { museums } from "~/db/schema";
import { VISITOR_TABLES } from "~/visitor-cache/changes.server";
import { changedKey, publishVisitorChanges } from "~/visitor-cache/snapshot.server";
import { BASE, publishArticle, staffSession, texts, type StaffSession } from "./helpers";
import { createTour } from "./builders";
import { setStopNumber } from "./tour-helpers";
import { uploadSubtitles, video, VTT } from "./review-helpers";

/**
 * Tables a visitor page reads that carry no trigger, each with why its writes need not move the stamp. Their
 * writes happen on the visitor's own path (a trigger there would end every snapshot of the museum at each
 * first view) and change nothing a snapshot or its memo holds.
 */
const EXCLUDED: Record<string, string> = {
  translation_claims: "a machine translation under way (one engine call for parallel views); shows nothing",
  translation_failures:
    "segments whose machine translation failed lately, written by visitors' views; the page with the original is not cached in KV, so nothing to end",
};

/** Tables only counted or logged from the visitor's path: they must never fire (the hot path). */
const HOT_PATH = [
  "narration_claims",
  "narration_spend",
  "translation_spend",
  "question_spend",
  "visitor_questions",
  "engine_usage",
  "scan_events",
  "scan_visits",
  "daily_stats",
  "tour_daily_stats",
  "easy_read_daily_stats",
  "sessions",
  "login_attempts",
  "audit_log",
];

/**
 * The env with a D1 binding that records every statement prepared through it, and times the visitor changes'
 * read (never part of a batch, so its statement may be wrapped).
 */
function recordingEnv() {
  const statements: string[] = [];
  const publishMs: number[] = [];
  const timed = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, name) {
        if (name === "bind") return (...values: unknown[]) => timed(target.bind(...values));
        if (name === "all")
          return async () => {
            const t0 = performance.now();
            try {
              return await target.all();
            } finally {
              publishMs.push(performance.now() - t0);
            }
          };
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const DB = new Proxy(env.DB, {
    get(target, name) {
      if (name === "prepare")
        return (sql: string) => {
          statements.push(sql);
          return sql.includes("visitor_changes") ? timed(target.prepare(sql)) : target.prepare(sql);
        };
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { statements, publishMs, env: { ...env, DB } as typeof env };
}

async function fetchWith(appEnv: typeof env, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch!(
    new Request(`${BASE}${path}`, { redirect: "manual", ...init }) as Request<unknown, IncomingRequestCfProperties>,
    appEnv,
    ctx,
  );
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, body };
}

/** The tables named after FROM or JOIN in these statements, among the database's own. */
async function tablesRead(statements: readonly string[]): Promise<Set<string>> {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all<{ name: string }>();
  const tables = new Set(results.map((r) => r.name.toLowerCase()));
  const read = new Set<string>();
  for (const sql of statements)
    for (const m of sql.matchAll(/\b(?:from|join)\s+[`"[]?([A-Za-z_][A-Za-z0-9_]*)/gi)) if (tables.has(m[1]!.toLowerCase())) read.add(m[1]!.toLowerCase());
  return read;
}

/** The triggers that note visitor changes (0013); the other one, `translation_segment_unused` (0014), keeps no stamp. */
async function triggers(): Promise<{ table: string; event: string }[]> {
  const { results } = await env.DB.prepare(
    "SELECT tbl_name AS tbl, sql FROM sqlite_master WHERE type = 'trigger' AND name <> 'translation_segment_unused'",
  ).all<{
    tbl: string;
    sql: string;
  }>();
  return results.map((r) => ({ table: r.tbl.toLowerCase(), event: /\bAFTER\s+(INSERT|UPDATE|DELETE)\b/i.exec(r.sql)?.[1]?.toLowerCase() ?? "?" }));
}

const stamp = async (museumId: number) => Number((await env.KV.get(changedKey(museumId))) ?? "0");

/**
 * Runs `write` through a fresh watched handle (as a request, the cron or a queue batch gets), publishes, and
 * says whether the museum's stamp moved from a planted old value to at least the time before the write.
 */
async function moves(museumId: number, write: (d1: D1Database) => Promise<unknown>): Promise<boolean> {
  await env.KV.put(changedKey(museumId), "1");
  const db = createDb(env.DB);
  const before = Date.now();
  await write(db.$client);
  await publishVisitorChanges(db, env.KV);
  return (await stamp(museumId)) >= before;
}

interface Fixture {
  s: StaffSession;
  museumId: number;
  link: string;
  slug: string;
  tour: { id: number; link: string };
  subtitles: string;
}

/** A museum with a row in every visitor table: a published article in a folder, with an image and subtitles, etc. */
async function fixture(): Promise<Fixture> {
  const s = await staffSession();
  const museumId = s.user.museumId;
  const imageKey = `m/${museumId}/images/${crypto.randomUUID()}.png`;
  await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes, width, height) VALUES (?, ?, 'image', 'image/png', 3, 40, 30)")
    .bind(museumId, imageKey)
    .run();
  const p = await publishArticle(s, [...texts(["Amphore attique à figures noires."]), { type: "image", src: `/media/${imageKey}`, alt: "Une amphore." }]);
  const subtitles = await uploadSubtitles(s, p.articleId, VTT);
  await p.edit([...texts(["Amphore attique à figures noires."]), { type: "image", src: `/media/${imageKey}`, alt: "Une amphore." }, video(subtitles)]);
  const folder = await env.DB.prepare("INSERT INTO folders (museum_id, parent_id, name) VALUES (?, NULL, 'Salle grecque') RETURNING id")
    .bind(museumId)
    .first<{ id: number }>();
  await env.DB.prepare("UPDATE articles SET folder_id = ? WHERE id = ?").bind(folder!.id, p.articleId).run();
  await setStopNumber(p.articleId, 7);
  const tour = await createTour(museumId, [p.articleId]);
  const now = Date.now();
  const easy = JSON.stringify([{ type: "metadatas", url: p.slug, backgroundColor: "#ffffff" }, ...texts(["Un vase."])]);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO glossary_terms (museum_id, term, target_lang, translation, created_at) VALUES (?, 'Amphore', '', '', ?)").bind(museumId, now),
    env.DB.prepare("INSERT OR IGNORE INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', 'h-edited', 'Salle')").bind(
      museumId,
    ),
    env.DB.prepare(
      "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at) VALUES (?, 'fr', 'de', 'h-edited', 'Saal', 'edited', '', ?)",
    ).bind(museumId, now),
    env.DB.prepare(
      "INSERT INTO narrations (museum_id, article_id, lang, kind, r2_key, content_type, bytes, created_at, updated_at) VALUES (?, ?, 'fr', 'recorded', ?, 'audio/mpeg', 3, ?, ?)",
    ).bind(museumId, p.articleId, `n/${museumId}/${p.articleId}/rec.mp3`, now, now),
    env.DB.prepare(
      "INSERT INTO easy_read_versions (article_id, museum_id, content, approved_content, approved_version, version, updated_at) VALUES (?, ?, ?, ?, 1, 1, ?)",
    ).bind(p.articleId, museumId, easy, easy, now),
  ]);
  return { s, museumId, link: p.link, slug: p.slug, tour, subtitles };
}

describe("the tables the visitor pages read (derived by recording their SQL)", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  it("each is a visitor table with its triggers, or excluded with a reason; the recording saw them all", async () => {
    // Every snapshot of the museum ends: each page below reads D1 (decision 039's "first view").
    const future = Date.now() + 3_600_000;
    const { statements, env: recording } = recordingEnv();
    const museum = f.s.user.museumSlug;
    const pages: [string, Record<string, string>][] = [
      [`/r/${f.link}`, { "Accept-Language": "fr" }],
      [`/r/${f.link}`, { "Accept-Language": "de" }],
      [`/r/${f.link}?easy=1`, { "Accept-Language": "fr" }],
      [`/r/${f.link}/languages`, { "Accept-Language": "fr" }],
      [`/v/${museum}/${f.slug}`, { "Accept-Language": "fr" }],
      [`/v/${museum}/${f.slug}`, { "Accept-Language": "it" }],
      [`/t/${f.tour.link}`, { "Accept-Language": "fr" }],
      [`/t/${f.tour.link}/1`, { "Accept-Language": "de" }],
      [`/v/${museum}/n`, { "Accept-Language": "fr" }],
      [`/v/${museum}/n?number=7`, { "Accept-Language": "fr" }],
      [`/vtt?src=${encodeURIComponent(f.subtitles)}&lang=de`, {}],
    ];
    for (const [path, headers] of pages) {
      await env.KV.put(changedKey(f.museumId), String(future));
      const { status } = await fetchWith(recording, path, { headers });
      expect(status, path).toBeLessThan(400);
    }
    await env.KV.delete(changedKey(f.museumId));
    const read = await tablesRead(statements);
    // The mechanism's own table: read after a view that wrote (a machine translation), by the publishing step.
    read.delete("visitor_changes");
    console.log(`tables read by visitor pages: ${[...read].sort().join(", ")}`);
    // The recording really covered each kind of page (if one of these goes, the derivation saw less).
    for (const table of ["museums", "folders", "articles", "qrcodes", "glossary_terms", "media", "tours", "tour_stops", "narrations", "easy_read_versions"])
      expect(read, `a visitor page read ${table}`).toContain(table);
    // And no trigger fires for a table no visitor page reads (each costs staff writes a publishing read).
    for (const table of VISITOR_TABLES) expect(read, `${table} has triggers but no visitor page reads it`).toContain(table);
    const watched = new Set<string>(VISITOR_TABLES);
    const unwatched = [...read].filter((t) => !watched.has(t) && !(t in EXCLUDED));
    expect(unwatched, "tables visitor pages read with no trigger and no reason: add them to VISITOR_TABLES and a migration's triggers").toEqual([]);
    // An exclusion nobody reads any more is dropped, so the list stays true.
    for (const table of Object.keys(EXCLUDED)) expect(read, `${table} is excluded but no visitor page reads it`).toContain(table);
  });

  it("every visitor table has its three triggers, and only visitor tables have any", async () => {
    const found = await triggers();
    for (const table of VISITOR_TABLES)
      expect(
        found
          .filter((t) => t.table === table)
          .map((t) => t.event)
          .sort(),
        table,
      ).toEqual(["delete", "insert", "update"]);
    const watched = new Set<string>(VISITOR_TABLES);
    expect(found.filter((t) => !watched.has(t.table))).toEqual([]);
    for (const table of [...HOT_PATH, ...Object.keys(EXCLUDED)]) expect(watched.has(table), table).toBe(false);
  });

  it("a table whose deletions cascade into a visitor table is a visitor table itself (its writes are seen)", async () => {
    for (const child of VISITOR_TABLES) {
      const { results } = await env.DB.prepare('SELECT "table" AS parent, on_delete FROM pragma_foreign_key_list(?)')
        .bind(child)
        .all<{ parent: string; on_delete: string }>();
      for (const fk of results)
        if (/cascade|set null|set default/i.test(fk.on_delete))
          expect(VISITOR_TABLES as readonly string[], `${fk.parent} → ${child}`).toContain(fk.parent.toLowerCase());
    }
  });

  it("an insert, an update and a delete of each visitor table move the museum's stamp", async () => {
    // Children before their parents: a parent's delete cascades into them.
    const order = [
      "tour_stops",
      "narrations",
      "easy_read_versions",
      "translation_memory",
      "glossary_terms",
      "media",
      "qrcodes",
      "tours",
      "articles",
      "folders",
    ];
    expect([...order, "museums"].sort(), "every visitor table is tried here").toEqual([...VISITOR_TABLES].sort());
    for (const table of order) {
      // A translation staff edited (a machine one fires nothing, tested below).
      const only = table === "translation_memory" ? " AND origin = 'edited'" : "";
      // A row by its rowid, or by its primary key in a WITHOUT ROWID table (the memory, 0014).
      const withoutRowid = /WITHOUT ROWID\s*$/i.test(
        (await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").bind(table).first<{ sql: string }>())!.sql,
      );
      const keys = withoutRowid
        ? (await env.DB.prepare("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk").bind(table).all<{ name: string }>()).results.map(
            (r) => r.name,
          )
        : ["rowid"];
      const values = await env.DB.prepare(`SELECT * FROM ${table} WHERE museum_id = ?${only} LIMIT 1`).bind(f.museumId).first<Record<string, unknown>>();
      expect(values, `the fixture has a row of ${table}`).not.toBeNull();
      const rowKey = withoutRowid
        ? keys.map((k) => values![k])
        : [(await env.DB.prepare(`SELECT rowid AS r FROM ${table} WHERE museum_id = ?${only} LIMIT 1`).bind(f.museumId).first<{ r: number }>())!.r];
      const where = keys.map((k, i) => `"${k}" = ?${i + 1}`).join(" AND ");
      const columns = Object.keys(values!);
      const first = columns[0]!;
      expect(
        await moves(f.museumId, (d1) =>
          d1
            .prepare(`UPDATE ${table} SET "${first}" = "${first}" WHERE ${where}`)
            .bind(...rowKey)
            .run(),
        ),
        `update ${table}`,
      ).toBe(true);
      // The memory row's segment goes with its last translation (0014): kept to put the row back.
      const segment =
        table === "translation_memory"
          ? await env.DB.prepare("SELECT * FROM translation_segments WHERE museum_id = ? AND source_lang = ? AND source_hash = ?")
              .bind(values!.museum_id, values!.source_lang, values!.source_hash)
              .first<Record<string, unknown>>()
          : null;
      expect(
        await moves(f.museumId, (d1) =>
          d1
            .prepare(`DELETE FROM ${table} WHERE ${where}`)
            .bind(...rowKey)
            .run(),
        ),
        `delete ${table}`,
      ).toBe(true);
      if (segment)
        await env.DB.prepare("INSERT OR IGNORE INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, ?, ?, ?)")
          .bind(segment.museum_id, segment.source_lang, segment.source_hash, segment.source_text)
          .run();
      const insert = `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
      expect(
        await moves(f.museumId, (d1) =>
          d1
            .prepare(insert)
            .bind(...Object.values(values!))
            .run(),
        ),
        `insert ${table}`,
      ).toBe(true);
    }
    // Museums on a museum of their own (its delete takes everything with it).
    const db = createDb(env.DB);
    const before = Date.now();
    // Its id from the directory, as every museum's (decision 142).
    const slug = `scratch-${crypto.randomUUID()}`;
    const id = await env.DIRECTORY.prepare("INSERT INTO museums (slug, shard) VALUES (?, 0) RETURNING id").bind(slug).first<{ id: number }>();
    const row = await db.$client
      .prepare("INSERT INTO museums (id, name, slug) VALUES (?, 'Scratch', ?) RETURNING id")
      .bind(id!.id, slug)
      .first<{ id: number }>();
    const scratch = row!.id;
    await publishVisitorChanges(db, env.KV);
    expect(await stamp(scratch), "insert museums").toBeGreaterThanOrEqual(before);
    expect(await moves(scratch, (d1) => d1.prepare("UPDATE museums SET name = 'Scratch 2' WHERE id = ?").bind(scratch).run()), "update museums").toBe(true);
    expect(await moves(scratch, (d1) => d1.prepare("DELETE FROM museums WHERE id = ?").bind(scratch).run()), "delete museums").toBe(true);
    await env.KV.delete(changedKey(scratch));
  });

  it("machine translations, statistics, scans and sessions move nothing, and cost no D1 read", async () => {
    const s = await staffSession();
    const m = s.user.museumId;
    // The museum's creation is a change too; made old here, so that a read of the last seconds' changes (the
    // publishing read's window, decision 132) does not find it.
    await env.DB.prepare("UPDATE visitor_changes SET changed_at = 0 WHERE museum_id = ?").bind(m).run();
    const counted = () => {
      const { statements, env: recording } = recordingEnv();
      return { statements, db: createDb(recording.DB) };
    };
    const writes: [string, (d1: D1Database) => Promise<unknown>][] = [
      [
        "a machine translation",
        (d1) =>
          d1.batch([
            d1
              .prepare("INSERT OR IGNORE INTO translation_segments (museum_id, source_lang, source_hash, source_text) VALUES (?, 'fr', 'h-machine', 'Vase')")
              .bind(m),
            d1
              .prepare(
                "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at) VALUES (?, 'fr', 'de', 'h-machine', 'Vase', 'machine', 'pseudo', 1)",
              )
              .bind(m),
          ]),
      ],
      [
        "a day's statistics",
        (d1) =>
          d1
            .prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, 0, 'fr', 1, 1)")
            .bind(m, dayNumber("2026-01-01"))
            .run(),
      ],
      [
        "a claim",
        (d1) =>
          d1
            .prepare("INSERT INTO translation_claims (museum_id, source_lang, target_lang, source_hash, expires_at) VALUES (?, 'fr', 'de', 'h', 1)")
            .bind(m)
            .run(),
      ],
    ];
    for (const [what, write] of writes) {
      await env.KV.put(changedKey(m), "1");
      const { statements, db } = counted();
      await write(db.$client);
      const before = statements.length;
      await publishVisitorChanges(db, env.KV);
      expect(await stamp(m), what).toBe(1);
      const readAfter = statements.length - before;
      // A machine translation is a write of a visitor table (the statement cannot tell its origin): one read,
      // which finds nothing. The others are not visitor tables: no read at all.
      expect(readAfter, what).toBe(what === "a machine translation" ? 1 : 0);
    }
    // Nothing written, nothing read.
    const { statements, db } = counted();
    await db.select().from(museums).limit(1);
    await publishVisitorChanges(db, env.KV);
    expect(statements).toHaveLength(1);
    // An edited one moves it.
    expect(
      await moves(m, (d1) =>
        d1.prepare("UPDATE translation_memory SET origin = 'edited', text = 'Krug' WHERE museum_id = ? AND source_hash = 'h-machine'").bind(m).run(),
      ),
    ).toBe(true);
    await env.KV.delete(changedKey(m));
  });
});

describe("publishing under load and in conflict", () => {
  it("50 handles writing one museum at once: every publish sees the change, the stamp is after every write", async () => {
    const s = await staffSession();
    const m = s.user.museumId;
    await env.KV.put(changedKey(m), "1");
    const before = Date.now();
    const dbs = Array.from({ length: 50 }, () => createDb(env.DB));
    await Promise.all(
      dbs.map(async (db, i) => {
        await db.$client.prepare("UPDATE museums SET name = ? WHERE id = ?").bind(`Musée ${i} ✓ 𓂀`, m).run();
        await publishVisitorChanges(db, env.KV);
      }),
    );
    expect(await stamp(m)).toBeGreaterThanOrEqual(before);
    const row = await env.DB.prepare("SELECT changed_at FROM visitor_changes WHERE museum_id = ?").bind(m).first<{ changed_at: number }>();
    expect(row!.changed_at).toBeGreaterThan(0);
    await env.KV.delete(changedKey(m));
  });

  it("two requests writing two museums at once each publish their own (and perhaps the other's: harmless)", async () => {
    const [a, b] = await Promise.all([staffSession(), staffSession()]);
    for (const x of [a, b]) await env.KV.put(changedKey(x.user.museumId), "1");
    const before = Date.now();
    const [dbA, dbB] = [createDb(env.DB), createDb(env.DB)];
    await Promise.all([
      dbA.$client.prepare("INSERT INTO glossary_terms (museum_id, term, created_at) VALUES (?, 'Cratère', 1)").bind(a.user.museumId).run(),
      dbB.$client.prepare("INSERT INTO glossary_terms (museum_id, term, created_at) VALUES (?, 'Cratère', 1)").bind(b.user.museumId).run(),
    ]);
    await Promise.all([publishVisitorChanges(dbA, env.KV), publishVisitorChanges(dbB, env.KV)]);
    for (const x of [a, b]) {
      expect(await stamp(x.user.museumId)).toBeGreaterThanOrEqual(before);
      await env.KV.delete(changedKey(x.user.museumId));
    }
  });

  it("a change this isolate already stamped is not stamped again by a later read that finds it; a new change is", async () => {
    const s = await staffSession();
    const m = s.user.museumId;
    const write = (d1: D1Database, term: string) => d1.prepare("INSERT INTO glossary_terms (museum_id, term, created_at) VALUES (?, ?, 1)").bind(m, term).run();
    expect(await moves(m, (d1) => write(d1, "Lécythe"))).toBe(true);
    // Another handle writes another museum within the read's window: museum m's note is found again, same value.
    await env.KV.put(changedKey(m), "1");
    const other = await staffSession();
    const db = createDb(env.DB);
    await db.$client.prepare("UPDATE museums SET name = 'Autre' WHERE id = ?").bind(other.user.museumId).run();
    await publishVisitorChanges(db, env.KV);
    expect(await stamp(m)).toBe(1);
    expect(await stamp(other.user.museumId)).toBeGreaterThan(1);
    // A new change of m is stamped.
    expect(await moves(m, (d1) => write(d1, "Œnochoé"))).toBe(true);
    for (const x of [m, other.user.museumId]) await env.KV.delete(changedKey(x));
  });

  it("a staff write request publishes with one more D1 read; a staff read adds none (measured)", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Cratère en calice."]));
    const { statements, publishMs, env: recording } = recordingEnv();
    const totals: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < 10; i++) {
      const current = (await s.read(`/api/read/article?articleId=${p.articleId}`)).body as { content: unknown[]; version: number };
      const first = statements.length;
      const t0 = performance.now();
      const saved = await fetchWith(recording, "/api/manage/update_article", {
        method: "POST",
        headers: { "Content-Type": "application/json", Host: "localhost", Cookie: s.cookie },
        body: JSON.stringify({
          articleId: p.articleId,
          version: current.version,
          newContent: [current.content[0], ...texts([`Cratère en calice, ${450 + i} av. J.-C.`])],
        }),
      });
      totals.push(performance.now() - t0);
      expect(saved.status).toBe(200);
      const mine = statements.slice(first);
      counts.push(mine.length);
      expect(
        mine.filter((sql) => sql.includes("visitor_changes")),
        "one publishing read per save",
      ).toHaveLength(1);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `update_article ×10: ${median(counts)} D1 statements per save (before decision 132: ${median(counts) - 1}); ` +
        `the publishing read: median ${median(publishMs).toFixed(1)} ms, max ${Math.max(...publishMs).toFixed(1)} ms; whole save: median ${median(totals).toFixed(1)} ms`,
    );
    const before = statements.length;
    const tree = await fetchWith(recording, "/api/tree", { headers: { Cookie: s.cookie } });
    expect(tree.status).toBe(200);
    expect(statements.slice(before).filter((sql) => sql.includes("visitor_changes"))).toEqual([]);
  });
});
