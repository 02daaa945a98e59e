// `npm run deploy`: one command to production (docs/operations.md, decision 038). Every run:
//   1. refuses a configuration that would not translate for real (pseudo, or an engine without its key),
//      unless told otherwise (--allow-pseudo, --allow-missing-engine-settings);
//   2. looks up what already exists on the account (D1, KV, R2, the four queues, the Worker's secrets), all at
//      once, reading wrangler's JSON (`--json`, and the ND-JSON events of WRANGLER_OUTPUT_FILE_PATH);
//   3. creates only what is missing, writing each new id into the wrangler.toml files at once (each file
//      replaced whole, so it is always either the old or the new one);
//   4. builds, applies the remote migrations, deploys both Workers (SESSION_SECRET, random, goes with the
//      first upload), and prints the address and the next step.
// A failed step stops the run with its name; running again continues from what exists.
// `npm run deploy -- --dry-run` stops after step 2 and prints what would be created and deployed.
// Needs `wrangler login` once, or CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, parseOptions } from "./lib.mjs";
import { euShardsProblem, r2Buckets, shardSeedSql } from "./shards.mjs";
import {
  APP_TOML,
  CONSUMER_TOML,
  NAMES,
  SCAN_QUEUE_RETENTION_SECONDS,
  StepError,
  engineProblems,
  readEngines,
  readIds,
  replaceInFile,
  wranglerJson,
} from "./deploy/lib.mjs";

