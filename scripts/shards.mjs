// The shards' set-up shared by the scripts and the tests (decision 142): which D1 bindings wrangler.toml declares,
// and the statement that starts shard k's AUTOINCREMENT counters at k × 2⁴⁰, so ids never collide across shards.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** 2⁴⁰: app/shards/keys.ts's SHARD_ID_SPAN. */
export const SHARD_ID_SPAN = 2 ** 40;

/**
 * Starts every AUTOINCREMENT counter of shard `k` at k × 2⁴⁰ (never lowers one): run after its migrations, again
 * after any migration that adds such a table. Shard 0 keeps SQLite's own start.
 */
export function shardSeedSql(k) {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`not a shard: ${k}`);
  // Blocks 512 and up are the ones a shard claims to receive a moved museum (decision 143, app/shards/move.ts).
  if (k >= 512) throw new RangeError(`shards are numbered below 512 (blocks 512 and up are the moves'), not ${k}`);
  if (k === 0) return "SELECT 1";
  const first = k * SHARD_ID_SPAN;
  return [
    `INSERT INTO sqlite_sequence (name, seq) SELECT m.name, ${first} FROM sqlite_master m
       WHERE m.type = 'table' AND m.sql LIKE '%AUTOINCREMENT%' AND NOT EXISTS (SELECT 1 FROM sqlite_sequence s WHERE s.name = m.name)`,
    `UPDATE sqlite_sequence SET seq = ${first} WHERE seq < ${first}`,
  ].join(";\n");
}

/** The D1 bindings of a wrangler.toml, in order: `{ binding, database_name, migrations_dir, shard }` (shard null for the directory). */
export function d1Bindings(tomlPath = path.join(ROOT, "wrangler.toml")) {
  const text = readFileSync(tomlPath, "utf8");
  const blocks = text.split(/^\[\[d1_databases\]\]\s*$/m).slice(1);
  return blocks.map((block) => {
    const field = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(block)?.[1] ?? null;
    const binding = field("binding");
    const match = /^DB(?:_([1-9]\d{0,3}))?$/.exec(binding ?? "");
    return {
      binding,
      database_name: field("database_name"),
      database_id: field("database_id"),
      migrations_dir: field("migrations_dir"),
      // "eu": created in the EU jurisdiction (decision 142); null: the default location.
      jurisdiction: field("jurisdiction"),
      shard: match ? (match[1] === undefined ? 0 : Number(match[1])) : null,
    };
  });
}

/** The R2 buckets of a wrangler.toml, in order: `{ binding, bucket_name, jurisdiction }` (jurisdiction null: the default one). */
export function r2Buckets(tomlPath = path.join(ROOT, "wrangler.toml")) {
  const text = readFileSync(tomlPath, "utf8");
  return text
    .split(/^\[\[r2_buckets\]\]\s*$/m)
    .slice(1)
    .map((block) => {
      const body = block.split(/^\[/m)[0];
      const field = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(body)?.[1] ?? null;
      return { binding: field("binding"), bucket_name: field("bucket_name"), jurisdiction: field("jurisdiction") };
    });
}

/** The shards' bindings (`DB`, `DB_1`, …) of the app's wrangler.toml. */
export const shardBindings = () => d1Bindings().filter((b) => b.shard !== null);

/**
 * `[vars] EU_SHARDS` of a wrangler.toml against its d1_databases (decision 149): the Worker cannot read a binding's
 * `jurisdiction`, so the var says which shards are in the EU. Null when they agree, else what differs.
 */
export function euShardsProblem(tomlPath = path.join(ROOT, "wrangler.toml")) {
  const text = readFileSync(tomlPath, "utf8");
  const vars = text.split(/^\[vars\]\s*$/m)[1]?.split(/^\[/m)[0] ?? "";
  const raw = /^EU_SHARDS\s*=\s*"([^"]*)"/m.exec(vars)?.[1] ?? "";
  const listed = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (listed.some((s) => !/^\d{1,4}$/.test(s))) return `EU_SHARDS must list shard numbers separated by commas, got "${raw}"`;
  const declared = d1Bindings(tomlPath)
    .filter((b) => b.shard !== null && b.jurisdiction === "eu")
    .map((b) => b.shard);
  const a = [...new Set(listed.map(Number))].sort((x, y) => x - y).join(",");
  const b = [...declared].sort((x, y) => x - y).join(",");
  return a === b ? null : `EU_SHARDS is "${raw}" but the d1_databases in the EU jurisdiction are shards "${b}": make them agree`;
}
