import { readdirSync, readFileSync } from "node:fs";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { FIRST_MOVE_BLOCK, MOVED_TABLES, checkMuseum, moveMuseum, syncMuseum } from "~/shards/move";
import { SHARD_ID_SPAN } from "~/shards/keys";
import { httpD1, httpKv } from "../../scripts/d1-http.mjs";
import { shardSeedSql } from "../../scripts/shards.mjs";

// The remote move (decision 143) runs app/shards/move.ts on D1's and KV's HTTP API (scripts/d1-http.mjs). This
// rehearses it against a fake of that API that follows Cloudflare's documentation, not the adapter's assumptions:
// - POST /accounts/{account_id}/d1/database/{database_id}/query, body `{ sql, params }` or `{ batch: [{ sql, params }] }`,
//   answered `{ success, errors, messages, result: [{ results, success, meta }] }`, one result per statement
//   (https://developers.cloudflare.com/api/resources/d1/subresources/database/methods/query); a batch is one
//   transaction, as D1's batches are (https://developers.cloudflare.com/d1/worker-api/d1-database/#batch);
// - PUT /accounts/{account_id}/storage/kv/namespaces/{namespace_id}/values/{key_name}?expiration_ttl=…
//   (https://developers.cloudflare.com/api/resources/kv/subresources/namespaces/subresources/values/methods/update).
// Each database is a real SQLite (node:sqlite) with the project's migrations.

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const TOKEN = "test-token";

function migrated(dir: string, shard: number | null): DatabaseSync {
  const db = new DatabaseSync(":memory:");
  db.exec("PRAGMA foreign_keys = ON");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort())
    db.exec(readFileSync(`${dir}/${file}`, "utf8").replaceAll("--> statement-breakpoint", ""));
  if (shard !== null) db.exec(shardSeedSql(shard));
  return db;
}

function fakeCloudflare(databases: Map<string, DatabaseSync>, kv: Map<string, { value: string; ttl: string | null }>) {
  const calls: string[] = [];
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  const fetchImpl = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (new Headers(init?.headers).get("Authorization") !== `Bearer ${TOKEN}`)
      return answer(403, { success: false, errors: [{ code: 10000, message: "Authentication error" }] });
    const kvMatch = /^\/client\/v4\/accounts\/([^/]+)\/storage\/kv\/namespaces\/([^/]+)\/values\/(.+)$/.exec(url.pathname);
    if (kvMatch && init?.method === "PUT") {
      kv.set(decodeURIComponent(kvMatch[3]!), { value: String(init.body), ttl: url.searchParams.get("expiration_ttl") });
      calls.push(`kv ${decodeURIComponent(kvMatch[3]!)}`);
      return answer(200, { success: true, errors: [], messages: [], result: {} });
    }
    const d1Match = /^\/client\/v4\/accounts\/([^/]+)\/d1\/database\/([^/]+)\/query$/.exec(url.pathname);
    const db = d1Match && d1Match[1] === ACCOUNT ? databases.get(d1Match[2]!) : undefined;
    if (!db || init?.method !== "POST") return answer(404, { success: false, errors: [{ code: 7404, message: "not found" }] });
    const body = JSON.parse(String(init.body)) as { sql?: string; params?: SQLInputValue[]; batch?: { sql: string; params?: SQLInputValue[] }[] };
    const statements = body.batch ?? [{ sql: body.sql!, params: body.params }];
    calls.push(`d1 ${d1Match![2]} ×${statements.length}`);
    db.exec("BEGIN");
    try {
      const result = statements.map(({ sql, params = [] }) => {
        const statement = db.prepare(sql);
        if (statement.columns().length > 0) return { results: statement.all(...params), success: true, meta: { changes: 0 } };
        const run = statement.run(...params);
        return { results: [], success: true, meta: { changes: Number(run.changes), last_row_id: Number(run.lastInsertRowid) } };
      });
      db.exec("COMMIT");
      return answer(200, { success: true, errors: [], messages: [], result });
    } catch (error) {
      db.exec("ROLLBACK");
      return answer(400, { success: false, errors: [{ code: 7500, message: String((error as Error).message) }], messages: [], result: [] });
    }
  };
  return { fetchImpl: fetchImpl as typeof fetch, calls };
}

