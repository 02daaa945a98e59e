import { env } from "cloudflare:test";
import { expect, it } from "vitest";

// Kept from the busy-test bug of vitest-pool-workers 0.12 (a test that kept D1 busy for longer than Node's 5 s
// keep-alive broke the storage step that followed it with "Network connection lost"; it was patched in
// node_modules until decision 128). The Workers vitest plugin now isolates storage per test file, not per test:
// the tests of one file share it, which this file also pins down, since the other files are written for it.
it("a test that keeps D1 busy for 6 s", { timeout: 30_000 }, async () => {
  const end = Date.now() + 6_000;
  let queries = 0;
  while (Date.now() < end) {
    await env.DB.prepare("SELECT 1").run();
    queries++;
  }
  await env.DB.prepare("CREATE TABLE IF NOT EXISTS rollback_probe (n INTEGER)").run();
  await env.DB.prepare("INSERT INTO rollback_probe (n) VALUES (?)").bind(queries).run();
  await env.KV.put("rollback-probe", String(queries));
  expect(queries).toBeGreaterThan(10);
});

it("is followed by a test whose D1 and KV still answer, on the file's one storage", async () => {
  const row = await env.DB.prepare("SELECT n FROM rollback_probe").first<{ n: number }>();
  expect(row?.n).toBeGreaterThan(10);
  expect(await env.KV.get("rollback-probe")).toBe(String(row?.n));
  await env.DB.prepare("DROP TABLE rollback_probe").run();
  const gone = await env.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'rollback_probe'").first();
  expect(gone).toBeNull();
});
