import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { euShardsProblem } from "../../scripts/shards.mjs";

// The Worker reads which shards are in the EU from [vars] EU_SHARDS; `npm run deploy` refuses a wrangler.toml whose
// list differs from its d1_databases' `jurisdiction` (decision 149).
const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
const variant = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), "eu-shards-")), "wrangler.toml");
  writeFileSync(file, text);
  return file;
};

describe("EU_SHARDS against the d1_databases", () => {
  it("agree in the repository's wrangler.toml", () => {
    expect(euShardsProblem()).toBeNull();
  });

  it("name what differs: a shard missing, one too many, a malformed list", () => {
    expect(euShardsProblem(variant(toml.replace('EU_SHARDS = "2"', 'EU_SHARDS = ""')))).toMatch(/EU_SHARDS is "" but .* shards "2"/);
    expect(euShardsProblem(variant(toml.replace('EU_SHARDS = "2"', 'EU_SHARDS = "1,2"')))).toMatch(/make them agree/);
    expect(euShardsProblem(variant(toml.replace('EU_SHARDS = "2"', 'EU_SHARDS = "two"')))).toMatch(/must list shard numbers/);
    expect(euShardsProblem(variant(toml.replace('EU_SHARDS = "2"', 'EU_SHARDS = " 2 , 2"')))).toBeNull();
  });
});
