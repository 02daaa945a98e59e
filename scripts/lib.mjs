// Shared helpers for the operator scripts. Plain Node (no build step), so they run before anything is built.
import { d1Bindings, shardBindings, shardSeedSql } from "./shards.mjs";
import { spawn, spawnSync } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";

// fileURLToPath, not URL.pathname: the latter keeps %20 and %C3%A9 in a checkout path with spaces or accents.
export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

// The project runs on the Node it brings (node_modules/.bin/node, decision 128), which npm puts first on PATH for
// `npm start`, `npm test` and every `npm run …`. Started as `node scripts/…` on an older Node, wrangler and vitest
// would fail further on with less clear errors.
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(
    `Error: this is Node ${process.version}. Run the project's scripts through npm (npm start, npm test, npm run …), which use its own Node (node_modules/.bin/node, installed by npm install).`,
  );
  process.exit(1);
}
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

export const quietEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_D1_WARNING: "true",
  // The banner (and its update check) says nothing the operator needs; wrangler is pinned in package.json.
  WRANGLER_HIDE_BANNER: "true",
  // Node's compile cache (keyed by file content): every wrangler, vitest and Playwright start after the first
  // reuses the compiled code of its bundles instead of compiling them again (decisions 131, 140). Under
  // .wrangler/, which git ignores; one set by the caller wins.
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || join(ROOT, ".wrangler", "node-compile-cache"),
};

/** Must stay in step with app/lib/password.server.ts; tests/unit/password-format.test.ts checks both agree. */
export const PBKDF2_ITERATIONS = 100_000;
const b64url = (buf) => Buffer.from(buf).toString("base64url");
export function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, PBKDF2_ITERATIONS, 32, "sha256");
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64url(salt)}$${b64url(hash)}`;
}

export function sqlString(value) {
  return `'${String(value).replace(/'/g, "''")}'`;
}

export function wrangler(args, { capture = false } = {}) {
  const result = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    env: quietEnv,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  if (result.status !== 0) {
    const detail = capture ? `\n${result.stdout}\n${result.stderr}` : "";
    throw new Error(`wrangler ${args.join(" ")} failed (exit ${result.status})${detail}`);
  }
  return result.stdout ?? "";
}

/** `--local [--persist-to dir]` or `--remote`. */
export function d1Target({ remote = false, persistTo } = {}) {
  if (remote) return ["--remote"];
  return ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
}

/** Rows of the first statement (on `binding`: `DB`, shard 0, unless told; decision 142). */
export function d1Query(sql, target, binding = "DB") {
  return d1QueryAll(sql, target, binding)[0] ?? [];
}

/** Rows of each statement, in order: several statements cost one wrangler run (about a second). */
export function d1QueryAll(sql, target, binding = "DB") {
  const out = wrangler(["d1", "execute", binding, ...target, "--json", "--command", sql], { capture: true });
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return parsed.map((statement) => statement.results ?? []);
}

