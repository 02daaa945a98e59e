// `npm run bench:operator`: the operator's console with 1,000 generated museums over the three local shards (issue 33
// §2, decision 146). Each museum has a login (its member), three articles, 30 days of statistics in five languages,
// an image and a month's narration count; then an operator is enrolled through the setup link, as a person would,
// and the console page and its CSV are timed (p50 and max of 10 each). Timings are this machine's, never a threshold.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { bindingOfShard, build, createAccounts, d1ExecFile, d1Target, hashPassword, parseOptions, ROOT } from "../../scripts/lib.mjs";
import { shardBindings } from "../../scripts/shards.mjs";
import { operatorCreateSteps } from "../../scripts/operator-command.mjs";
import { percentile, startServer } from "./server.mjs";

const { base32Decode, hotp, totpStep } = await import("../../app/operator/totp.ts");
const PORT = Number(process.env.BENCH_OPERATOR_PORT || 8797);
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-operator";
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean", museums: "string" });
const MUSEUMS = Number(args.museums ?? 1000);
if (!args["no-build"]) build();

rmSync(join(ROOT, PERSIST), { recursive: true, force: true });
const target = d1Target({ persistTo: PERSIST });
const server = await startServer({ port: PORT, persistTo: PERSIST });
try {
  const shards = shardBindings().map((b) => b.shard);
  const t0 = performance.now();
  // In runs of 200: one wrangler command line each (a thousand museums' SQL is longer than a command line may be).
  const passwordHash = hashPassword("bench-operator-password");
  const placed = [];
  for (let from = 0; from < MUSEUMS; from += 200)
    placed.push(
      ...createAccounts(
        Array.from({ length: Math.min(200, MUSEUMS - from) }, (_, j) => ({
          museumSlug: `bench-op-${from + j}`,
          museumName: `Musée ${from + j}`,
          email: `bench-op-${from + j}@muselingo.test`,
          passwordHash,
          shard: shards[(from + j) % shards.length],
        })),
        target,
      ),
    );
  // Per shard, in SQL: three articles, 30 days × 5 languages × 3 articles of counters, one image, this month's narration.
  const today = Math.floor(Date.now() / 86_400_000);
  const month = new Date().toISOString().slice(0, 7);
  let rows = 0;
  for (const shard of shards) {
    const ids = placed.filter((p) => p.shard === shard).map((p) => p.museumId);
    const list = ids.join(",");
    d1ExecFile(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2)
       INSERT INTO articles (museum_id, slug, unformatted_name, content, updated_at) SELECT m.id, 'a-' || n.i, 'Article ' || n.i, '[]', 0 FROM museums m, n WHERE m.id IN (${list});
       WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 29), l(code) AS (VALUES ('fr'), ('en'), ('de'), ('es'), ('ja'))
       INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) SELECT a.museum_id, ${today} - d.i, a.id, l.code, 1 + (a.id + d.i) % 7, (a.id * d.i) % 3 FROM articles a, d, l WHERE a.museum_id IN (${list});
       INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) SELECT id, 'm/' || id || '/bench.webp', 'image', 'image/webp', 180000 FROM museums WHERE id IN (${list});
       INSERT INTO narration_spend (museum_id, month, chars) SELECT id, '${month}', id * 10 FROM museums WHERE id IN (${list});
       INSERT INTO engine_usage (museum_id, month, kind, engine, chars, calls)
         SELECT m.id, '${month}', e.kind, e.engine, m.id * e.k, m.id % 50 + 1 FROM museums m,
           (SELECT 'translation' AS kind, 'workers-ai' AS engine, 900 AS k UNION ALL SELECT 'translation', 'deepl', 300
            UNION ALL SELECT 'narration', 'workers-ai', 10 UNION ALL SELECT 'easy_read', 'workers-ai-llm', 40) e
         WHERE m.id IN (${list});`,
      target,
      bindingOfShard(shard),
    );
    rows += ids.length * (3 + 450 + 2);
  }
  console.log(`\n${MUSEUMS} museums over shards ${shards.join(", ")} (${rows} rows of figures) made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // An operator, enrolled through the setup link's form.
  const steps = operatorCreateSteps({ email: "bench-operator@muselingo.test" });
  d1ExecFile(steps.sql, target, "DIRECTORY");
  const code = await hotp(base32Decode(steps.secret), totpStep(Date.now()));
  const setup = await fetch(`${BASE}${steps.path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams({ password: "bench-operator-password", code }),
    redirect: "manual",
  });
  const cookie = /muselingo_operator=[^;]+/.exec(setup.headers.get("Set-Cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`the setup did not sign the operator in: HTTP ${setup.status}`);

  const time = async (path) => {
    const ms = [];
    let bytes = 0;
    for (let i = 0; i < 11; i++) {
      const s = performance.now();
      const response = await fetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
      if (i > 0) ms.push(performance.now() - s);
      bytes = body.length;
    }
    ms.sort((a, b) => a - b);
    return { p50: percentile(ms, 50), max: ms.at(-1), bytes };
  };
  for (const path of ["/operator", "/operator?sort=scans30&dir=desc", "/operator?q=Mus%C3%A9e%209", "/operator/museums.csv"]) {
    const t = await time(path);
    console.log(`  ${path.padEnd(36)} p50 ${t.p50.toFixed(0)} ms, max ${t.max.toFixed(0)} ms, ${(t.bytes / 1024).toFixed(0)} KB`);
  }
} finally {
  server.stop();
}
