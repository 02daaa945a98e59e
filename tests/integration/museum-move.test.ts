import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { SHARD_ID_SPAN } from "~/shards/keys";
import { pseudoTranslate } from "~/translation/engines";
import {
  FIRST_MOVE_BLOCK,
  MOVED_TABLES,
  MoveError,
  MoveStopped,
  SHARD_TABLES,
  checkMuseum,
  finishMove,
  moveMuseum,
  rollbackMove,
  type MoveIo,
  type MoveOptions,
} from "~/shards/move";
import { forgetDirectoryRows } from "~/shards/route.server";
import consumer from "../../workers/stats-consumer/index";
import { BASE, createArticle, createMember, createMuseum, get, postJson, signIn } from "./helpers";
import { shardDb } from "./builders";

// Moving a museum between shards (decision 143), in the Worker's own runtime: the move's steps run here while
// visitors read its pages, staff read and write its articles and the consumer counts its scans.
//
// The app's isolate is this one: what a real move waits for (every isolate's cached directory row to expire,
// MOVE_DEFAULTS.propagationMs) is the caches being forgotten here, each time the move waits.

function io(): MoveIo {
  return {
    directory: env.DIRECTORY,
    shard: (k) => shardDb(k),
    kv: env.KV,
    log: (line) => console.log(`[move] ${line}`),
    sleep: async (ms) => {
      forgetDirectoryRows();
      await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 200)));
    },
  };
}

// The propagation wait is always taken (the test's sleep forgets the caches, then waits at most 200 ms).
const FAST: MoveOptions = { propagationMs: 60_000, graceMs: 50, cleanupAfterMs: 0 };

/** A turn of the event loop: a replayed visitor page is answered without I/O, and a loop of them would starve timers. */
const turn = () => new Promise((resolve) => setTimeout(resolve, 2));

async function museumOn(shard: number) {
  const museum = await createMuseum({ shard });
  const member = await createMember(museum);
  const s = await signIn(member);
  return { museum, member, s };
}

const count = async (k: number, table: string, museumId: number) =>
  (await shardDb(k).prepare(`SELECT count(*) AS n FROM ${table} WHERE museum_id = ?`).bind(museumId).first<{ n: number }>())!.n;

const directoryRow = (id: number) =>
  env.DIRECTORY.prepare("SELECT shard, state, moving_to, moved_from FROM museums WHERE id = ?").bind(id).first<{
    shard: number;
    state: string;
    moving_to: number | null;
    moved_from: number | null;
  }>();

function scanEvent(museumId: number, articleId: number) {
  return { id: crypto.randomUUID(), type: "scan", museumId, articleId, qrcodeId: null, lang: "en", at: Date.now() };
}

