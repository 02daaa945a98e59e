// `npm run museum:move -- --museum <slug|id> --to <shard> [--resume | --rollback] [--remote] [--persist-to dir]`
// Moves a museum to another shard while it stays open (decision 143): copy while live, freeze staff writes for
// seconds, copy what changed, compare every table, switch the directory, remove the old rows. A move killed at any
// step is taken up again by the same command (or `--resume`), or given up with `--rollback`.
//
// The steps are app/shards/move.ts, run here on the databases' bindings: locally those of wrangler's local runtime
// (the same files `npm start` serves, so the app sees the freeze and the switch at once); remotely D1's HTTP API.
import { applyMigrations, d1Target, parseOptions, withLocalD1 } from "./lib.mjs";
import { shardBindings } from "./shards.mjs";
import { remoteBindings } from "./d1-http.mjs";

const { MOVE_DEFAULTS, MoveError, finishMove, moveMuseum, museumIdOf, rollbackMove } = await import("../app/shards/move.ts");
const { bindingOfShard } = await import("../app/shards/keys.ts");

const { values } = parseOptions(process.argv.slice(2), {
  museum: "string",
  to: "string",
  resume: "boolean",
  rollback: "boolean",
  remote: "boolean",
  "persist-to": "string",
  "propagation-seconds": "string",
  "grace-seconds": "string",
  "cleanup-after-seconds": "string",
  "no-app": "boolean",
});

function fail(message) {
  console.error(`Error: ${message}`);
  process.exit(1);
}

const seconds = (name, fallback) => {
  const raw = values[name];
  if (raw === undefined) return fallback;
  if (!/^\d{1,5}$/.test(raw)) fail(`--${name} must be a whole number of seconds, got "${raw}"`);
  return Number(raw) * 1000;
};

if (!values.museum) fail("--museum <slug or id> is required");
if (values.resume && values.rollback) fail("--resume and --rollback cannot be used together");
const to = values.to === undefined ? null : /^\d{1,4}$/.test(values.to) ? Number(values.to) : fail(`--to must be a shard number, got "${values.to}"`);
if (to === null && !values.resume && !values.rollback) fail("--to <shard> is required (or --resume, --rollback)");

const remote = values.remote === true;
// Locally the app's isolates trust a directory row 60 s and KV has no edge cache; remotely KV's cache adds 60 s.
// A shorter wait lets an isolate that cached the museum's row before the move go on reading and writing the old
// copy: a signed-in member then finds no session after the switch (tried against a running `npm start`). Shorter
// only with --no-app, when no app Worker runs against these databases (the move bench).
const propagationFloor = remote ? MOVE_DEFAULTS.propagationMs : 65_000;
const options = {
  propagationMs: seconds("propagation-seconds", propagationFloor),
  graceMs: seconds("grace-seconds", MOVE_DEFAULTS.graceMs),
  cleanupAfterMs: seconds("cleanup-after-seconds", MOVE_DEFAULTS.cleanupAfterMs),
};
if (options.propagationMs < propagationFloor && !values["no-app"])
  fail(
    `--propagation-seconds must be at least ${propagationFloor / 1000} here: the app's isolates trust a museum's directory row that long` +
      " (and KV's edge cache adds to it remotely). Only with --no-app, when no app Worker uses these databases, may it be shorter.",
  );

async function run(env) {
  const io = {
    directory: env.DIRECTORY,
    shard(k) {
      const db = env[bindingOfShard(k)];
      if (!db) throw new MoveError(`there is no shard ${k} (no ${bindingOfShard(k)} binding in wrangler.toml)`);
      return db;
    },
    kv: env.KV,
    jurisdictionOf: (k) => shardBindings().find((b) => b.shard === k)?.jurisdiction ?? "",
    log: (line) => console.log(line),
  };
  const museumId = await museumIdOf(io.directory, values.museum);
  if (values.rollback) {
    await rollbackMove(io, museumId);
    return;
  }
  const row = await io.directory.prepare("SELECT state, moving_to, moved_from FROM museums WHERE id = ?1").bind(museumId).first();
  if (values.resume && row.state === "active" && row.moved_from === null) fail(`museum ${values.museum} is not moving`);
  if (row.state === "active" && row.moved_from !== null) {
    // Switched already: what is left is removing the old rows.
    await finishMove(io, museumId);
    if (to === null || to === (await io.directory.prepare("SELECT shard FROM museums WHERE id = ?1").bind(museumId).first("shard"))) return;
  }
  const target = values.resume || to === null ? row.moving_to : to;
  if (target === null) fail(`museum ${values.museum} is not moving`);
  const report = await moveMuseum(io, museumId, target, options);
  console.log(
    `Moved museum ${values.museum} from shard ${report.from} to shard ${report.to} in ${(report.totalMs / 1000).toFixed(1)} s; staff writes waited ${(report.frozenMs / 1000).toFixed(1)} s.`,
  );
  console.table(report.tables.filter((t) => t.rows > 0).map((t) => ({ table: t.table, rows: t.rows, sha256: t.checksum.slice(0, 16) })));
}

try {
  if (remote) await run(await remoteBindings());
  else {
    const target = d1Target({ remote: false, persistTo: values["persist-to"] });
    await applyMigrations(target, { quiet: true });
    await withLocalD1(target, run);
  }
} catch (error) {
  if (error instanceof MoveError) fail(error.message);
  throw error;
}
