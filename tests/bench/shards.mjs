// `npm run bench` (part): museums over the shards (issue 32 §5, decision 142). 300 generated museums, spread over
// the three local shards as the e2e pool spreads them, each with a login and a published article behind a QR code;
// then, shard by shard: a staff read's p50 (`GET /api/tree`), a first view's p50 (each museum's code scanned once,
// in the museum's own language: no engine), a second view's p50 and what it reads (Server-Timing: a second view
// right after the first may read D1 once, while that first view's narration is being made and published), and the
// throughput of views spread over the shard's 100 museums by 8 clients. Compare the shards with one another, and with `visitor.mjs` / `run.mjs` for the
// figures of one database: timings are this machine's, never a threshold.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build, createAccounts, d1Target, hashPassword, parseOptions, ROOT } from "../../scripts/lib.mjs";
import { shardBindings } from "../../scripts/shards.mjs";
import { percentile, startServer, logIn } from "./server.mjs";

const PORT = Number(process.env.BENCH_SHARDS_PORT || 8796);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-shards";
const MUSEUMS = 300;
const PASSWORD = "bench-shards-password";
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean" });
if (!args["no-build"]) build();

rmSync(join(ROOT, PERSIST), { recursive: true, force: true });
const target = d1Target({ persistTo: PERSIST });
const server = await startServer({ port: PORT, persistTo: PERSIST });
try {
  // The museums and their logins, as the operator's script makes them (the directory, then each shard).
  const shards = shardBindings().map((b) => b.shard);
  const passwordHash = hashPassword(PASSWORD);
  const t0 = performance.now();
  const placed = createAccounts(
    Array.from({ length: MUSEUMS }, (_, i) => ({
      museumSlug: `bench-${i}`,
      museumName: `Musée ${i}`,
      email: `bench-${i}@muselingo.test`,
      passwordHash,
      shard: shards[i % shards.length],
    })),
    target,
  );
  console.log(`\n${MUSEUMS} museums over shards ${shards.join(", ")} made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Each museum: a login, an article published with a QR code, through the API.
  const t1 = performance.now();
  const museums = [];
  for (const m of placed) {
    const cookie = await logIn(BASE, { email: m.email, password: PASSWORD }, `10.253.${m.museumId % 250}.${(m.museumId >> 8) % 250}`);
    const call = async (name, body) => {
      const r = await fetch(`${BASE}/api/manage/${name}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify(body),
      });
      if (r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const added = await call("add_article", { pathArray: [] });
    const read = await (await fetch(`${BASE}/api/read/article?articleId=${added.id}`, { headers: { Cookie: cookie } })).json();
    const texts = Array.from({ length: 5 }, (_, i) => ({ type: "text", content: `Paragraphe ${i + 1} du musée ${m.museumId}.` }));
    const saved = await call("update_article", { articleId: added.id, version: read.version, newContent: [read.content[0], ...texts] });
    await call("publish_article", { id: added.id, version: saved.version });
    const code = await call("add_qrcode", {});
    await call("update_qrcode", { qrcodeId: code.id, articleId: added.id });
    museums.push({ ...m, cookie, link: code.link });
  }
  console.log(`their logins and published articles in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

  const timed = async (url, headers = {}) => {
    const t = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    return { ms: performance.now() - t, timing: r.headers.get("Server-Timing") ?? "" };
  };
  const d1Of = (timing) => Number(/d1;dur=[\d.]+;desc="(\d+)"/.exec(timing)?.[1] ?? 0);
  const fr = { "Accept-Language": "fr", "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Bench" };

  // Each phase takes the shards in turn, request by request, so what runs in the background (every first view
  // starts its narration with the offline speech engine, as under `npm start`) weighs on each shard alike.
  const byShard = new Map(shards.map((k) => [k, museums.filter((m) => m.shard === k)]));
  const figures = new Map(shards.map((k) => [k, { staff: [], first: [], cached: [], d1: 0, served: 0 }]));
  const rounds = Math.max(...[...byShard.values()].map((own) => own.length));
  for (let i = 0; i < 30; i++)
    for (const k of shards) figures.get(k).staff.push((await timed(`${BASE}/api/tree`, { Cookie: byShard.get(k)[i % byShard.get(k).length].cookie })).ms);
  for (let i = 0; i < rounds; i++)
    for (const k of shards) if (byShard.get(k)[i]) figures.get(k).first.push((await timed(`${BASE}/r/${byShard.get(k)[i].link}`, fr)).ms);
  for (let i = 0; i < rounds; i++)
    for (const k of shards) {
      const m = byShard.get(k)[i];
      if (!m) continue;
      const view = await timed(`${BASE}/r/${m.link}`, fr);
      figures.get(k).cached.push(view.ms);
      figures.get(k).d1 += d1Of(view.timing);
    }
  // Throughput: 8 clients for 3 s a shard, twice in turn, each request a museum of that shard (cached views).
  for (let turn = 0; turn < 2; turn++)
    for (const k of shards) {
      const own = byShard.get(k);
      const until = performance.now() + 3_000;
      await Promise.all(
        Array.from({ length: 8 }, async (_, c) => {
          for (let i = c; performance.now() < until; i += 8) {
            const r = await fetch(`${BASE}/r/${own[i % own.length].link}`, { headers: fr });
            await r.arrayBuffer();
            figures.get(k).served += 1;
          }
        }),
      );
    }
  console.log("\nShard by shard (sequential requests taken in turns; 8 clients for the throughput, 2 × 3 s a shard):");
  for (const k of shards) {
    const f = figures.get(k);
    for (const list of [f.staff, f.first, f.cached]) list.sort((a, b) => a - b);
    console.log(
      `  shard ${k} (${byShard.get(k).length} museums): staff GET /api/tree p50 ${percentile(f.staff, 50).toFixed(1)} ms; ` +
        `first view p50 ${percentile(f.first, 50).toFixed(1)} ms (p95 ${percentile(f.first, 95).toFixed(1)}); ` +
        `second view p50 ${percentile(f.cached, 50).toFixed(1)} ms, D1 ${(f.d1 / f.cached.length).toFixed(2)} queries per view; ` +
        `${(f.served / 6).toFixed(0)} cached views/s`,
    );
  }
} finally {
  server.stop();
}
