// A checkout path with spaces and accents (`/home/hélène/mes projets/…`) must run the integration suite. The
// Workers vitest integration 0.12 died there before any test ("No such module cloudflare:test-internal",
// workers-sdk #14655) and was patched in node_modules until decision 128; the release in use carries the fix
// (PR #14713). This runs the plugin for real on a one-test project under such a path, so a regression shows here
// and not only in CI's clone under `…/le musée dépôt/`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib.mjs";

const base = mkdtempSync(join(tmpdir(), "muselingo-accents-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it("runs a Worker test in workerd from a folder named `le musée dépôt/Hélène`", { timeout: 120_000 }, () => {
  const dir = join(base, "le musée dépôt", "Hélène");
  mkdirSync(join(dir, "test"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "accents", private: true, type: "module" }));
  writeFileSync(
    join(dir, "wrangler.toml"),
    'name = "accents"\nmain = "worker.ts"\ncompatibility_date = "2025-09-01"\n\n[[kv_namespaces]]\nbinding = "KV"\nid = "kv"\n',
  );
  writeFileSync(
    join(dir, "worker.ts"),
    'export default { async fetch(request: Request, env: { KV: KVNamespace }) { await env.KV.put("k", "é"); return new Response(`bonjour ${await env.KV.get("k")}`); } };\n',
  );
  writeFileSync(
    join(dir, "vitest.config.ts"),
    'import { cloudflareTest } from "@cloudflare/vitest-plugin";\nimport { defineConfig } from "vitest/config";\n' +
      'export default defineConfig({ plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" } })] });\n',
  );
  writeFileSync(
    join(dir, "test", "hello.test.ts"),
    'import { SELF } from "cloudflare:test";\nimport { expect, it } from "vitest";\n' +
      'it("answers", async () => { expect(await (await SELF.fetch("http://x/")).text()).toBe("bonjour é"); });\n',
  );
  const run = spawnSync(join(ROOT, "node_modules", ".bin", "vitest"), ["run", "--reporter=dot"], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", NO_COLOR: "1" },
  });
  const output = `${run.stdout}\n${run.stderr}`;
  expect(output, output).toMatch(/1 passed/);
  expect(run.status, output).toBe(0);
});
