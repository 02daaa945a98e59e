import { env } from "cloudflare:test";
import { expect, it } from "vitest";

// Guards scripts/patch-miniflare-loopback.mjs: a test that keeps D1 busy for longer than Node's default 5 s
// keep-alive used to fail afterwards, when the pool rolled its storage back ("Network connection lost").
it("a test that keeps D1 busy for 6 s still has its storage rolled back", { timeout: 30_000 }, async () => {
  const end = Date.now() + 6_000;
  let queries = 0;
  while (Date.now() < end) {
    await env.DB.prepare("SELECT 1").run();
    queries++;
  }
  await env.DB.prepare("CREATE TABLE IF NOT EXISTS rollback_probe (n INTEGER)").run();
  expect(queries).toBeGreaterThan(10);
});

it("and the table that test made is gone: its storage was rolled back", async () => {
  const row = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'rollback_probe'").first();
  expect(row).toBeNull();
});