const { values: args } = parseOptions(process.argv.slice(2), {
  "dry-run": "boolean",
  "allow-pseudo": "boolean",
  "allow-offline-speech": "boolean",
  "allow-missing-engine-settings": "boolean",
  "no-build": "boolean",
});
const dryRun = Boolean(args["dry-run"]);
const work = mkdtempSync(join(tmpdir(), "muselingo-deploy-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

let current = "";

/**
 * Writes an id into the wrangler files as soon as it is known (and corrects one that differs from the
 * account's), so a run stopped later leaves files that name only resources that exist.
 */
function syncIds({ d1, kv }) {
  const ids = readIds();
  if (d1) {
    const known = ids.databases.find((b) => b.binding === d1.binding);
    if (known && (known.database_id !== d1.uuid || known.consumerId !== d1.uuid)) {
      replaceInFile(APP_TOML, [[known.database_id, d1.uuid]]);
      replaceInFile(CONSUMER_TOML, [[known.consumerId, d1.uuid]]);
      console.log(`  wrote the D1 id ${d1.uuid} (${d1.binding}) into wrangler.toml and workers/stats-consumer/wrangler.toml (commit both)`);
    }
  }
  if (kv && ids.kv !== kv) {
    replaceInFile(APP_TOML, [[ids.kv, kv]]);
    console.log(`  wrote the KV id ${kv} into wrangler.toml (commit it)`);
  }
}
function step(title) {
  current = title;
  console.log(`\n▶ ${title}`);
}

/** Runs wrangler; a failure becomes a StepError naming the current step and wrangler's own message. */
async function must(args, options = {}) {
  const result = await wranglerJson(args, { work, ...options });
  if (!result.ok) throw new StepError(current, result);
  return result;
}

async function main() {
  // 1. Translation engines: decided from wrangler.toml before anything reaches the network.
  step("Checking the translation engines");
  const engines = readEngines(readFileSync(APP_TOML, "utf8"));
  if (engines.list.includes("pseudo") && !args["allow-pseudo"]) {
    console.error(
      `wrangler.toml sets TRANSLATION_ENGINES = "${engines.list.join(",")}": "pseudo" shows visitors fake translations ("[de] Bóñjóúr").\n` +
        `Set real engines, e.g. TRANSLATION_ENGINES = "workers-ai,workers-ai-llm" (docs/translation-engines.md),\n` +
        "or deploy it anyway with: npm run deploy -- --allow-pseudo",
    );
    return 2;
  }
  console.log(`  TRANSLATION_ENGINES = ${engines.list.join(", ")}`);
  if (engines.speech.includes("offline") && !args["allow-offline-speech"]) {
    console.error(
      `wrangler.toml sets SPEECH_ENGINES = "${engines.speech.join(",")}": "offline" reads with the local eSpeak service that only npm start and the tests run, so a deployed Worker has none and every narration would fail (decision 102).\n` +
        'Set real engines, e.g. SPEECH_ENGINES = "workers-ai" (docs/operations.md), or deploy it anyway with: npm run deploy -- --allow-offline-speech',
    );
    return 2;
  }
  console.log(`  SPEECH_ENGINES = ${engines.speech.join(", ") || "(none: read-aloud only)"}`);

  // 2. What exists, all lookups at once (each wrangler start costs seconds).
  step("Looking up the Cloudflare account's resources");
  const [d1, kv, r2, scans, dlq, narrations, narrationDlq, moves, moveDlq, secrets] = await Promise.all([
    wranglerJson(["d1", "list", "--json"], { work }),
    wranglerJson(["kv", "namespace", "list"], { work }),
    // Each bucket of wrangler.toml in its own jurisdiction (decision 144): `--jurisdiction eu` is a bucket of the
    // same name in another namespace (the API's `cf-r2-jurisdiction` header).
    Promise.all(
      r2Buckets(APP_TOML).map((b) =>
        wranglerJson(["r2", "bucket", "info", b.bucket_name, "--json", ...(b.jurisdiction ? ["--jurisdiction", b.jurisdiction] : [])], { work }),
      ),
    ),
    wranglerJson(["queues", "info", NAMES.queue], { work }),
    wranglerJson(["queues", "info", NAMES.dlq], { work }),
    wranglerJson(["queues", "info", NAMES.narrationQueue], { work }),
    wranglerJson(["queues", "info", NAMES.narrationDlq], { work }),
    wranglerJson(["queues", "info", NAMES.moveQueue], { work }),
    wranglerJson(["queues", "info", NAMES.moveDlq], { work }),
    wranglerJson(["secret", "list", "--format", "json"], { work }),
  ]);
  if (!d1.ok) {
    if (d1.notLoggedIn) {
      console.error(
        "Not logged in to Cloudflare. Run `npx wrangler login` once (or set CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID), then `npm run deploy` again.",
      );
      return 1;
    }
    throw new StepError(current, d1);
  }
  if (!kv.ok) throw new StepError(current, kv);
  const exists = (result, missing) => {
    if (result.ok) return true;
    if (missing(result)) return false;
    throw new StepError(current, result);
  };
  // The directory and every shard (decision 142), each found by its name.
  const databases = readIds().databases.map((b) => ({ ...b, found: d1.json.find((db) => db.name === b.database_name) ?? null }));
  const namespace = kv.json.find((ns) => ns.title === NAMES.kvTitle) ?? null;
  const have = {
    namespace,
    buckets: r2Buckets(APP_TOML).map((b, i) => ({ ...b, present: exists(r2[i], (r) => r.code === 10006) })),
    queue: exists(scans, (r) => r.code === undefined && /does not exist/.test(r.message)),
    dlq: exists(dlq, (r) => r.code === undefined && /does not exist/.test(r.message)),
    narrationQueue: exists(narrations, (r) => r.code === undefined && /does not exist/.test(r.message)),
    narrationDlq: exists(narrationDlq, (r) => r.code === undefined && /does not exist/.test(r.message)),
    moveQueue: exists(moves, (r) => r.code === undefined && /does not exist/.test(r.message)),
    moveDlq: exists(moveDlq, (r) => r.code === undefined && /does not exist/.test(r.message)),
  };
  // A Worker not deployed yet has no secrets (wrangler: 'Worker "…" not found.', API error 10007).
  const secretNames = exists(secrets, (r) => r.code === 10007 || (r.code === undefined && /not found/.test(r.message))) ? secrets.json.map((s) => s.name) : [];

  // The Worker learns which shards are in the EU from [vars] EU_SHARDS, which must say what d1_databases say (decision 149).
  const euProblem = euShardsProblem(APP_TOML);
  if (euProblem) {
    console.error(`wrangler.toml: ${euProblem}`);
    return 2;
  }
  const problems = engineProblems(engines, secretNames);
  if (problems.length > 0) {
    console.error(
      `These engines lack what they need:\n${problems.map((p) => `  - ${p}`).join("\n")}\n` +
        "Set each key with `npx wrangler secret put NAME` (a URL or model name may go in [vars]),\n" +
        "or deploy anyway with: npm run deploy -- --allow-missing-engine-settings",
    );
    if (!args["allow-missing-engine-settings"]) return 2;
  }

  const toCreate = [
    ...databases.filter((b) => !b.found).map((b) => `D1 database ${b.database_name}${b.jurisdiction ? ` (jurisdiction ${b.jurisdiction})` : ""}`),
    !have.namespace && `KV namespace ${NAMES.kvTitle}`,
    ...have.buckets.filter((b) => !b.present).map((b) => `R2 bucket ${b.bucket_name}${b.jurisdiction ? ` (jurisdiction ${b.jurisdiction})` : ""}`),
    !have.queue && `queue ${NAMES.queue}`,
    !have.dlq && `queue ${NAMES.dlq} (dead letters)`,
    !have.narrationQueue && `queue ${NAMES.narrationQueue}`,
    !have.narrationDlq && `queue ${NAMES.narrationDlq} (dead letters)`,
    !have.moveQueue && `queue ${NAMES.moveQueue}`,
    !have.moveDlq && `queue ${NAMES.moveDlq} (dead letters)`,
  ].filter(Boolean);
  const setSecret = !secretNames.includes("SESSION_SECRET");

  if (dryRun) {
    step("Dry run: what `npm run deploy` would do");
    console.log(toCreate.length ? `  create: ${toCreate.join("; ")}` : "  create: nothing, every resource exists");
    const ids = readIds();
    for (const b of databases)
      if (b.found && b.database_id !== b.found.uuid) console.log(`  write the D1 id ${b.found.uuid} (${b.binding}) into both wrangler.toml files`);
    if (have.namespace && ids.kv !== have.namespace.id) console.log(`  write the KV id ${have.namespace.id} into wrangler.toml`);
    console.log(setSecret ? "  set SESSION_SECRET (random, with the first upload)" : "  keep SESSION_SECRET (already set)");
    const pendings = await Promise.all(
      databases.map(async (b) => {
        const files = readIds.migrations(b.migrations_dir);
        if (!b.found) return files.map((f) => `${b.binding}/${f}`);
        const applied = await wranglerJson(
          ["d1", "execute", b.database_name, "--remote", "--json", "--command", "SELECT name FROM d1_migrations ORDER BY id"],
          { work },
        );
        const names = applied.ok ? (applied.json[0]?.results ?? []).map((row) => row.name) : [];
        return files.filter((file) => !names.includes(file)).map((f) => `${b.binding}/${f}`);
      }),
    );
    const pending = pendings.flat();
    console.log(`  apply migrations: ${pending.length ? pending.join(", ") : "none pending"}`);
    console.log(
      `  build, then deploy ${NAMES.app} (D1, KV, R2, queue producers, narration and move queue consumers, AI, assets, cron) and ${NAMES.consumer} (D1, queue consumer, cron)`,
    );
    console.log("\nDry run: nothing was created or deployed.");
    return 0;
  }

  // 3. Create what is missing; each id goes into the wrangler files as soon as it is known.
  for (const b of databases) {
    if (!b.found) {
      step(`Creating the D1 database ${b.database_name}${b.jurisdiction ? ` in the ${b.jurisdiction.toUpperCase()} jurisdiction` : ""}`);
      await must(["d1", "create", b.database_name, ...(b.jurisdiction ? ["--jurisdiction", b.jurisdiction] : [])]);
      const listed = await must(["d1", "list", "--json"]);
      b.found = listed.json.find((db) => db.name === b.database_name);
      if (!b.found) throw new StepError(current, { message: `the new database ${b.database_name} is not in \`wrangler d1 list\`` });
    }
    syncIds({ d1: { binding: b.binding, uuid: b.found.uuid } });
  }
  if (!have.namespace) {
    step(`Creating the KV namespace ${NAMES.kvTitle}`);
    await must(["kv", "namespace", "create", NAMES.kvTitle]);
    const listed = await must(["kv", "namespace", "list"]);
    have.namespace = listed.json.find((ns) => ns.title === NAMES.kvTitle);
    if (!have.namespace) throw new StepError(current, { message: "the new namespace is not in `wrangler kv namespace list`" });
  }
  syncIds({ kv: have.namespace.id });
  for (const [present, title, cmd] of [
    ...have.buckets.map((b) => [
      b.present,
      `Creating the R2 bucket ${b.bucket_name}${b.jurisdiction ? ` in the ${b.jurisdiction.toUpperCase()} jurisdiction` : ""}`,
      ["r2", "bucket", "create", b.bucket_name, ...(b.jurisdiction ? ["--jurisdiction", b.jurisdiction] : [])],
    ]),
    [
      have.queue,
      `Creating the queue ${NAMES.queue}`,
      ["queues", "create", NAMES.queue, "--message-retention-period-secs", String(SCAN_QUEUE_RETENTION_SECONDS)],
    ],
    [have.dlq, `Creating the dead-letter queue ${NAMES.dlq}`, ["queues", "create", NAMES.dlq]],
    [have.narrationQueue, `Creating the queue ${NAMES.narrationQueue}`, ["queues", "create", NAMES.narrationQueue]],
    [have.narrationDlq, `Creating the dead-letter queue ${NAMES.narrationDlq}`, ["queues", "create", NAMES.narrationDlq]],
    [have.moveQueue, `Creating the queue ${NAMES.moveQueue}`, ["queues", "create", NAMES.moveQueue]],
    [have.moveDlq, `Creating the dead-letter queue ${NAMES.moveDlq}`, ["queues", "create", NAMES.moveDlq]],
  ]) {
    if (present) continue;
    step(title);
    await must(cmd);
  }
  if (toCreate.length === 0) console.log("\nEvery resource exists: nothing to create.");

  // 4. Build, migrate, deploy.
  if (!args["no-build"]) {
    step("Building");
    build();
  }
  // The directory and every shard, one after the other; each shard's ids then start in its own range.
  for (const b of databases) {
    step(`Applying the migrations to the remote D1 ${b.database_name} (${b.binding})`);
    const migrated = await must(["d1", "migrations", "apply", b.database_name, "--remote"]);
    // For the reader only (what happened is in the exit status): wrangler's first table lists the files.
    const files = [...new Set(migrated.stdout.match(/\b\d{4}_[\w-]+\.sql\b/g) ?? [])];
    console.log(files.length ? `  applied ${files.length}: ${files.join(", ")}` : "  none pending");
    if (b.shard) await must(["d1", "execute", b.database_name, "--remote", "--command", shardSeedSql(b.shard)]);
  }

  // Both Workers at once (each upload takes seconds); a failure names the one that failed.
  step(`Deploying the Workers ${NAMES.app} and ${NAMES.consumer}`);
  const deployArgs = ["deploy"];
  if (setSecret) {
    // With the upload itself, so the Worker never runs without it; other secrets are kept.
    const file = join(work, "secrets.json");
    writeFileSync(file, JSON.stringify({ SESSION_SECRET: randomBytes(36).toString("base64url") }), { mode: 0o600 });
    deployArgs.push("--secrets-file", file);
    console.log("  with a new random SESSION_SECRET");
  }
  const [app, consumer] = await Promise.all([
    wranglerJson(deployArgs, { work }),
    wranglerJson(["deploy", "-c", "workers/stats-consumer/wrangler.toml"], { work }),
  ]);
  if (!app.ok) throw new StepError(`Deploying the app Worker ${NAMES.app}`, app);
  if (!consumer.ok) throw new StepError(`Deploying the statistics consumer Worker ${NAMES.consumer}`, consumer);
  const appEvent = app.events.find((e) => e.type === "deploy");
  const address = appEvent?.targets?.find((t) => t.startsWith("https://")) ?? appEvent?.targets?.[0];
  console.log(`\n✔ Deployed ${NAMES.app} (version ${appEvent?.version_id ?? "?"}) and ${NAMES.consumer}.`);
  console.log(`  Address: ${address ?? "(no workers.dev address: see your routes)"}`);
  console.log(`  Check it: ${address ? `${address}/healthz` : "/healthz"} should answer 200 with "ok": true.`);
  console.log(
    '  Next step, the first staff login:\n    npm run user:create -- --museum <slug> --museum-name "<name>" --email <email> --password <password> --remote',
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof StepError)) throw error;
  console.error(`\n✘ Deploy stopped at step "${error.step}": ${error.detail}`);
  console.error("  What finished before this step stays; the wrangler.toml files hold only ids that exist.");
  console.error("  Fix the cause and run `npm run deploy` again: it continues from what exists.");
  process.exitCode = 1;
}
