// `npm run bench` (second part): the statistics pipeline on this machine.
// 1. Consumer throughput: 11,000 deliveries in batches of 100 (1,000 duplicates, 1,000 reloads of a
//    visitor already counted, decision 032), through the
//    consumer's own code (app/queue/scan-stats.server.ts, bundled by esbuild) against a local D1 reached
//    through wrangler's getPlatformProxy: the same SQL, the same batches, the same on-disk SQLite as
//    `wrangler dev`. The local queue cannot be fed 10,000 messages from outside the Worker, and it adds
//    its own one-second batching; this measures what the consumer does with a batch. Counts are checked
//    exactly against what was sent.
// 2. Stats API latency over one year of counters for 200 articles and 60 languages, through a local
//    `wrangler dev` on the same state (target: under 50 ms for the page's 10 days).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import { getPlatformProxy } from "wrangler";
import { build, d1Target, DEMO, parseOptions, prepareLocalDatabase, quietEnv, ROOT } from "../../scripts/lib.mjs";
import { percentile, startServer, logIn } from "./server.mjs";

const PORT = 8797;
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-stats";
const DAY = 86_400_000;
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean" });

if (!args["no-build"]) build();
rmSync(join(ROOT, PERSIST), { recursive: true, force: true });
await prepareLocalDatabase(d1Target({ persistTo: PERSIST }));

const bundleDir = mkdtempSync(join(tmpdir(), "muselingo-bench-"));
await esbuild({
  entryPoints: [join(ROOT, "app/queue/scan-stats.server.ts")],
  bundle: true,
  format: "esm",
  platform: "neutral",
  outfile: join(bundleDir, "scan-stats.mjs"),
  logLevel: "error",
});
const { consumeScanBatch } = await import(pathToFileURL(join(bundleDir, "scan-stats.mjs")).href);

Object.assign(process.env, quietEnv);
const proxy = await getPlatformProxy({
  configPath: join(ROOT, "workers/stats-consumer/wrangler.toml"),
  persist: { path: join(ROOT, PERSIST, "v3") },
});
const db = proxy.env.DB;

const LANGS = [
  "fr",
  "en",
  "de",
  "es",
  "it",
  "pt",
  "nl",
  "pl",
  "ru",
  "uk",
  "ar",
  "he",
  "fa",
  "tr",
  "el",
  "ja",
  "ko",
  "zh-Hans",
  "zh-Hant",
  "hi",
  "bn",
  "ur",
  "ta",
  "te",
  "th",
  "vi",
  "id",
  "ms",
  "sw",
  "am",
  "yo",
  "ha",
  "ig",
  "zu",
  "af",
  "sv",
  "no",
  "da",
  "fi",
  "et",
  "lv",
  "lt",
  "cs",
  "sk",
  "hu",
  "ro",
  "bg",
  "sr",
  "hr",
  "sl",
  "sq",
  "mk",
  "ka",
  "hy",
  "az",
  "kk",
  "uz",
  "mn",
  "ne",
  "si",
];
const ARTICLES = 200;

