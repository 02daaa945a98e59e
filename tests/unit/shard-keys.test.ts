import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIRECTORY_MIGRATIONS } from "~/shards/directory-migrations";
import { bindingOfShard, museumOfToken, museumToken, pathHint, requestHint, SHARD_ID_SPAN, shardOfBinding } from "~/shards/keys";
import { d1Bindings, SHARD_ID_SPAN as SCRIPT_SPAN, shardSeedSql } from "../../scripts/shards.mjs";
import { FIRST_MOVE_BLOCK } from "~/shards/move";

// The pure rules of the shards (decision 142): bindings, id ranges, tokens that name their museum, and what a
// request's path names of its museum before any database is read.

describe("shard bindings and id ranges", () => {
  it("reads DB as shard 0 and DB_k as shard k; nothing else is a shard", () => {
    expect(shardOfBinding("DB")).toBe(0);
    expect(shardOfBinding("DB_2")).toBe(2);
    expect(shardOfBinding("DB_9999")).toBe(9999);
    for (const name of ["DIRECTORY", "DB_0", "DB_01", "DB_10000", "DBX", "MIGRATION_TEST_DB", "db_1"]) expect(shardOfBinding(name), name).toBeNull();
    for (const k of [0, 1, 7, 40]) expect(shardOfBinding(bindingOfShard(k))).toBe(k);
  });

  it("gives each shard 2⁴⁰ ids, exact in JavaScript up to shard 8191; the scripts use the same span", () => {
    expect(SCRIPT_SPAN).toBe(SHARD_ID_SPAN);
    expect(SHARD_ID_SPAN).toBe(1_099_511_627_776);
    expect(Number.isSafeInteger(8191 * SHARD_ID_SPAN + SHARD_ID_SPAN - 1)).toBe(true);
    expect(shardSeedSql(0)).toBe("SELECT 1");
    expect(shardSeedSql(2)).toContain(String(2 * SHARD_ID_SPAN));
    expect(() => shardSeedSql(-1)).toThrow(RangeError);
    // Blocks 512 and up are the ones moves claim (decision 143): no shard starts there.
    expect(shardSeedSql(511)).toContain(String(511 * SHARD_ID_SPAN));
    expect(() => shardSeedSql(FIRST_MOVE_BLOCK)).toThrow(/below 512/);
  });

  it("wrangler.toml and the consumer's declare the same directory and shards", () => {
    const app = d1Bindings();
    const consumer = d1Bindings(join(process.cwd(), "workers/stats-consumer/wrangler.toml"));
    expect(app.map((b) => [b.binding, b.database_name, b.database_id])).toEqual(consumer.map((b) => [b.binding, b.database_name, b.database_id]));
    expect(app.filter((b) => b.shard !== null).map((b) => b.shard)).toEqual([0, 1, 2]);
    expect(app.find((b) => b.binding === "DIRECTORY")?.migrations_dir).toBe("drizzle-directory");
  });

  it("the directory's migration list is the folder's", () => {
    expect([...DIRECTORY_MIGRATIONS]).toEqual(
      readdirSync(join(process.cwd(), "drizzle-directory"))
        .filter((f) => f.endsWith(".sql"))
        .sort(),
    );
  });
});

describe("tokens that name their museum", () => {
  it("round-trips; a token from before shards or a malformed one names none", () => {
    expect(museumOfToken(museumToken(42, "abc_DEF-123"))).toBe(42);
    for (const token of ["abcdef", "0.abc", "01.abc", ".abc", "-3.abc", "99999999999999999.abc", "１２.abc", "12"])
      expect(museumOfToken(token), token).toBeNull();
  });
});

describe("what a request names of its museum", () => {
  it("a scanned code, a tour, a museum's public pages, its files, invitation and reset links", () => {
    expect(pathHint("/r/ab12cd34")).toEqual({ kind: "link", link: "ab12cd34" });
    expect(pathHint("/t/xy/3/languages")).toEqual({ kind: "link", link: "xy" });
    expect(pathHint("/v/musee-d-orsay/amphore")).toEqual({ kind: "slug", slug: "musee-d-orsay" });
    expect(pathHint("/media/m/12/abc.webp")).toEqual({ kind: "museum", museumId: 12 });
    expect(pathHint("/narration/n/7/3/x.wav")).toEqual({ kind: "museum", museumId: 7 });
    expect(pathHint("/invite/5.abcdef")).toEqual({ kind: "museum", museumId: 5 });
    expect(pathHint("/reset/5.abcdef")).toEqual({ kind: "museum", museumId: 5 });
  });

  it("names none for other paths and for broken or odd ones, never throws", () => {
    for (const path of ["/", "/dashboard", "/r/", "/r", "/r/%", "/t/%E0%A4%A", "/media/x/12/a", "/media/m/0/a", "/invite/abc", "/v/", "/api/tree"])
      expect(pathHint(path), path).toEqual({ kind: "none" });
    expect(pathHint("/r/%F0%9F%98%80")).toEqual({ kind: "link", link: "😀" });
  });

  it("the path first, then the session cookie's museum; /vtt by its subtitle file", () => {
    const url = (path: string) => new URL(`https://muselingo.test${path}`);
    expect(requestHint(url("/dashboard"), "9.token")).toEqual({ kind: "museum", museumId: 9 });
    expect(requestHint(url("/dashboard"), "legacytoken")).toEqual({ kind: "none" });
    expect(requestHint(url("/r/abc"), "9.token")).toEqual({ kind: "link", link: "abc" });
    expect(requestHint(url("/vtt?src=/media/m/4/sub.vtt&lang=de"), null)).toEqual({ kind: "museum", museumId: 4 });
    expect(requestHint(url("/vtt?src=https://elsewhere/m/4/x"), null)).toEqual({ kind: "none" });
    expect(requestHint(url("/offline?tour=ab12cd34&lang=fr"), "9.token")).toEqual({ kind: "link", link: "ab12cd34" });
    expect(requestHint(url("/offline?lang=fr"), null)).toEqual({ kind: "none" });
  });
});
