// Shared helpers for the operator scripts. Plain Node (no build step), so they run before anything is built.
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

/** Rows of the first statement. */
export function d1Query(sql, target) {
  return d1QueryAll(sql, target)[0] ?? [];
}

/** Rows of each statement, in order: several statements cost one wrangler run (about a second). */
export function d1QueryAll(sql, target) {
  const out = wrangler(["d1", "execute", "DB", ...target, "--json", "--command", sql], { capture: true });
  const parsed = JSON.parse(out.slice(out.indexOf("[")));
  return parsed.map((statement) => statement.results ?? []);
}

/** Runs several statements from a temporary file, as one batch. */
export function d1ExecFile(sql, target) {
  const dir = mkdtempSync(join(tmpdir(), "muselingo-sql-"));
  const file = join(dir, "run.sql");
  writeFileSync(file, sql);
  try {
    wrangler(["d1", "execute", "DB", ...target, "--file", file, "--yes"], { capture: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function applyMigrations(target, { quiet = false } = {}) {
  wrangler(["d1", "migrations", "apply", "DB", ...target], { capture: quiet });
}

/** Migration files in drizzle/ that the target database has not recorded as applied. Reads only. */
export function pendingMigrations(target) {
  const files = readdirSync(join(ROOT, "drizzle"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const tables = d1Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'd1_migrations'", target);
  if (tables.length === 0) return files;
  const applied = new Set(d1Query("SELECT name FROM d1_migrations", target).map((row) => row.name));
  return files.filter((f) => !applied.has(f));
}

/**
 * Gets a database ready for the operator scripts. A local one is migrated on the spot; a remote one is
 * production, so it is only checked: applying its migrations is `npm run db:migrate:remote`'s job.
 */
export function ensureSchema(target, { migrate = !target.includes("--remote") } = {}) {
  if (migrate) {
    applyMigrations(target, { quiet: true });
    return;
  }
  const pending = pendingMigrations(target);
  if (pending.length > 0) {
    throw new SchemaError(
      `the ${target.includes("--remote") ? "remote " : ""}database lacks ${pending.length} migration(s) (${pending.join(", ")}).\n` +
        "Apply them first with: npm run db:migrate:remote",
    );
  }
}

export class SchemaError extends Error {}

/** Creates the museum when it is missing and the user (or resets the password of an existing one). */
export function upsertUserSql({ museumSlug, museumName, email, password }) {
  const hash = hashPassword(password);
  const normalized = email.trim().toLowerCase();
  return [
    `INSERT INTO museums (name, slug) SELECT ${sqlString(museumName ?? museumSlug)}, ${sqlString(museumSlug)} WHERE NOT EXISTS (SELECT 1 FROM museums WHERE slug = ${sqlString(museumSlug)});`,
    `INSERT INTO users (museum_id, email, password_hash) SELECT id, ${sqlString(normalized)}, ${sqlString(hash)} FROM museums WHERE slug = ${sqlString(museumSlug)};`,
  ].join("\n");
}

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
export async function prepareLocalDatabase(target) {
  applyMigrations(target, { quiet: true });
  const demo = sqlString(DEMO.museumSlug);
  const [{ museums = 0, others = 0, items = 0 } = {}] = d1Query(
    `SELECT (SELECT COUNT(*) FROM museums) AS museums, (SELECT COUNT(*) FROM museums WHERE slug <> ${demo}) AS others, ` +
      `(SELECT COUNT(*) FROM folders f JOIN museums m ON m.id = f.museum_id WHERE m.slug = ${demo}) + ` +
      `(SELECT COUNT(*) FROM articles a JOIN museums m ON m.id = a.museum_id WHERE m.slug = ${demo}) + ` +
      `(SELECT COUNT(*) FROM qrcodes q JOIN museums m ON m.id = q.museum_id WHERE m.slug = ${demo}) AS items`,
    target,
  );
  if (Number(others) > 0 || Number(items) > 0) return;
  const { demoContent, putDemoFiles } = await import("./seed-demo.mjs");
  const { sql, files } = demoContent(DEMO.museumSlug);
  const persistIndex = target.indexOf("--persist-to");
  await putDemoFiles(files, persistIndex >= 0 ? target[persistIndex + 1] : undefined);
  d1ExecFile(`${Number(museums) === 0 ? upsertUserSql(DEMO) : ""}\n${sql}`, target);
  console.log(
    `\nSeeded the demo museum "${DEMO.museumName}" (articles, QR codes, synthetic statistics).\n  Login:    ${DEMO.email}\n  Password: ${DEMO.password}\n`,
  );
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