/** Delivers scan events to the stats consumer, again and again while it retries some, as the queue would. */
async function deliver(bodies: unknown[]): Promise<{ retried: number }> {
  let pending = bodies.map((body, i) => ({ id: `move-${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body }));
  let retried = 0;
  while (pending.length > 0) {
    const batch = createMessageBatch("muselingo-scans", pending);
    const ctx = createExecutionContext();
    await consumer.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    const again = new Set(result.retryMessages.map((m) => m.msgId));
    retried += again.size;
    pending = pending.filter((m) => again.has(m.id)).map((m) => ({ ...m, attempts: m.attempts + 1 }));
    if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { retried };
}

describe("moving a museum", () => {
  it("every table of the schema is moved or is the shard's own, parents before children", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all<{ name: string }>();
    const moved = MOVED_TABLES.map((t) => t.name);
    for (const { name } of results) expect(moved.includes(name) || SHARD_TABLES.includes(name), name).toBe(true);
    for (const spec of MOVED_TABLES) {
      const { results: keys } = await env.DB.prepare("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk").bind(spec.name).all<{ name: string }>();
      expect(spec.key ?? [], spec.name).toEqual(keys.map((k) => k.name));
      const sql = (await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = ?").bind(spec.name).first<{ sql: string }>())!.sql;
      expect(spec.autoincrement === true, spec.name).toBe(/AUTOINCREMENT/i.test(sql));
      const { results: parents } = await env.DB.prepare('SELECT DISTINCT "table" AS parent FROM pragma_foreign_key_list(?)')
        .bind(spec.name)
        .all<{ parent: string }>();
      for (const { parent } of parents) expect(moved.indexOf(parent), `${spec.name} → ${parent}`).toBeLessThan(moved.indexOf(spec.name));
    }
  });

  it("moves a museum while visitors read, staff read and write, and scans arrive: nothing lost, no visitor error", async () => {
    const a = await museumOn(1);
    const id = a.museum.museumId;
    const articles = [];
    for (let i = 0; i < 3; i++)
      articles.push(await createArticle(a.s, { elements: [{ type: "text", content: `Vase n° ${i} — ✨ مزهرية` }], published: true, qrcode: true }));
    // Translations kept, statistics counted, on shard 1.
    for (const article of articles) expect((await get(`/r/${article.link}?lang=de`)).status).toBe(200);
    await deliver(articles.map((article) => scanEvent(id, article.articleId)));
    const before = await checkMuseum(shardDb(1), id);

    // Traffic while the museum moves: visitors' pages (a new language among them), staff reads and writes, scans.
    let moving = true;
    const visitorStatuses: number[] = [];
    const staffReads: number[] = [];
    const writes: { status: number; retryAfter: string | null; reason?: string }[] = [];
    const made: number[] = [];
    let scansSent = articles.length;
    const visitors = (async () => {
      for (let i = 0; moving; i++) {
        const article = articles[i % articles.length]!;
        const response = await get(`/r/${article.link}?lang=${["de", "it", "ja"][i % 3]}`);
        visitorStatuses.push(response.status);
        await response.arrayBuffer();
        await turn();
      }
    })();
    const staff = (async () => {
      for (let i = 0; moving; i++) {
        staffReads.push((await a.s.read(`/api/read/article?articleId=${articles[0]!.articleId}`)).status);
        const response = await postJson("/api/manage/add_article", { pathArray: [] }, { Cookie: a.s.cookie });
        const text = await response.text();
        const body = (text.startsWith("{") ? JSON.parse(text) : { error: { reason: text.slice(0, 80) } }) as { id?: number; error?: { reason?: string } };
        writes.push({ status: response.status, retryAfter: response.headers.get("Retry-After"), reason: body.error?.reason });
        if (response.status === 200) made.push(body.id!);
        await turn();
      }
    })();
    const scans = (async () => {
      while (moving) {
        await deliver(articles.map((article) => scanEvent(id, article.articleId)));
        scansSent += articles.length;
        await turn();
      }
    })();

    const report = await moveMuseum(io(), id, 2, FAST);
    moving = false;
    await Promise.all([visitors, staff, scans]);

    expect(report).toMatchObject({ museumId: id, from: 1, to: 2 });
    expect(report.frozenMs).toBeLessThan(10_000);
    // Visitors saw nothing; staff reads never failed; staff writes either landed or were told to come back.
    expect(visitorStatuses.length).toBeGreaterThan(0);
    expect(new Set(visitorStatuses)).toEqual(new Set([200]));
    expect(new Set(staffReads)).toEqual(new Set([200]));
    for (const w of writes) {
      expect([200, 503], JSON.stringify(w)).toContain(w.status);
      if (w.status === 503) expect(w).toMatchObject({ retryAfter: "60", reason: "museum_moving" });
    }
    // Where the museum is now: the directory, KV, and its rows on shard 2 only.
    expect(await directoryRow(id)).toEqual({ shard: 2, state: "active", moving_to: null, moved_from: null });
    expect(await env.KV.get(`dir:v1:museum:${id}`, "json")).toMatchObject({ id, shard: 2, state: "active" });
    expect(await count(1, "articles", id)).toBe(0);
    expect(await count(1, "users", id)).toBe(0);
    expect(await shardDb(1).prepare("SELECT 1 FROM museums WHERE id = ?").bind(id).first()).toBeNull();
    // Every write that was answered 200 is there, with its id.
    expect(made.length).toBeGreaterThan(0);
    const { results } = await shardDb(2).prepare("SELECT id FROM articles WHERE museum_id = ?").bind(id).all<{ id: number }>();
    for (const made1 of made) expect(results.map((r) => r.id)).toContain(made1);
    // Statistics exact: every scan sent is counted once, those retried during the freeze included.
    const counted = (await shardDb(2).prepare("SELECT coalesce(sum(scans), 0) AS n FROM daily_stats WHERE museum_id = ?").bind(id).first<{ n: number }>())!.n;
    expect(counted).toBe(scansSent);
    // Shard 2's next ids stay in its own range although rows of shard 1's range came in.
    const { results: sequences } = await shardDb(2).prepare("SELECT name, seq FROM sqlite_sequence").all<{ name: string; seq: number }>();
    for (const s of sequences) expect(s.seq, s.name).toBeGreaterThanOrEqual(2 * SHARD_ID_SPAN);
    // And the museum carries on there: the same session, the same codes, new ids from shard 2's range.
    const after = await createArticle(a.s, { elements: [{ type: "text", content: "Après le déménagement" }], published: true, qrcode: true });
    expect(after.articleId).toBeGreaterThan(2 * SHARD_ID_SPAN);
    const page = await get(`/r/${articles[0]!.link}?lang=fr`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Vase n° 0");
    // What was on shard 1 before the move is on shard 2, row for row (less what the traffic added).
    const moved = await checkMuseum(shardDb(2), id);
    for (const table of ["museums", "glossary_terms", "media", "tours"]) {
      expect(
        moved.find((t) => t.table === table),
        table,
      ).toEqual(before.find((t) => t.table === table));
    }
  });

  it("a freeze answers staff writes 503 with Retry-After, in JSON and in a page's form, while visitors and reads carry on", async () => {
    const a = await museumOn(1);
    const article = await createArticle(a.s, { elements: [{ type: "text", content: "Gelé" }], published: true, qrcode: true });
    await expect(moveMuseum(io(), a.museum.museumId, 0, { ...FAST, stopAfter: "frozen" })).rejects.toBeInstanceOf(MoveStopped);
    expect(await directoryRow(a.museum.museumId)).toMatchObject({ shard: 1, state: "frozen", moving_to: 0 });
    // A scan of the frozen museum is retried by the consumer, not written to the shard it is leaving.
    const frozenScan = { id: `frozen-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body: scanEvent(a.museum.museumId, article.articleId) };
    const frozenBatch = createMessageBatch("muselingo-scans", [frozenScan]);
    const frozenCtx = createExecutionContext();
    await consumer.queue(frozenBatch, env);
    const frozenResult = await getQueueResult(frozenBatch, frozenCtx);
    expect(frozenResult.retryMessages.map((m) => m.msgId)).toEqual([frozenScan.id]);
    expect(frozenResult.explicitAcks).toEqual([]);
    const scansOn = async (k: number) =>
      (await shardDb(k).prepare("SELECT coalesce(sum(scans), 0) AS n FROM daily_stats WHERE museum_id = ?").bind(a.museum.museumId).first<{ n: number }>())!.n;
    expect(await scansOn(1)).toBe(0);

    const json = await postJson("/api/manage/add_article", { pathArray: [] }, { Cookie: a.s.cookie });
    expect(json.status).toBe(503);
    expect(json.headers.get("Retry-After")).toBe("60");
    expect(await json.json()).toMatchObject({ error: { code: "unavailable", reason: "museum_moving" } });
    // A page's form (the glossary's, as the browser posts it): the same refusal, for the form to say beside it.
    const form = await SELF.fetch(`${BASE}/glossary.data`, {
      method: "POST",
      headers: { Cookie: a.s.cookie, Host: "localhost", Origin: BASE },
      body: new URLSearchParams({ intent: "add", mode: "never", term: "Amphore" }),
      redirect: "manual",
    });
    expect(form.status).toBe(503);
    const decoded = await decode(form.body!);
    await decoded.done;
    const refusal = decoded.value as { data?: { errors?: Record<string, string> } } & { errors?: Record<string, string> };
    expect((refusal.data ?? refusal).errors).toEqual({ _form: "museum_moving" });
    // Signing in writes a session: it waits too, and says why (not that the password is wrong).
    const signIn = await postJson("/login", { email: a.member.email, password: a.member.password });
    expect(signIn.status).toBe(503);
    expect(await signIn.json()).toMatchObject({ error: { code: "unavailable", reason: "museum_moving" } });
    const visitor = await get(`/r/${article.link}?lang=pt`);
    expect(visitor.status, "a visitor's page in a new language").toBe(200);
    const during = await visitor.text();
    expect((await a.s.read(`/api/read/article?articleId=${article.articleId}`)).status, "a staff read").toBe(200);
    expect((await a.s.page("/dashboard")).status, "a staff page").toBe(200);

    // Taken up again, the move completes; the write then lands on shard 0.
    const report = await moveMuseum(io(), a.museum.museumId, 0, FAST);
    expect(report.to).toBe(0);
    const after = await postJson("/api/manage/add_article", { pathArray: [] }, { Cookie: a.s.cookie });
    expect(after.status, "a write after the move").toBe(200);
    // Its id is shard 0's, above the museum's own (shard 1's range): shard 1 never hands it out.
    const newId = ((await after.json()) as { id: number }).id;
    expect(newId).toBeGreaterThan(FIRST_MOVE_BLOCK * SHARD_ID_SPAN);
    for (const k of [1, 2]) expect(await shardDb(k).prepare("SELECT 1 FROM articles WHERE id = ?").bind(newId).first()).toBeNull();
    expect(await count(0, "articles", a.museum.museumId)).toBe(2);
    expect(await count(1, "articles", a.museum.museumId)).toBe(0);
    // Delivered again once the museum is live, the scan counts once, on its new shard.
    expect((await deliver([frozenScan.body])).retried).toBe(0);
    expect(await scansOn(0)).toBe(1);
    // The visitor's page during the freeze was translated (the test engine's pseudo-translation), not stored.
    expect(during).toContain(pseudoTranslate("Gelé", "pt"));
    expect(await count(0, "translation_memory", a.museum.museumId)).toBe(0);
  });

  it("a move killed after any step is rolled back or resumed, one complete copy authoritative", async () => {
    const a = await museumOn(2);
    const id = a.museum.museumId;
    await createArticle(a.s, { elements: [{ type: "text", content: "Interrompu" }], published: true, qrcode: true });
    const original = await checkMuseum(shardDb(2), id);

    // Shard 1's counter before rows of shard 2's range come in: it never goes back, so no id is handed out twice.
    const sequence = async () => (await shardDb(1).prepare("SELECT seq FROM sqlite_sequence WHERE name = 'articles'").first<{ seq: number }>())!.seq;
    const counterBefore = await sequence();

    // Killed after the live copy, then rolled back: the museum stays on shard 2, the partial copy goes.
    await expect(moveMuseum(io(), id, 1, { ...FAST, stopAfter: "copied" })).rejects.toBeInstanceOf(MoveStopped);
    // The museum's ids are above shard 1's own: shard 1's counters moved to a fresh block first, never back.
    expect(await sequence()).toBeGreaterThanOrEqual(Math.max(counterBefore, FIRST_MOVE_BLOCK * SHARD_ID_SPAN));
    expect(await directoryRow(id)).toMatchObject({ shard: 2, state: "copying", moving_to: 1 });
    expect(await count(1, "articles", id)).toBe(1);
    await rollbackMove(io(), id);
    expect(await directoryRow(id)).toEqual({ shard: 2, state: "active", moving_to: null, moved_from: null });
    expect(await count(1, "articles", id)).toBe(0);
    expect(await shardDb(1).prepare("SELECT 1 FROM museums WHERE id = ?").bind(id).first()).toBeNull();
    expect(await checkMuseum(shardDb(2), id)).toEqual(original);

    // Killed after the comparison (frozen, both copies equal): rolled back, it is active where it was.
    await expect(moveMuseum(io(), id, 1, { ...FAST, stopAfter: "verified" })).rejects.toBeInstanceOf(MoveStopped);
    await rollbackMove(io(), id);
    expect(await directoryRow(id)).toMatchObject({ shard: 2, state: "active" });
    expect((await a.s.call("add_article", { pathArray: [], name: "Après l'annulation" })).status).toBe(200);

    // Killed after the switch: the new copy is the museum; a rollback is refused; resuming removes the old rows.
    await expect(moveMuseum(io(), id, 0, { ...FAST, stopAfter: "switched" })).rejects.toBeInstanceOf(MoveStopped);
    expect(await directoryRow(id)).toEqual({ shard: 0, state: "active", moving_to: null, moved_from: 2 });
    await expect(rollbackMove(io(), id)).rejects.toBeInstanceOf(MoveError);
    await expect(moveMuseum(io(), id, 1, FAST)).rejects.toThrow(/not removed yet/);
    expect(await count(2, "articles", id)).toBe(2);
    expect((await a.s.read("/api/tree")).status).toBe(200);
    expect(await finishMove(io(), id)).toBeGreaterThan(0);
    expect(await count(2, "articles", id)).toBe(0);
    expect(await count(0, "articles", id)).toBe(2);
    expect(await directoryRow(id)).toEqual({ shard: 0, state: "active", moving_to: null, moved_from: null });
  });

  it("refuses what cannot be: the shard it is on, a shard that does not exist, two moves at once", async () => {
    const a = await museumOn(1);
    const id = a.museum.museumId;
    await expect(moveMuseum(io(), id, 1, FAST)).rejects.toThrow(/already on shard 1/);
    await expect(moveMuseum(io(), id, 7, FAST)).rejects.toThrow(/no shard 7/);
    await expect(rollbackMove(io(), id)).rejects.toThrow(/not moving/);
    // Two operators move it at once, to two shards: one move wins, the other is refused; nothing is half done.
    const results = await Promise.allSettled([moveMuseum(io(), id, 0, FAST), moveMuseum(io(), id, 2, FAST)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(MoveError);
    const row = (await directoryRow(id))!;
    expect(row).toMatchObject({ state: "active", moving_to: null, moved_from: null });
    expect([0, 2]).toContain(row.shard);
    for (const k of [0, 1, 2]) expect(await count(k, "users", id)).toBe(k === row.shard ? 1 : 0);
  });
});