/** Runs several statements from a temporary file, as one batch. */
export function d1ExecFile(sql, target, binding = "DB") {
  const dir = mkdtempSync(join(tmpdir(), "muselingo-sql-"));
  const file = join(dir, "run.sql");
  writeFileSync(file, sql);
  try {
    wrangler(["d1", "execute", binding, ...target, "--file", file, "--yes"], { capture: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Applies the migrations of every database wrangler.toml declares: the directory's (drizzle-directory/) and each
 * shard's (drizzle/), then starts each shard's ids in its own range (decision 142). Remote: `wrangler d1 migrations
 * apply` for each. Local: one local runtime for all four (wrangler's getPlatformProxy on the same files as
 * `wrangler dev --persist-to`), recording each file in `d1_migrations` as wrangler does, so either finds the other's
 * work: six wrangler starts were 9 s of CPU, this is one.
 */
export async function applyMigrations(target, { quiet = false, before } = {}) {
  if (target.includes("--remote")) {
    for (const { binding, shard } of d1Bindings()) {
      wrangler(["d1", "migrations", "apply", binding, ...target], { capture: quiet });
      if (shard) wrangler(["d1", "execute", binding, ...target, "--command", shardSeedSql(shard)], { capture: true });
    }
    return;
  }
  const { readD1Migrations } = await import("@cloudflare/vitest-plugin");
  await withLocalD1(target, async (env) => {
    for (const { binding, migrations_dir, shard } of d1Bindings()) {
      const db = env[binding];
      // `before` (local only, the size bench): the migrations named below it, to build a database as it was.
      const migrations = (await readD1Migrations(join(ROOT, migrations_dir))).filter((m) => before === undefined || m.name < before);
      const applied = await applyD1Migrations(db, migrations);
      if (!quiet && applied.length > 0) console.log(`${binding}: applied ${applied.join(", ")}`);
      if (shard) for (const statement of shardSeedSql(shard).split(";\n")) await db.prepare(statement).run();
    }
  });
}

/**
 * Runs `work` with the local D1 bindings of every database wrangler.toml declares, as `wrangler dev` and
 * `wrangler d1 execute --local` see them for this target (`--persist-to`, else .wrangler/state): one local runtime
 * (wrangler's getPlatformProxy) instead of a wrangler start per statement.
 */
export async function withLocalD1(target, work) {
  const { getPlatformProxy } = await import("wrangler");
  const persistIndex = target.indexOf("--persist-to");
  const persistTo = persistIndex >= 0 ? target[persistIndex + 1] : join(ROOT, ".wrangler", "state");
  const { env, dispose } = await getPlatformProxy({ configPath: join(ROOT, "wrangler.toml"), persist: { path: join(persistTo, "v3") }, remoteBindings: false });
  try {
    return await work(env);
  } finally {
    await dispose();
  }
}

/**
 * wrangler's own bookkeeping (src/d1/migrations: the `d1_migrations` table, one row per file), as
 * @cloudflare/vitest-plugin's applyD1Migrations keeps it: each file's statements and its row in one batch.
 */
async function applyD1Migrations(db, migrations) {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const done = new Set((await db.prepare("SELECT name FROM d1_migrations").all()).results.map((row) => row.name));
  const applied = [];
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    await db.batch([...migration.queries.map((query) => db.prepare(query)), db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(migration.name)]);
    applied.push(migration.name);
  }
  return applied;
}

/** Migration files each database has not recorded as applied, as `BINDING/file.sql`. Reads only. */
export async function pendingMigrations(target) {
  const appliedIn = async (binding, query) => {
    const tables = await query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'", binding);
    return tables.length === 0 ? new Set() : new Set((await query("SELECT name FROM d1_migrations", binding)).map((row) => row.name));
  };
  const check = async (query) => {
    const pending = [];
    for (const { binding, migrations_dir } of d1Bindings()) {
      const files = readdirSync(join(ROOT, migrations_dir))
        .filter((f) => f.endsWith(".sql"))
        .sort();
      const applied = await appliedIn(binding, query);
      pending.push(...files.filter((f) => !applied.has(f)).map((f) => `${binding}/${f}`));
    }
    return pending;
  };
  if (target.includes("--remote")) return check(async (sql, binding) => d1Query(sql, target, binding));
  return withLocalD1(target, (env) => check(async (sql, binding) => (await env[binding].prepare(sql).all()).results));
}

/**
 * Each shard's measured size in bytes (decision 142: a new museum goes to the shard with the most room): a remote
 * database's size as `wrangler d1 info` reports it now; a local one's as the app Worker's daily cron last recorded
 * it in the directory (D1's `meta.size_after`; wrangler's local execute reports no size). A shard never measured
 * is new, so it counts as empty (-1: first among equals).
 */
export function shardSizes(target) {
  const [recorded, counts] = d1QueryAll("SELECT shard, bytes FROM shards; SELECT shard, count(*) AS n FROM museums GROUP BY shard", target, "DIRECTORY");
  return shardBindings().map(({ database_name, shard }) => {
    const museums = Number(counts.find((r) => Number(r.shard) === shard)?.n ?? 0);
    if (target.includes("--remote")) {
      const out = wrangler(["d1", "info", database_name, "--json"], { capture: true });
      const info = JSON.parse(out.slice(out.indexOf("{")));
      return { shard, bytes: Number(info.database_size ?? info.file_size ?? 0), museums };
    }
    const row = recorded.find((r) => Number(r.shard) === shard);
    return { shard, bytes: row ? Number(row.bytes) : -1, museums };
  });
}

/** The shard with the most room: the smallest measured; among equals, the one with fewest museums, then the lowest number. */
export function roomiestShard(sizes) {
  return [...sizes].sort((a, b) => a.bytes - b.bytes || (a.museums ?? 0) - (b.museums ?? 0) || a.shard - b.shard)[0]?.shard ?? 0;
}

/**
 * The directory's part of making museums and accounts (decision 142): each museum missing from it registered on
 * its shard, each e-mail claimed for its museum; the last statement lists the museums `{ slug, id, shard }`.
 */
export function directoryAccountsSql(entries) {
  const slugs = [...new Set(entries.map((e) => e.museumSlug))];
  const lines = [];
  for (const slug of slugs) {
    const entry = entries.find((e) => e.museumSlug === slug);
    lines.push(
      `INSERT INTO museums (slug, shard, jurisdiction) VALUES (${sqlString(slug)}, ${Number(entry.shard ?? 0)}, ${sqlString(entry.jurisdiction ?? "")}) ON CONFLICT (slug) DO NOTHING;`,
    );
  }
  for (const e of entries.filter((e) => e.email)) {
    lines.push(
      `INSERT INTO accounts (email, museum_id) SELECT ${sqlString(e.email.trim().toLowerCase())}, id FROM museums WHERE slug = ${sqlString(e.museumSlug)} ON CONFLICT (email) DO NOTHING;`,
    );
  }
  lines.push(`SELECT slug, id, shard FROM museums WHERE slug IN (${slugs.map(sqlString).join(", ")});`);
  return lines.join("\n");
}

/** A shard's part: its museums' rows (with the directory's ids) where missing, and the users. */
export function shardAccountsSql(entries) {
  const lines = [];
  const seen = new Set();
  for (const e of entries) {
    if (!seen.has(e.museumId)) {
      seen.add(e.museumId);
      lines.push(
        `INSERT INTO museums (id, name, slug) VALUES (${Number(e.museumId)}, ${sqlString(e.museumName ?? e.museumSlug)}, ${sqlString(e.museumSlug)}) ON CONFLICT (id) DO NOTHING;`,
      );
    }
    if (e.email) {
      lines.push(
        `INSERT INTO users (museum_id, email, password_hash) VALUES (${Number(e.museumId)}, ${sqlString(e.email.trim().toLowerCase())}, ${sqlString(e.passwordHash)}) ON CONFLICT DO NOTHING;`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * Makes museums (where missing, on `entry.shard`) and their users: the directory first, then each shard in one
 * run. Returns the entries with `museumId` and `shard`, as the directory placed them.
 */
export function createAccounts(entries, target, extra = {}) {
  // `extra.directory` runs before the directory's part; `extra.shards[k]` after shard k's (one wrangler run each).
  const museums = d1QueryAll(`${extra.directory ?? ""}\n${directoryAccountsSql(entries)}`, target, "DIRECTORY").at(-1) ?? [];
  const bySlug = new Map(museums.map((m) => [m.slug, m]));
  const placed = entries.map((e) => {
    const museum = bySlug.get(e.museumSlug);
    if (!museum) throw new Error(`the directory did not register the museum ${e.museumSlug}`);
    return { ...e, museumId: Number(museum.id), shard: Number(museum.shard) };
  });
  const shards = new Set([...placed.map((e) => e.shard), ...Object.keys(extra.shards ?? {}).map(Number)]);
  for (const shard of shards) {
    const own = placed.filter((e) => e.shard === shard);
    d1ExecFile(`${shardAccountsSql(own)}\n${extra.shards?.[shard] ?? ""}`, target, bindingOfShard(shard));
  }
  return placed;
}

/** Shard k's binding name (app/shards/keys.ts's bindingOfShard). */
export const bindingOfShard = (k) => (k === 0 ? "DB" : `DB_${k}`);

/**
 * Gets a database ready for the operator scripts. A local one is migrated on the spot; a remote one is
 * production, so it is only checked: applying its migrations is `npm run db:migrate:remote`'s job.
 */
export async function ensureSchema(target, { migrate = !target.includes("--remote") } = {}) {
  if (migrate) {
    await applyMigrations(target, { quiet: true });
    return;
  }
  const pending = await pendingMigrations(target);
  if (pending.length > 0) {
    throw new SchemaError(
      `the ${target.includes("--remote") ? "remote " : ""}database lacks ${pending.length} migration(s) (${pending.join(", ")}).\n` +
        "Apply them first with: npm run db:migrate:remote",
    );
  }
}

export class SchemaError extends Error {}

/**
 * Local settings for `npm start` and `npm run dev`: a random SESSION_SECRET and the offline pseudo engine
 * (wrangler.toml's production default, Workers AI, does not run offline: decision 037). A .dev.vars from
 * before that default changed gets the engine line added; one that already names engines is left alone.
 */
export function ensureDevVars(file = join(ROOT, ".dev.vars")) {
  if (!existsSync(file)) {
    writeFileSync(
      file,
      `# Local settings, created by npm start; never committed.\nSESSION_SECRET=${randomBytes(36).toString("base64url")}\n` +
        "# Offline stand-in engine for local runs (production uses wrangler.toml's TRANSLATION_ENGINES).\nTRANSLATION_ENGINES=pseudo\n",
    );
    console.log("Created .dev.vars with a random SESSION_SECRET and the offline pseudo engine.");
    return;
  }
  const text = readFileSync(file, "utf8");
  if (/^\s*TRANSLATION_ENGINES\s*=/m.test(text)) return;
  appendFileSync(file, `${text.endsWith("\n") || text === "" ? "" : "\n"}# Offline stand-in engine for local runs.\nTRANSLATION_ENGINES=pseudo\n`);
  console.log("Added TRANSLATION_ENGINES=pseudo to .dev.vars (local runs stay offline).");
}

export function build() {
  const result = spawnSync(join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd: ROOT,
    env: quietEnv,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("The build failed");
}

/**
 * Runs wrangler in the background, forwarding its output except the lines `drop` matches: notices that
 * are known not to apply here (each caller says why).
 */
export function spawnWrangler(args, { drop, onLine } = {}) {
  const piped = Boolean(drop || onLine);
  const child = spawn(WRANGLER, args, { cwd: ROOT, env: quietEnv, stdio: ["inherit", piped ? "pipe" : "inherit", piped ? "pipe" : "inherit"] });
  if (piped) {
    for (const [source, sink] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: source, crlfDelay: Infinity }).on("line", (line) => {
        onLine?.(line);
        if (!drop?.test(line)) sink.write(`${line}\n`);
      });
    }
  }
  return child;
}

export class PortError extends Error {}

/** A TCP port from an environment value: an integer from 1 to 65535, else PortError naming the variable. */
export function parsePort(value, name = "PORT") {
  const text = String(value).trim();
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new PortError(`${name}=${JSON.stringify(String(value))} is not a port number (1 to 65535).`);
  return port;
}

/**
 * Whether `port` can be listened on at `host`, found by listening there for a moment. On Linux a server on
 * 0.0.0.0 or [::] holds 127.0.0.1's port too, so this also sees those. Resolves to null when free, else to
 * the error's code (EADDRINUSE, EACCES…).
 */
export function portBusy(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", (error) => resolve(error.code ?? String(error)));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** The first port after `port` (at most `tries` of them) that is free at `host`, or null. */
export async function nextFreePort(port, host = "127.0.0.1", tries = 20) {
  for (let candidate = port + 1; candidate <= Math.min(port + tries, 65535); candidate++) {
    if ((await portBusy(candidate, host)) === null) return candidate;
  }
  return null;
}

/** A refusal of the command line that a script prints as `Error: <message>` before exiting 1. */
export class UsageError extends Error {}

/**
 * Parses `--name value` options with node's util.parseArgs. `options` maps each name to "string" or
 * "boolean"; an unknown option or a missing value throws a UsageError that names the known options.
 */
export function readOptions(argv, options, { positionals = false } = {}) {
  try {
    const spec = Object.fromEntries(Object.entries(options).map(([name, type]) => [name, { type }]));
    return parseArgs({ args: argv, options: spec, strict: true, allowPositionals: positionals });
  } catch (error) {
    const known = Object.entries(options)
      .map(([name, type]) => (type === "string" ? `--${name} <value>` : `--${name}`))
      .join(", ");
    throw new UsageError(`${error.message.replace(/\. To specify a positional argument.*$/s, "")}\nKnown options: ${known}`);
  }
}

/** readOptions for a script: a refusal ends it with a clear message. */
export function parseOptions(argv, options, settings = {}) {
  try {
    return readOptions(argv, options, settings);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`Error: ${error.message}`);
    process.exit(1);
  }
}

export const DEMO = {
  museumSlug: "demo",
  museumName: "Musée de démonstration",
  email: "demo@muselingo.test",
  password: "muselingo-demo",
};

/**
 * Applies local migrations and, on an empty database, seeds the demo museum with its login, content,
 * QR codes and statistics (scripts/seed-demo.mjs), and prints the login. A database that has any other
 * museum, or a demo museum with content of its own, is left alone.
 */
export async function prepareLocalDatabase(target, { fresh = false, accounts = [] } = {}) {
  await applyMigrations(target, { quiet: true });
  const demo = sqlString(DEMO.museumSlug);
  if (!fresh) {
    // The demo museum lives on shard 0 (`DB`); the directory knows every museum (decision 142).
    const [{ others = 0 } = {}] = d1Query(`SELECT (SELECT COUNT(*) FROM museums WHERE slug <> ${demo}) AS others`, target, "DIRECTORY");
    const [{ items = 0 } = {}] = d1Query(
      `SELECT (SELECT COUNT(*) FROM folders f JOIN museums m ON m.id = f.museum_id WHERE m.slug = ${demo}) + ` +
        `(SELECT COUNT(*) FROM articles a JOIN museums m ON m.id = a.museum_id WHERE m.slug = ${demo}) + ` +
        `(SELECT COUNT(*) FROM qrcodes q JOIN museums m ON m.id = q.museum_id WHERE m.slug = ${demo}) AS items`,
      target,
    );
    if (Number(others) > 0 || Number(items) > 0) return accounts.length > 0 ? createAccounts(accounts, target) : [];
  }
  const { demoContent, putDemoFiles } = await import("./seed-demo.mjs");
  const { sql, files, links } = demoContent(DEMO.museumSlug);
  const persistIndex = target.indexOf("--persist-to");
  await putDemoFiles(files, persistIndex >= 0 ? target[persistIndex + 1] : undefined);
  // The demo's login (where missing) and its content on shard 0, its printed links claimed in the directory as the
  // app claims every new code's; `accounts` (the e2e pool) in the same runs: the directory, then each shard.
  const claims = links.map(
    (link) =>
      `INSERT INTO links (link, museum_id, kind) SELECT ${sqlString(link)}, id, 'qrcode' FROM museums WHERE slug = ${demo} ON CONFLICT (link) DO NOTHING;`,
  );
  const placed = createAccounts([...accounts, { ...DEMO, passwordHash: hashPassword(DEMO.password), shard: 0 }], target, {
    directory: `INSERT INTO museums (slug, shard) VALUES (${demo}, 0) ON CONFLICT (slug) DO NOTHING;\n${claims.join("\n")}`,
    shards: { 0: sql },
  });
  console.log(
    `\nSeeded the demo museum "${DEMO.museumName}" (articles, QR codes, synthetic statistics).\n  Login:    ${DEMO.email}\n  Password: ${DEMO.password}\n` +
      `The operators' console (/operator, decision 146): create the first operator with\n  npm run operator:create -- --email you@example.org\n` +
      `  which prints a one-time link to choose a password and add the account to an authenticator app.\n`,
  );
  return placed.slice(0, accounts.length);
}

/** Machine-translation settings `npm start` hands from its own environment to the Worker (docs/translation-engines.md). */
export const ENGINE_SETTINGS = [
  "TRANSLATION_ENGINES",
  "PSEUDO_DELAY_MS",
  "LIBRETRANSLATE_URL",
  "LIBRETRANSLATE_API_KEY",
  "DEEPL_API_KEY",
  "DEEPL_API_URL",
  "GOOGLE_TRANSLATE_API_KEY",
  "GOOGLE_TRANSLATE_URL",
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_MODEL",
  // Narration (decision 090).
  "SPEECH_ENGINES",
  "SPEECH_OPENAI_BASE_URL",
  "SPEECH_OPENAI_API_KEY",
  "SPEECH_OPENAI_MODEL",
  "SPEECH_OPENAI_VOICE",
  "GOOGLE_TTS_API_KEY",
  "GOOGLE_TTS_URL",
  // The local eSpeak service of the offline speech engine (decision 102); start.mjs sets it.
  "OFFLINE_SPEECH_URL",
];

export class LocalEngineError extends Error {}

/**
 * Whether `npm start` starts the local eSpeak service (decision 102): the speech engines (`offline` when
 * SPEECH_ENGINES is unset) list `offline`, and OFFLINE_SPEECH_URL does not name a service already running.
 */
export function needsLocalSpeechService(env = process.env) {
  const engines = (env.SPEECH_ENGINES?.trim() || "offline").split(",").map((id) => id.trim());
  return engines.includes("offline") && !env.OFFLINE_SPEECH_URL?.trim();
}

/**
 * `--var NAME:VALUE` for each engine setting set in `env` (wrangler splits at the first colon, so URLs
 * pass whole). The Workers AI engines are refused here: the AI binding only runs on Cloudflare, and the
 * local session is offline.
 */
export function engineVarArgs(env = process.env) {
  const listed = (env.TRANSLATION_ENGINES ?? "").split(",").map((id) => id.trim());
  const remoteOnly = listed.filter((id) => id === "workers-ai" || id === "workers-ai-llm");
  if (remoteOnly.length > 0) {
    throw new LocalEngineError(
      `TRANSLATION_ENGINES lists ${remoteOnly.join(" and ")}, which ${remoteOnly.length === 1 ? "needs" : "need"} Cloudflare's AI ` +
        "binding: it does not run in the " +
        "offline local session. Use pseudo, libretranslate (a local server), or deepl/google/openai-compatible with a key.",
    );
  }
  if ((env.SPEECH_ENGINES ?? "").split(",").some((id) => id.trim() === "workers-ai")) {
    throw new LocalEngineError(
      "SPEECH_ENGINES lists workers-ai, which needs Cloudflare's AI binding: it does not run in the offline local session. " +
        "Use offline, or google/openai-compatible with their settings.",
    );
  }
  return ENGINE_SETTINGS.filter((name) => (env[name] ?? "") !== "").flatMap((name) => ["--var", `${name}:${env[name]}`]);
}