describe("a remote move, through D1's and KV's HTTP API", () => {
  it("moves a museum from shard 2 to shard 1 with its ids, rewrites KV, keeps shard 1's counters in range", async () => {
    const sqlite = new Map([
      ["dir", migrated("drizzle-directory", null)],
      ["s0", migrated("drizzle", 0)],
      ["s1", migrated("drizzle", 1)],
      ["s2", migrated("drizzle", 2)],
    ]);
    const kv = new Map<string, { value: string; ttl: string | null }>();
    const { fetchImpl, calls } = fakeCloudflare(sqlite, kv);
    const base = "http://fake.test/client/v4";
    const d1 = (id: string) => httpD1({ base, account: ACCOUNT, token: TOKEN, databaseId: id, fetchImpl });
    const shards = [d1("s0"), d1("s1"), d1("s2")];

    // A museum on shard 2: its directory row, its rows (ids of shard 2's range), a year of statistics.
    const s2 = sqlite.get("s2")!;
    const { id } = sqlite.get("dir")!.prepare("INSERT INTO museums (slug, shard) VALUES ('loin', 2) RETURNING id").get() as { id: number };
    s2.prepare("INSERT INTO museums (id, name, slug) VALUES (?, 'Musée lointain', 'loin')").run(id);
    const folder = s2.prepare("INSERT INTO folders (museum_id, name) VALUES (?, 'Salle « 1 »') RETURNING id").get(id) as { id: number };
    const article = s2
      .prepare(
        "INSERT INTO articles (museum_id, folder_id, slug, unformatted_name, content, updated_at) VALUES (?, ?, 'vase', 'Vase ✨ مزهرية', '{}', 1) RETURNING id",
      )
      .get(id, folder.id) as { id: number };
    expect(article.id).toBeGreaterThan(2 * SHARD_ID_SPAN);
    for (let day = 0; day < 400; day++)
      s2.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, ?, 'de', ?, 1)").run(
        id,
        `2026-${day}`,
        article.id,
        day,
      );
    const before = await checkMuseum(shards[2]!, id);

    const report = await moveMuseum(
      {
        directory: d1("dir"),
        shard: (k) => shards[k]!,
        kv: httpKv({ base, account: ACCOUNT, token: TOKEN, namespaceId: "ns", fetchImpl }),
        sleep: async () => {},
      },
      id,
      1,
      { propagationMs: 0, graceMs: 0, cleanupAfterMs: 0 },
    );
    expect(report).toMatchObject({ from: 2, to: 1 });
    expect(await checkMuseum(shards[1]!, id)).toEqual(before);
    expect(sqlite.get("s2")!.prepare("SELECT count(*) AS n FROM daily_stats WHERE museum_id = ?").get(id)).toEqual({ n: 0 });
    expect(sqlite.get("dir")!.prepare("SELECT shard, state, moving_to, moved_from FROM museums WHERE id = ?").get(id)).toEqual({
      shard: 1,
      state: "active",
      moving_to: null,
      moved_from: null,
    });
    expect(JSON.parse(kv.get(`dir:v1:museum:${id}`)!.value)).toMatchObject({ id, shard: 1, state: "active" });
    // The museum's ids (shard 2's range) are above shard 1's own: before the copy, shard 1's counters moved to a fresh
    // block claimed in the directory, so its next ids are above the museum's, never in shard 2's range.
    expect(sqlite.get("dir")!.prepare("SELECT block, shard FROM id_blocks").all()).toEqual([{ block: FIRST_MOVE_BLOCK, shard: 1 }]);
    for (const row of sqlite.get("s1")!.prepare("SELECT name, seq FROM sqlite_sequence").all() as { name: string; seq: number }[])
      expect(row.seq, row.name).toBeGreaterThanOrEqual(FIRST_MOVE_BLOCK * SHARD_ID_SPAN);
    const next = sqlite
      .get("s1")!
      .prepare("INSERT INTO articles (museum_id, slug, unformatted_name, content, updated_at) VALUES (?, 'n', 'N', '{}', 1) RETURNING id")
      .get(id) as { id: number };
    expect(next.id).toBe(FIRST_MOVE_BLOCK * SHARD_ID_SPAN + 1);
    // The 400 statistics rows went in batches of 100, not a call per row: each of the moved tables is read three
    // times on the target (two copies, the comparison), and written in a few batches.
    expect(calls.filter((c) => c.startsWith("d1 s1")).length).toBeLessThan(MOVED_TABLES.length * 3 + 40 + 2 * 12);
  });

  it("a second copy writes only what changed: an edit, new rows, and rows the source lost are deleted", async () => {
    const sqlite = new Map([
      ["s0", migrated("drizzle", 0)],
      ["s1", migrated("drizzle", 1)],
    ]);
    const { fetchImpl, calls } = fakeCloudflare(sqlite, new Map());
    const d1 = (id: string) => httpD1({ base: "http://fake.test/client/v4", account: ACCOUNT, token: TOKEN, databaseId: id, fetchImpl });
    const s0 = sqlite.get("s0")!;
    s0.prepare("INSERT INTO museums (id, name, slug) VALUES (7, 'Sept', 'sept')").run();
    const article = s0
      .prepare("INSERT INTO articles (museum_id, slug, unformatted_name, content, updated_at) VALUES (7, 'a', 'A', '{}', 1) RETURNING id")
      .get() as { id: number };
    for (let day = 0; day < 30; day++)
      s0.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (7, ?, ?, 'fr', 1, 1)").run(`d${day}`, article.id);
    expect(await syncMuseum(d1("s0"), d1("s1"), 7)).toBe(32);
    s0.prepare("UPDATE articles SET unformatted_name = 'A « renommé » ✨' WHERE id = ?").run(article.id);
    s0.prepare("DELETE FROM daily_stats WHERE day IN ('d1', 'd2', 'd3')").run();
    s0.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (7, 'd99', ?, 'fr', 5, 5)").run(article.id);
    const before = calls.length;
    expect(await syncMuseum(d1("s0"), d1("s1"), 7)).toBe(1 + 1 + 3);
    // Reads of the moved tables on both sides, then three writes (the article, the new row, the deletions).
    expect(calls.length - before).toBeLessThan(MOVED_TABLES.length * 2 + 6);
    expect(await checkMuseum(d1("s1"), 7)).toEqual(await checkMuseum(d1("s0"), 7));
  });

  it("an API refusal comes back as an error with the API's message", async () => {
    const sqlite = new Map([["dir", migrated("drizzle-directory", null)]]);
    const { fetchImpl } = fakeCloudflare(sqlite, new Map());
    const wrongToken = httpD1({ base: "http://fake.test/client/v4", account: ACCOUNT, token: "nope", databaseId: "dir", fetchImpl });
    await expect(wrongToken.prepare("SELECT 1").all()).rejects.toThrow(/Authentication error/);
  });
});
