// `npm run deploy`: one command to production. On the first run it creates the Cloudflare resources
// (D1, KV, R2, queues), writes their ids into the wrangler.toml files and sets SESSION_SECRET; every
// run then builds, applies the remote migrations and deploys both Workers. Needs `wrangler login` once.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, quietEnv, ROOT } from "./lib.mjs";

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const APP_TOML = join(ROOT, "wrangler.toml");
const CONSUMER_TOML = join(ROOT, "workers", "stats-consumer", "wrangler.toml");
const PLACEHOLDER_D1 = "00000000-0000-0000-0000-000000000000";
const PLACEHOLDER_KV = "00000000000000000000000000000000";

function run(args, { input, capture = true, allowFailure = false } = {}) {
  const result = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    env: { ...quietEnv, CI: "" },
    input,
    encoding: "utf8",
    stdio: capture ? ["pipe", "pipe", "pipe"] : ["pipe", "inherit", "inherit"],
  });
  if (result.status !== 0 && !allowFailure) {
    console.error(result.stdout ?? "", result.stderr ?? "");
    throw new Error(`wrangler ${args.join(" ")} failed`);
  }
  return { ok: result.status === 0, out: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

function step(title) {
  console.log(`\n▶ ${title}`);
}

step("Checking the Cloudflare login");
if (!run(["whoami"], { allowFailure: true }).out.match(/associated with the email|You are logged in/i)) {
  console.error("Not logged in to Cloudflare. Run `npx wrangler login` once, then `npm run deploy` again.");
  process.exit(1);
}

let appToml = readFileSync(APP_TOML, "utf8");
let consumerToml = readFileSync(CONSUMER_TOML, "utf8");
let created = false;

if (appToml.includes(PLACEHOLDER_D1)) {
  step("Creating the D1 database");
  const out = run(["d1", "create", "muselingo"]).out;
  const id = out.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)?.[0];
  if (!id) throw new Error(`Could not read the database id from:\n${out}`);
  appToml = appToml.replaceAll(PLACEHOLDER_D1, id);
  consumerToml = consumerToml.replaceAll(PLACEHOLDER_D1, id);
  created = true;
}
if (appToml.includes(PLACEHOLDER_KV)) {
  step("Creating the KV namespace");
  const out = run(["kv", "namespace", "create", "KV"]).out;
  const id = out.match(/\b[0-9a-f]{32}\b/)?.[0];
  if (!id) throw new Error(`Could not read the KV namespace id from:\n${out}`);
  appToml = appToml.replaceAll(PLACEHOLDER_KV, id);
  created = true;
}
writeFileSync(APP_TOML, appToml);
writeFileSync(CONSUMER_TOML, consumerToml);

step("Making sure the R2 bucket and the queues exist");
// "already exists" is fine: these commands are safe to repeat.
for (const args of [
  ["r2", "bucket", "create", "muselingo-media"],
  ["queues", "create", "muselingo-scans"],
  ["queues", "create", "muselingo-scans-dlq"],
]) {
  const { ok, out } = run(args, { allowFailure: true });
  if (!ok && !/already (exists|taken)/i.test(out)) throw new Error(`wrangler ${args.join(" ")} failed:\n${out}`);
}

step("Checking the SESSION_SECRET secret");
if (!run(["secret", "list"], { allowFailure: true }).out.includes("SESSION_SECRET")) {
  run(["secret", "put", "SESSION_SECRET"], { input: randomBytes(36).toString("base64url") });
  console.log("Set a random SESSION_SECRET.");
}

step("Building");
build();
step("Applying the migrations to the remote D1");
run(["d1", "migrations", "apply", "DB", "--remote"], { capture: false });
step("Deploying the app Worker");
run(["deploy"], { capture: false });
step("Deploying the statistics consumer Worker");
run(["deploy", "-c", "workers/stats-consumer/wrangler.toml"], { capture: false });

console.log("\nDeployed. Create the first staff login with:\n  npm run user:create -- --museum <slug> --email <email> --password <password> --remote");
if (created) console.log("(wrangler.toml now holds your resource ids: commit it.)");
