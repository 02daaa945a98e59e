// The end-to-end suite's staff logins, made once before the server starts (decision 080).
//
// `node tests/e2e/staff-pool.mjs` (playwright.config.ts's webServer command runs it) empties the e2e state
// directory, migrates it, seeds the demo museum, then writes POOL_SIZE museums, each with one staff login, in
// ONE wrangler run, and lists them in a JSON file. Playwright workers then claim entries from that file
// (claimStaff: an O_EXCL file per entry, so two workers, or a worker restarted after a failure, never share a
// museum) and never run wrangler while the server answers requests: a second process writing the server's
// SQLite file mid-test is what made requests meet SQLITE_BUSY (decision 028, commit e6893ee).
// The global teardown (global-teardown.ts) deletes every e2e museum and checks nothing was left behind.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, d1QueryAll, d1Target, hashPassword, prepareLocalDatabase, sqlString } from "../../scripts/lib.mjs";
import { shardBindings } from "../../scripts/shards.mjs";

/** Where the end-to-end server keeps its local D1/KV/R2 state, relative to the repository root. */
export const E2E_PERSIST_TO = ".wrangler/e2e";
export const e2eTarget = d1Target({ persistTo: E2E_PERSIST_TO });

const POOL_FILE = join(ROOT, E2E_PERSIST_TO, "staff-pool.json");
const CLAIMS = join(ROOT, E2E_PERSIST_TO, "staff-claims");
/** Every museum the suite makes has a slug starting with this (the pool's and any made when it ran out). */
export const E2E_SLUG_PREFIX = "e2e-";

/**
 * How many logins the pool holds: the suite asks for about 110 today and other work adds journeys. A row costs
 * nothing; running out is not fatal (the fixture then makes more the old way, with a warning).
 */
export const POOL_SIZE = Number(process.env.E2E_STAFF_POOL || 300);

/**
 * `count` museums and their logins, one password (hashed once: PBKDF2 costs ~0.1 s a hash), spread over the shards
 * in turn, so every journey runs on each shard in some run (decision 142).
 */
export function poolStaff(count, run, password) {
  const passwordHash = hashPassword(password);
  const shards = shardBindings().map((b) => b.shard);
  return Array.from({ length: count }, (_, i) => {
    const slug = `${E2E_SLUG_PREFIX}${run}-${i}`;
    return { email: `${slug}@muselingo.test`, museumSlug: slug, museumName: `Musée ${slug}`, passwordHash, shard: shards[i % shards.length] };
  });
}

/**
 * Makes the state and the pool, and writes the pool's file: the migrations, then the demo museum and the pool's
 * museums and logins in the same runs (the directory, then each shard). Run before the server starts.
 */
export async function createPool(count = POOL_SIZE) {
  const run = `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const password = randomBytes(12).toString("base64url");
  const placed = await prepareLocalDatabase(e2eTarget, { fresh: true, accounts: poolStaff(count, run, password) });
  const entries = placed.map((s) => ({ email: s.email, museumSlug: s.museumSlug, museumName: s.museumName, museumId: s.museumId, shard: s.shard }));
  rmSync(CLAIMS, { recursive: true, force: true });
  mkdirSync(CLAIMS, { recursive: true });
  writeFileSync(POOL_FILE, JSON.stringify({ password, staff: entries }));
  return entries.length;
}

/** The pool's file: its password and entries. */
export function readPool() {
  return /** @type {{ password: string; staff: { email: string; museumSlug: string; museumName: string; museumId: number; shard: number }[] }} */ (
    JSON.parse(readFileSync(POOL_FILE, "utf8"))
  );
}

let pool = null;
let cursor = 0;

/**
 * The next unclaimed login of the pool, claimed for good (an O_EXCL file: atomic between processes), or null
 * when every entry is taken.
 */
export function claimStaff() {
  pool ??= readPool();
  while (cursor < pool.staff.length) {
    const index = cursor++;
    try {
      closeSync(openSync(join(CLAIMS, String(index)), "wx"));
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code === "EEXIST") continue;
      throw error;
    }
    const { email, museumSlug, museumName, shard } = pool.staff[index];
    return { email, password: pool.password, museumSlug, museumName, shard };
  }
  return null;
}

// --- One writer at a time, and only while no test runs elsewhere --------------------------------------------
//
// A test that must write the database straight (tests/e2e/stats.spec.ts seeds daily statistics) goes through
// fixtures.ts's writeD1, which takes this lock: every running test holds a "test" file for its whole length
// (fixtures.ts, an automatic fixture), and a writer first raises the "write" flag (no new test starts), then
// waits until no other test is running, runs wrangler, and lowers the flag. Files, so it holds across the
// Playwright workers; named by process id, so a worker that died is ignored and its files removed.

const LOCKS = join(ROOT, E2E_PERSIST_TO, "locks");
const WRITE_FLAG = join(LOCKS, "write");
const mine = join(LOCKS, `test-${process.pid}`);
const WAIT_LIMIT_MS = 120_000;

/** Blocks this process for `ms` (the Playwright worker has nothing else to do meanwhile). */
function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/** The process id written in a lock file, or null once the file is gone or its process is dead (file removed). */
function holder(file) {
  let pid;
  try {
    pid = Number(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
  if (pid === process.pid || alive(pid)) return pid;
  rmSync(file, { force: true });
  return null;
}

function writer() {
  const pid = holder(WRITE_FLAG);
  return pid !== null && pid !== process.pid;
}

/** Marks this process as running a test; waits while another process writes. Returns the milliseconds waited. */
export function beginTest() {
  const t0 = Date.now();
  mkdirSync(LOCKS, { recursive: true });
  for (;;) {
    while (writer()) {
      if (Date.now() - t0 > WAIT_LIMIT_MS) throw new Error(`e2e: waited ${WAIT_LIMIT_MS / 1000} s for another worker's database write`);
      sleepSync(50);
    }
    writeFileSync(mine, String(process.pid));
    if (!writer()) return Date.now() - t0;
    rmSync(mine, { force: true });
  }
}

