// Issue 29 (decision 122): `npm test` counted a test that passed only on its retry as passed and said nothing;
// that is how a refused request breaking the next one hid in CI. The counts now come from real reports of
// both tools: a scratch suite with one test that fails once then passes, one that passes, one that fails,
// run with one retry as CI runs them.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib.mjs";
import { closingLine, playwrightCounts, vitestCounts } from "../../scripts/test-report.mjs";

// Inside the repository (.cache/ is ignored), so the scratch suites resolve vitest and Playwright.
const dir = join(ROOT, ".cache", `flaky-report-${process.pid}`);
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

// Each attempt runs in a fresh process (Playwright) or module (vitest): the first attempt leaves a mark on disk.
const TESTS = (importFrom: string, retryMark: string) => `
import { test, expect } from "${importFrom}";
import { existsSync, writeFileSync } from "node:fs";
const mark = ${JSON.stringify(retryMark)};
test("fails once then passes", () => {
  if (!existsSync(mark)) { writeFileSync(mark, "1"); expect("first attempt").toBe("a pass"); }
});
test("passes at once", () => { expect(1).toBe(1); });
test("always fails", () => { expect(1).toBe(2); });
`;

beforeAll(() => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "scratch.test.mjs"), TESTS("vitest", join(dir, "vitest-mark")));
  writeFileSync(join(dir, "vitest.config.mjs"), `export default { test: { include: ["scratch.test.mjs"], retry: 1 } };\n`);
  writeFileSync(join(dir, "scratch.spec.mjs"), TESTS("@playwright/test", join(dir, "playwright-mark")));
  writeFileSync(
    join(dir, "playwright.config.mjs"),
    `export default { testDir: ".", testMatch: "scratch.spec.mjs", retries: 1, workers: 1, outputDir: "./pw-output" };\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm test's counts", () => {
  it("a vitest test that passed only on its retry is flaky, by name", () => {
    const run = spawnSync(bin("vitest"), ["run", "--config", "vitest.config.mjs", "--reporter=json", "--outputFile=vitest.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, "vitest.json"), "utf8"));
    const counts = vitestCounts(report);
    expect(counts).toEqual({
      passed: 1,
      flaky: 1,
      failed: 1,
      skipped: 0,
      flakyNames: [expect.stringMatching(/scratch\.test\.mjs > fails once then passes$/)],
      // A failure is named with the first line of its error: CI's page shows only the log's end.
      failedNames: [expect.stringMatching(/scratch\.test\.mjs > always fails — AssertionError: expected 1 to be 2/)],
    });
    expect(closingLine(counts)).toBe("1 passed, 1 flaky, 1 failed");
  });

  it("a Playwright test with a failure then a pass is flaky, by name", () => {
    const run = spawnSync(bin("playwright"), ["test", "--config", "playwright.config.mjs", "--reporter=json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: join(dir, "e2e.json") },
    });
    expect(run.status).toBe(1);
    const counts = playwrightCounts(JSON.parse(readFileSync(join(dir, "e2e.json"), "utf8")));
    expect(counts).toEqual({
      passed: 1,
      flaky: 1,
      failed: 1,
      skipped: 0,
      flakyNames: ["scratch.spec.mjs > fails once then passes"],
      failedNames: [expect.stringMatching(/^scratch\.spec\.mjs > always fails — Error: expect\(received\)\.toBe\(expected\)/)],
    });
    expect(closingLine({ ...counts, skipped: 2 })).toBe("1 passed, 1 flaky, 1 failed, 2 skipped");
  });
});