let proxyDisposed = false;
let server;
try {
  const museum = await db.prepare("SELECT id FROM museums WHERE slug = ?").bind(DEMO.museumSlug).first();
  const museumId = museum.id;
  // The bench's own disposable state starts with the demo seed's synthetic statistics: counts start from zero.
  await db.batch([
    db.prepare("DELETE FROM daily_stats WHERE museum_id = ?").bind(museumId),
    db.prepare("DELETE FROM scan_events WHERE museum_id = ?").bind(museumId),
    db.prepare("DELETE FROM scan_visits"),
  ]);

  // 1. Consumer throughput.
  const now = Date.now();
  const unique = Array.from({ length: 9_000 }, (_, i) => ({
    id: crypto.randomUUID(),
    type: i % 4 === 0 ? "view" : "scan",
    museumId,
    articleId: 1 + (i % ARTICLES),
    qrcodeId: i % 4 === 0 ? null : 1 + (i % 50),
    lang: LANGS[(i * 7) % LANGS.length],
    at: now - (i % 7) * DAY - (i % 1000) * 1000,
    // Nine in ten carry a visitor fingerprint, one per event (decision 032); the rest are the old format.
    ...(i % 10 === 0 ? {} : { fingerprint: i.toString(16).padStart(64, "0") }),
  }));
  // 1,000 reloads: the same visitor, article and kind a minute later, a new event id each: never counted.
  const reloads = unique
    .filter((e) => e.fingerprint)
    .filter((_, k) => k % 8 === 0)
    .slice(0, 1_000)
    .map((e) => ({ ...e, id: crypto.randomUUID(), at: e.at + 60_000 }));
  const deliveries = [...unique, ...reloads, ...Array.from({ length: 1_000 }, (_, i) => unique[(i * 37) % unique.length])];
  deliveries.sort(() => Math.random() - 0.5);
  let acked = 0;
  let retried = 0;
  const message = (body, i) => ({ id: `bench-${i}`, body, attempts: 1, ack: () => acked++, retry: () => retried++ });
  const t0 = performance.now();
  for (let i = 0; i < deliveries.length; i += 100) {
    await consumeScanBatch(
      deliveries.slice(i, i + 100).map((body, j) => message(body, i + j)),
      db,
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  const sums = await db
    .prepare(
      "SELECT SUM(scans) AS scans, SUM(views) AS views, (SELECT COUNT(*) FROM scan_events WHERE museum_id = ?1) AS events FROM daily_stats WHERE museum_id = ?1",
    )
    .bind(museumId)
    .first();
  const expectedScans = unique.filter((e) => e.type === "scan").length;
  const rawEvents = unique.length + reloads.length;
  const exact = sums.scans === expectedScans && sums.views === unique.length - expectedScans && sums.events === rawEvents && acked === deliveries.length;
  console.log("\nStats consumer (its code on a local D1 through getPlatformProxy):");
  console.log(
    `  ${deliveries.length} deliveries (${unique.length} events, 90 % with a visitor fingerprint, + 1,000 reloads + 1,000 duplicates) in batches of 100: ${seconds.toFixed(2)} s, ${Math.round(deliveries.length / seconds)} messages/s`,
  );
  console.log(
    `  counted scans ${sums.scans}/${expectedScans}, views ${sums.views}/${unique.length - expectedScans}, raw events ${sums.events}/${rawEvents}, acked ${acked}, retried ${retried}: ${exact ? "exact" : "WRONG"}`,
  );
  // Everything delivered again: nothing may change.
  for (let i = 0; i < deliveries.length; i += 100)
    await consumeScanBatch(
      deliveries.slice(i, i + 100).map((body, j) => message(body, i + j)),
      db,
    );
  const again = await db.prepare("SELECT SUM(scans) AS scans, SUM(views) AS views FROM daily_stats WHERE museum_id = ?1").bind(museumId).first();
  console.log(
    `  all ${deliveries.length} delivered a second time: scans ${again.scans}, views ${again.views} (${again.scans === sums.scans && again.views === sums.views ? "unchanged" : "CHANGED"})`,
  );
  if (!exact || again.scans !== sums.scans) process.exitCode = 1;

  // 2. One year of counters: 200 articles, each day read in 8 of the 60 languages (584,000 rows).
  await db.prepare("DELETE FROM daily_stats WHERE museum_id = ?").bind(museumId).run();
  await db
    .prepare(
      `INSERT INTO articles (museum_id, slug, unformatted_name, content, updated_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       SELECT ?1, 'bench-article-' || i, 'Article ' || i, '[]', 0 FROM n`,
    )
    .bind(museumId, ARTICLES)
    .run();
  const ids = (await db.prepare("SELECT id FROM articles WHERE museum_id = ? ORDER BY id").bind(museumId).all()).results.map((r) => r.id);
  const langList = LANGS.map((l) => `'${l}'`).join(",");
  const t1 = performance.now();
  for (let from = 0; from < 365; from += 30) {
    await db
      .prepare(
        `INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views)
         WITH RECURSIVE d(k) AS (SELECT ?2 UNION ALL SELECT k + 1 FROM d WHERE k < ?3),
           a(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM a WHERE i < ?5 - 1),
           s(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM s WHERE j < 7),
           l(pos, code) AS (SELECT key, value FROM json_each(?6))
         SELECT ?1, date(?4, '-' || k || ' days'), ?7 + i, code, 1 + (k + i + j) % 9, (k * i + j) % 4
         FROM d, a, s JOIN l ON l.pos = (k * 7 + i * 13 + j * 7) % 60`,
      )
      .bind(museumId, from, Math.min(from + 29, 364), new Date().toISOString().slice(0, 10), ARTICLES, `[${langList}]`, ids[0])
      .run();
  }
  const rows = await db.prepare("SELECT COUNT(*) AS n FROM daily_stats WHERE museum_id = ?").bind(museumId).first();
  console.log(
    `\nSeeded ${rows.n} daily_stats rows (365 days × ${ARTICLES} articles × 8 of ${LANGS.length} languages) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
  );
  await proxy.dispose();
  proxyDisposed = true;

  // The API, through wrangler dev on the same state.
  server = await startServer({ port: PORT, persistTo: PERSIST });
  const cookie = await logIn(BASE, { email: DEMO.email, password: DEMO.password }, "10.255.2.1");
  const measure = async (label, path, count = 30) => {
    for (let i = 0; i < 3; i++) await (await fetch(`${BASE}${path}`, { headers: { Cookie: cookie } })).arrayBuffer();
    const times = [];
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      const response = await fetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
      bytes = (await response.arrayBuffer()).byteLength;
      if (!response.ok) throw new Error(`${label}: HTTP ${response.status}`);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(
      `  ${label.padEnd(40)} n=${count}  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms  ${(bytes / 1024).toFixed(1)} KiB`,
    );
  };
  console.log("\nStats API on one year of counters, local wrangler dev, sequential requests:");
  for (const days of [10, 90, 365]) {
    await measure(`scans-per-article?days=${days}`, `/api/stats/scans-per-article?days=${days}`);
    await measure(`scans-per-language?days=${days}`, `/api/stats/scans-per-language?days=${days}`);
    await measure(`languages-per-article?days=${days}`, `/api/stats/languages-per-article?articleId=${ids[42]}&days=${days}`);
  }
  await measure("scans-per-article?days=365&format=csv", "/api/stats/scans-per-article?days=365&format=csv", 10);
  await measure("GET /stats (HTML, 10 days)", "/stats");
  await measure("GET /dashboard (HTML)", "/dashboard");
} finally {
  if (!proxyDisposed) await proxy.dispose();
  server?.stop();
  rmSync(bundleDir, { recursive: true, force: true });
}
