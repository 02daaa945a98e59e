import { createExecutionContext, createMessageBatch, env, getQueueResult, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SHARD_ID_SPAN } from "~/shards/keys";
import { FIRST_MOVE_BLOCK } from "~/shards/move";
import consumer from "../../workers/stats-consumer/index";
import { BASE, createArticle, createMember, createMuseum, createTour, get, postJson, signIn } from "./helpers";
import { museumDb, shardDb } from "./builders";
import { runCron } from "./cron";

// Past one database (decision 142): the directory and three local shards. Museums planted on shards 1 and 2
// go through every kind of path (staff login and API, a visitor's scan, their files, invitations, the stats
// consumer), and never reach one another's rows by any id.

async function museumOn(shard: number) {
  const museum = await createMuseum({ shard, cleanup: true });
  const member = await createMember(museum);
  const s = await signIn(member);
  return { museum, member, s };
}

describe("museums on shards 1 and 2", () => {
  it("are found from the session cookie, the login and the scanned link; their rows live on their own shard only", async () => {
    const a = await museumOn(1);
    expect(a.s.cookie).toMatch(new RegExp(`muselingo_session=${a.museum.museumId}\\.`));
    const created = await createArticle(a.s, { elements: [{ type: "text", content: "Une amphore sur le tesson 1" }], published: true, qrcode: true });
    // Ids from the shard's own range, so a move keeps them: its first block, or a block it took to receive a moved
    // museum (decision 143; the move tests may have run in this runtime before).
    expect(created.articleId).toBeGreaterThan(SHARD_ID_SPAN);
    expect(Math.floor(created.articleId / SHARD_ID_SPAN) === 1 || created.articleId > FIRST_MOVE_BLOCK * SHARD_ID_SPAN).toBe(true);
    expect(await shardDb(1).prepare("SELECT 1 FROM articles WHERE id = ?").bind(created.articleId).first()).not.toBeNull();
    for (const k of [0, 2]) expect(await shardDb(k).prepare("SELECT 1 FROM articles WHERE id = ?").bind(created.articleId).first()).toBeNull();
    // The printed link is the directory's, for this museum.
    expect(await env.DIRECTORY.prepare("SELECT museum_id FROM links WHERE link = ?").bind(created.link).first()).toEqual({ museum_id: a.museum.museumId });

    const scan = await get(`/r/${created.link}?lang=fr`);
    expect(scan.status).toBe(200);
    expect(await scan.text()).toContain("Une amphore sur le tesson 1");
    // What the scan learnt is kept in KV for the next isolate: the link's museum and the museum's shard.
    expect(await env.KV.get(`dir:v1:link:${created.link}`)).toBe(String(a.museum.museumId));
    expect(await env.KV.get(`dir:v1:museum:${a.museum.museumId}`, "json")).toMatchObject({ id: a.museum.museumId, shard: 1, state: "active" });
    const read = await a.s.read(`/api/read/article?articleId=${created.articleId}`);
    expect(read.status).toBe(200);
  });

  it("an odd or broken code is a 404, never a 500, and is kept out of KV's keys", async () => {
    for (const link of ["%ED%A0%80", "a%2Fb", "x".repeat(600), "%F0%9F%98%80", "é t"]) {
      const response = await get(`/r/${link}`);
      expect(response.status, link).toBe(404);
    }
    const offline = await postJson("/api/visit/offline_views", {
      client: "odd-phone-0123456789",
      views: [{ path: "/t/%ED%A0%80/1", lang: "fr", at: Date.now() - 1000 }],
    });
    expect(offline.status).not.toBe(500);
  });

  it("a museum of shard 2 never reaches shard 1's rows by any id: 404 as for another museum", async () => {
    const a = await museumOn(1);
    const b = await museumOn(2);
    const article = await createArticle(a.s, { elements: [{ type: "text", content: "Privé" }], published: true, qrcode: true });
    for (const path of [`/api/read/article?articleId=${article.articleId}`, `/api/read/qrcode?qrcodeId=${article.qrcodeId}`]) {
      const response = await b.s.read(path);
      expect(response.status, path).toBe(404);
    }
    const renamed = await b.s.call("rename_article", { articleId: article.articleId, pathArray: [], newName: "Volé" });
    expect(renamed.status).toBe(404);
    expect(await museumDb(a.museum).prepare("SELECT unformatted_name AS name FROM articles WHERE id = ?").bind(article.articleId).first()).not.toEqual({
      name: "Volé",
    });
    // A forged cookie naming museum 1 with museum 2's token finds no session anywhere.
    const token = b.s.cookie.split("=")[1]!.split(".")[1];
    const forged = await get("/api/tree", `muselingo_session=${a.museum.museumId}.${token}`);
    expect(forged.status).toBe(401);
  });

  it("invites a member into a shard-2 museum; the address then belongs to it across every shard", async () => {
    const b = await museumOn(2);
    const email = `shard-invitee-${crypto.randomUUID()}@example.org`;
    const invited = await b.s.call("invite_member", { email, role: "editor" });
    expect(invited.status).toBe(200);
    const path = new URL(invited.body.invitationUrl as string).pathname;
    const joined = await postJson(path, { password: "un mot de passe assez long" });
    expect(joined.status).toBe(200);
    expect(await shardDb(2).prepare("SELECT role FROM users WHERE email = ?").bind(email).first()).toEqual({ role: "editor" });
    // Another museum, on another shard, cannot invite the same address.
    const a = await museumOn(1);
    const again = await a.s.call("invite_member", { email, role: "viewer" });
    expect(again.status).toBe(409);
    // And the new member logs in, found through the directory.
    const login = await postJson("/login", { email, password: "un mot de passe assez long" });
    expect(login.status).toBe(200);
  });

  it("50 identical joins with one invitation at once make one member, and the address stays claimed for it", async () => {
    const b = await museumOn(2);
    const email = `shard-race-${crypto.randomUUID()}@example.org`;
    const invited = await b.s.call("invite_member", { email, role: "viewer" });
    const path = new URL(invited.body.invitationUrl as string).pathname;
    const joins = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postJson(path, { password: "un mot de passe assez long" }, { "CF-Connecting-IP": `203.0.113.${i + 1}` })),
    );
    expect(joins.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of joins) expect([200, 404, 409]).toContain(r.status);
    expect(await shardDb(2).prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first()).toEqual({ n: 1 });
    expect(await env.DIRECTORY.prepare("SELECT museum_id FROM accounts WHERE email = ?").bind(email).first()).toEqual({ museum_id: b.museum.museumId });
  });

  it("50 QR codes made at once across two shards get 50 distinct links, each claimed for its own museum", async () => {
    const a = await museumOn(1);
    const b = await museumOn(2);
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).s.call("add_qrcode", {})));
    expect(made.map((m) => m.status)).toEqual(Array(50).fill(200));
    const links = made.map((m) => m.body.link as string);
    expect(new Set(links).size).toBe(50);
    const { results } = await env.DIRECTORY.prepare(`SELECT museum_id, count(*) AS n FROM links WHERE museum_id IN (?, ?) GROUP BY museum_id`)
      .bind(a.museum.museumId, b.museum.museumId)
      .all<{ museum_id: number; n: number }>();
    expect(Object.fromEntries(results.map((r) => [r.museum_id, r.n]))).toEqual({ [a.museum.museumId]: 25, [b.museum.museumId]: 25 });
  });

  it("ids of 13 digits and more work wherever an id travels as text: audit pages, XLIFF units", async () => {
    const a = await museumOn(1);
    const article = await createArticle(a.s, { elements: [{ type: "text", content: "Une amphore attique." }], published: true });
    expect(article.articleId).toBeGreaterThan(SHARD_ID_SPAN);
    // The audit log's cursor is "at:id", the id an audit entry's of the shard's range.
    const first = (await a.s.read("/api/read/audit_log?limit=1")).body as { entries: { id: number }[]; nextCursor: string | null };
    expect(first.entries[0]!.id).toBeGreaterThan(SHARD_ID_SPAN);
    expect(first.nextCursor).not.toBeNull();
    const second = await a.s.read(`/api/read/audit_log?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.status).toBe(200);
    expect((second.body as { entries: { id: number }[] }).entries[0]!.id).toBeLessThan(first.entries[0]!.id);
    // XLIFF unit ids are "a{articleId}.{segment}": exported and read back.
    const exported = await get(`/api/read/xliff?articleId=${article.articleId}&lang=de`, a.s.cookie);
    expect(exported.status).toBe(200);
    const xml = (await exported.text()).replace(
      /<source>Une amphore attique\.<\/source>(\s*<target[^>]*>[\s\S]*?<\/target>)?/,
      "<source>Une amphore attique.</source><target>Eine attische Amphore.</target>",
    );
    const form = new FormData();
    form.append("file", new File([xml], "back.xlf", { type: "application/xliff+xml" }));
    const imported = await SELF.fetch(`${BASE}/api/manage/import_xliff`, { method: "POST", body: form, headers: { Cookie: a.s.cookie } });
    const report = (await imported.json()) as { counts: Record<string, number> };
    expect(imported.status).toBe(200);
    expect(report.counts).toMatchObject({ applied: 1, error: 0 });
  });

  it("a tour of shard 2: its page, its offline copy's manifest and its offline page, which leads back to it", async () => {
    const b = await museumOn(2);
    const stop = await createArticle(b.s, { elements: [{ type: "text", content: "Première salle" }], published: true });
    const tour = await createTour(b.museum, [stop.articleId], { name: "Parcours du tesson 2" });
    expect((await get(`/t/${tour.link}`)).status).toBe(200);
    const manifest = await get(`/t/${tour.link}/offline.json?lang=fr`);
    expect(manifest.status).toBe(200);
    const offline = await get(`/offline?tour=${tour.link}&lang=fr`);
    expect(offline.status).toBe(200);
    expect(await offline.text()).toContain(`href="/t/${tour.link}"`);
  });

  it("the crons run on every shard: a publication due on shard 2 goes out; the daily run records each shard's size", async () => {
    const b = await museumOn(2);
    const created = await createArticle(b.s, { elements: [{ type: "text", content: "Publiée par le cron du tesson 2" }], qrcode: true });
    const current = (await b.s.read(`/api/read/article?articleId=${created.articleId}`)).body as { version: number };
    const scheduled = await b.s.call("publish_article", { id: created.articleId, version: current.version, at: new Date(Date.now() + 120_000).toISOString() });
    expect(scheduled.status).toBe(200);
    // Made due by moving the schedule into the past, as a minute passing would.
    await shardDb(2)
      .prepare("UPDATE articles SET publish_at = ? WHERE id = ?")
      .bind(Date.now() - 1_000, created.articleId)
      .run();
    expect((await get(`/r/${created.link}`)).status).toBe(404);
    await runCron("* * * * *");
    const page = await get(`/r/${created.link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Publiée par le cron du tesson 2");

    const before = Date.now();
    await runCron("30 3 * * *");
    const { results } = await env.DIRECTORY.prepare("SELECT shard, bytes, measured_at FROM shards ORDER BY shard").all<{
      shard: number;
      bytes: number;
      measured_at: number;
    }>();
    expect(results.map((r) => r.shard)).toEqual([0, 1, 2]);
    for (const r of results) {
      expect(r.bytes).toBeGreaterThan(0);
      expect(r.measured_at).toBeGreaterThanOrEqual(before);
    }
  });

  it("the stats consumer writes each shard's events to that shard, in one batch per shard", async () => {
    const a = await museumOn(1);
    const b = await museumOn(2);
    const event = (museumId: number) => ({ id: crypto.randomUUID(), type: "scan", museumId, articleId: 1, qrcodeId: 1, lang: "en", at: Date.now() });
    const batch = createMessageBatch("muselingo-scans", [
      ...[a, a, b].map((m, i) => ({ id: `shard-${i}-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body: event(m.museum.museumId) })),
    ]);
    const ctx = createExecutionContext();
    await consumer.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toHaveLength(3);
    const scans = async (k: number, museumId: number) =>
      (await shardDb(k).prepare("SELECT coalesce(sum(scans), 0) AS n FROM daily_stats WHERE museum_id = ?").bind(museumId).first<{ n: number }>())!.n;
    expect(await scans(1, a.museum.museumId)).toBe(2);
    expect(await scans(2, b.museum.museumId)).toBe(1);
    expect(await scans(0, a.museum.museumId)).toBe(0);
  });
});
