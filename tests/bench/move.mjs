// `npm run bench:move`: the time to move one full-size museum between shards (issue 32 §5, decision 143).
// Generates the museum `npm run bench:size` measures (default 300 articles × 40 languages, a year of statistics;
// its options pass through: --articles --langs --days …) into a throwaway local state, records it in the directory
// on shard 0, then runs `npm run museum:move` to shard 1 on that state, as an operator would (without the wait for
// other isolates, which no running app needs here). Prints the whole move's time and how long staff writes waited.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, d1Target, quietEnv, withLocalD1 } from "../../scripts/lib.mjs";

const passThrough = process.argv.slice(2);
const started = Date.now();
const generated = spawnSync(process.execPath, [join(ROOT, "tests/bench/d1-size.mjs"), "--keep", "--consumer-events", "0", ...passThrough], {
  cwd: ROOT,
  env: quietEnv,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
const kept = /kept (.+)$/m.exec(generated.stderr ?? "")?.[1];
if (generated.status !== 0 || !kept) {
  console.error(generated.stdout, generated.stderr);
  throw new Error("bench:move: the museum could not be generated");
}
const generatedIn = (Date.now() - started) / 1000;
const persist = join(kept, "state");
try {
  const target = d1Target({ persistTo: persist });
  const { slug, rows } = await withLocalD1(target, async (env) => {
    const museum = await env.DB.prepare("SELECT id, slug FROM museums").first();
    await env.DIRECTORY.prepare("INSERT INTO museums (id, slug, shard) VALUES (?1, ?2, 0) ON CONFLICT (id) DO NOTHING").bind(museum.id, museum.slug).run();
    const counted = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM translation_memory) + (SELECT count(*) FROM daily_stats) + (SELECT count(*) FROM scan_events) + (SELECT count(*) FROM articles) AS n",
    ).first("n");
    return { slug: museum.slug, rows: counted };
  });
  const move = spawnSync(
    process.execPath,
    [
      join(ROOT, "scripts/museum-move.mjs"),
      "--museum",
      slug,
      "--to",
      "1",
      "--persist-to",
      persist,
      "--propagation-seconds",
      "0",
      "--no-app",
      "--cleanup-after-seconds",
      "0",
    ],
    { cwd: ROOT, env: quietEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  const summary = /Moved museum .+ in ([\d.]+) s; staff writes waited ([\d.]+) s\./.exec(move.stdout ?? "");
  if (move.status !== 0 || !summary) {
    console.error(move.stdout, move.stderr);
    throw new Error("bench:move: the move failed");
  }
  console.log(`bench:move — one generated museum (${passThrough.join(" ") || "bench:size's defaults"}), generated in ${generatedIn.toFixed(0)} s`);
  console.log(`  ${rows} rows in its four largest tables; moved shard 0 → 1 in ${summary[1]} s; staff writes waited ${summary[2]} s`);
  console.log(
    move.stdout
      .split("\n")
      .filter((line) => /^(live copy|copy under freeze|removed)/.test(line))
      .map((line) => `  ${line}`)
      .join("\n"),
  );
} finally {
  rmSync(kept, { recursive: true, force: true });
}