export function endTest() {
  rmSync(mine, { force: true });
}

/**
 * Runs `work` (a wrangler run on the e2e database) while no other process runs a test or writes. Returns
 * its result and the milliseconds spent waiting for the other workers' tests to end.
 */
export function exclusively(work) {
  const t0 = Date.now();
  const wasRunning = existsSync(mine);
  endTest();
  mkdirSync(LOCKS, { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(WRITE_FLAG, "wx"));
      writeFileSync(WRITE_FLAG, String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    // Raised by another process (or being written right now): wait, dropping it if its process died.
    if (Date.now() - t0 > WAIT_LIMIT_MS) throw new Error(`e2e: waited ${WAIT_LIMIT_MS / 1000} s for another worker's database write`);
    sleepSync(50);
    holder(WRITE_FLAG);
  }
  try {
    for (;;) {
      const others = readdirSync(LOCKS).filter((name) => name.startsWith("test-") && holder(join(LOCKS, name)) !== null && name !== `test-${process.pid}`);
      if (others.length === 0) break;
      if (Date.now() - t0 > WAIT_LIMIT_MS) throw new Error(`e2e: waited ${WAIT_LIMIT_MS / 1000} s for the other workers' tests to end`);
      sleepSync(50);
    }
    const waited = Date.now() - t0;
    return { result: work(), waited };
  } finally {
    rmSync(WRITE_FLAG, { force: true });
    if (wasRunning) beginTest();
  }
}

// Tables whose rows hang off a museum, at least (the teardown adds every table with a museum_id column it finds
// in the schema: tours, narrations… are checked without being named here). All but scan_events cascade from the
// museum row (sessions through users, tour stops through tours, narration claims through articles);
// scan_events and translation_claims have no foreign key, so they are cleared by hand.
export const OWNED = [
  "users",
  "folders",
  "articles",
  "media",
  "qrcodes",
  "translation_memory",
  "daily_stats",
  "scan_events",
  "translation_reviews",
  "translation_reports",
  "glossary_terms",
  "translation_failures",
  "article_versions",
  "member_tokens",
  "audit_log",
];

/**
 * Deletes every museum the suite made (the pool's, by id, and any other whose slug starts with "e2e-"), on each
 * shard and then in the directory (decision 142), and checks that no row of any table hanging off a museum, nor
 * any session of their users, is left. Throws naming the leftovers.
 */
export function deleteE2eMuseums() {
  let poolIds = [];
  try {
    poolIds = readPool().staff.map((s) => s.museumId);
  } catch {
    // No pool file: nothing was made from it.
  }
  const prefix = sqlString(E2E_SLUG_PREFIX);
  const listed = poolIds.length > 0 ? `id IN (${poolIds.join(", ")}) OR ` : "";
  const [inDirectory = []] = d1QueryAll(`SELECT id FROM museums WHERE ${listed}substr(slug, 1, length(${prefix})) = ${prefix};`, e2eTarget, "DIRECTORY");
  let deleted = 0;
  for (const { binding } of shardBindings()) deleted += deleteOnShard(binding, listed, prefix);
  if (inDirectory.length > 0) d1QueryAll(`DELETE FROM museums WHERE id IN (${inDirectory.map((m) => Number(m.id)).join(", ")});`, e2eTarget, "DIRECTORY");
  return Math.max(deleted, inDirectory.length);
}

/** deleteE2eMuseums' work on one shard: its e2e museums deleted, and nothing of theirs left. */
function deleteOnShard(binding, listed, prefix) {
  const [museums = [], users = [], columns = []] = d1QueryAll(
    `SELECT id FROM museums WHERE ${listed}substr(slug, 1, length(${prefix})) = ${prefix};\n` +
      `SELECT users.id AS id FROM users JOIN museums ON museums.id = users.museum_id WHERE ${listed.replaceAll("id IN", "museums.id IN")}substr(museums.slug, 1, length(${prefix})) = ${prefix};\n` +
      "SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c ON c.name = 'museum_id' WHERE m.type = 'table' AND m.name NOT LIKE '\\_%' ESCAPE '\\';",
    e2eTarget,
    binding,
  );
  const owned = [...new Set([...OWNED, ...columns.map((t) => String(t.name))])];
  const ids = museums.map((m) => Number(m.id));
  const userIds = users.map((u) => Number(u.id));
  if (ids.length === 0) return 0;
  const inIds = `(${ids.join(", ")})`;
  // One row of totals (D1 refuses a compound SELECT of this many terms); named per museum only when not empty.
  const totals = [
    ...owned.map((table) => `(SELECT COUNT(*) FROM ${table} WHERE museum_id IN ${inIds}) AS ${table}`),
    `(SELECT COUNT(*) FROM sessions WHERE user_id IN (${userIds.length > 0 ? userIds.join(", ") : "NULL"})) AS sessions`,
  ].join(", ");
  // scan_events and translation_claims (a visitor's translation under way) have no foreign key at all; a museum's
  // visitor_changes row (decision 132) is written by the triggers of its own deletion, so it goes after it.
  const results = d1QueryAll(
    `DELETE FROM scan_events WHERE museum_id IN ${inIds};\nDELETE FROM translation_claims WHERE museum_id IN ${inIds};\nDELETE FROM museums WHERE id IN ${inIds};\nDELETE FROM visitor_changes WHERE museum_id IN ${inIds};\nSELECT ${totals};`,
    e2eTarget,
    binding,
  );
  const [row = {}] = results.at(-1) ?? [];
  const left = Object.entries(row).filter(([, n]) => Number(n) > 0);
  if (left.length > 0) {
    const owners = left
      .filter(([table]) => table !== "sessions")
      .map(([table]) => `SELECT '${table}' AS tbl, museum_id AS museum, COUNT(*) AS n FROM ${table} WHERE museum_id IN ${inIds} GROUP BY museum_id;`);
    const detail = owners.length > 0 ? d1QueryAll(owners.join("\n"), e2eTarget, binding).flat() : [];
    throw new Error(
      `Deleting the e2e museums left rows behind on ${binding}: ${JSON.stringify(Object.fromEntries(left))} ${JSON.stringify(detail.slice(0, 20))}`,
    );
  }
  return ids.length;
}

// `node tests/e2e/staff-pool.mjs`: a fresh state directory, migrated, the demo seeded, then the pool.
// `npm test` runs it beside the integration tests (decision 108) and then starts Playwright with
// E2E_POOL_READY set to the run's mark, which this file wrote: the webServer command then keeps that state.
const READY_FILE = join(ROOT, E2E_PERSIST_TO, "ready");
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const mark = process.env.E2E_POOL_READY;
  let ready;
  try {
    ready = Boolean(mark) && readFileSync(READY_FILE, "utf8") === mark && existsSync(POOL_FILE);
  } catch {
    ready = false;
  }
  if (ready) {
    console.log("e2e: the state and staff logins made beside the integration tests are used");
    process.exit(0);
  }
  const t0 = Date.now();
  rmSync(join(ROOT, E2E_PERSIST_TO), { recursive: true, force: true });
  const made = await createPool();
  if (process.env.E2E_POOL_MARK) writeFileSync(READY_FILE, process.env.E2E_POOL_MARK);
  console.log(`e2e: ${made} staff logins ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
