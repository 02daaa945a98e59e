// Shared helpers for the operator scripts. Plain Node (no build step), so they run before anything is built.
import { spawn, spawnSync } from "node:child_process";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("..", import.meta.url).pathname;
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

export const quietEnv = {
  ...process.env,
  CI: "true",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  NO_D1_WARNING: "true",
};

/** Must stay in step with app/utils/password.server.ts; tests/unit/password-format.test.ts checks both agree. */
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

export function d1Query(sql, target) {
  const out = wrangler(["d1", "execute", "DB", ...target, "--json", "--command", sql], { capture: true });
  const start = out.indexOf("[");
  const parsed = JSON.parse(out.slice(start));
  return parsed[0]?.results ?? [];
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

/** Creates the museum when it is missing and the user (or resets the password of an existing one). */
export function upsertUserSql({ museumSlug, museumName, email, password }) {
  const hash = hashPassword(password);
  const normalized = email.trim().toLowerCase();
  return [
    `INSERT INTO museums (name, slug) SELECT ${sqlString(museumName ?? museumSlug)}, ${sqlString(museumSlug)} WHERE NOT EXISTS (SELECT 1 FROM museums WHERE slug = ${sqlString(museumSlug)});`,
    `INSERT INTO users (museum_id, email, password_hash) SELECT id, ${sqlString(normalized)}, ${sqlString(hash)} FROM museums WHERE slug = ${sqlString(museumSlug)};`,
  ].join("\n");
}

export function ensureDevVars() {
  const file = join(ROOT, ".dev.vars");
  if (existsSync(file)) return;
  writeFileSync(file, `# Local secrets, created by npm start; never committed.\nSESSION_SECRET=${randomBytes(36).toString("base64url")}\n`);
  console.log("Created .dev.vars with a random SESSION_SECRET.");
}

export function build() {
  const result = spawnSync(join(ROOT, "node_modules", ".bin", "remix"), ["vite:build"], {
    cwd: ROOT,
    env: quietEnv,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("The build failed");
}

export function spawnWrangler(args) {
  return spawn(WRANGLER, args, { cwd: ROOT, env: quietEnv, stdio: "inherit" });
}

export function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) continue;
    const key = arg.slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith("--")) out[key] = true;
    else {
      out[key] = next;
      i++;
    }
  }
  return out;
}

export const DEMO = {
  museumSlug: "demo",
  museumName: "Musée de démonstration",
  email: "demo@muselingo.test",
  password: "muselingo-demo",
};

/** Applies local migrations and, on an empty database, seeds the demo museum and prints its login. */
export function prepareLocalDatabase(target) {
  applyMigrations(target, { quiet: true });
  const [{ n } = { n: 0 }] = d1Query("SELECT COUNT(*) AS n FROM museums", target);
  if (Number(n) === 0) {
    d1ExecFile(upsertUserSql(DEMO), target);
    console.log(`\nSeeded the demo museum "${DEMO.museumName}".\n  Login:    ${DEMO.email}\n  Password: ${DEMO.password}\n`);
  }
}
