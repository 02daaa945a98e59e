// `npm test`: build, then every suite (unit, integration in workerd, the deploy rehearsal, end-to-end in
// chromium), then one closing line with the totals. Exits non-zero if any suite fails.
//
// After the build, the integration suite runs in front, with the unit tests, then the deploy rehearsal, and the making
// of the end-to-end suite's state beside it; then the end-to-end suite (decisions 080, 108, 140). What runs beside
// goes to a file, printed once the suite in front is done, so outputs never interleave. `TEST_LANES=1` runs
// everything in turn instead.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBrowser } from "./browser.mjs";
import { build, quietEnv, ROOT } from "./lib.mjs";
import { ensureZbar } from "./zbar.mjs";
import { closingLine, playwrightCounts, vitestCounts } from "./test-report.mjs";

const bin = (name) => join(ROOT, "node_modules", ".bin", name);
// Not under test-results/: Playwright empties that folder as it starts, and the suites beside it write here.
const reports = join(ROOT, "test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const started = Date.now();
// The Node every suite runs on: the project's own (node_modules/.bin/node, from the node-<platform> packages,
// decision 128) when started through npm, which puts node_modules/.bin first on PATH.
console.log(`Node ${process.version} (${process.execPath})`);
// Found (or installed) first, so a missing browser shows up before minutes of other suites.
let browser = null;
let browserError = null;
try {
  browser = ensureBrowser({ cwd: ROOT });
  console.log(`End-to-end browser: ${browser.path} (${browser.source})`);
} catch (error) {
  browserError = error.message;
  console.error(browserError);
}

// The QR code reader test's zbarimg, found or installed before minutes of other suites (issue 29).
try {
  console.log(`QR code reader: ${ensureZbar({ cwd: ROOT })}`);
} catch (error) {
  console.error(`Error: ${error.message}`);
  process.exit(1);
}

// The end-to-end suite's fresh state (migrations, the demo museum, the staff pool: decisions 080, 108) needs no
// build: it is made while the build runs, which leaves a core idle a quarter of its time (decision 140). Its mark
// tells the webServer command to keep that state; should it fail, the webServer makes it again.
const inLanes = process.env.TEST_LANES !== "1";
const mark = randomBytes(8).toString("hex");
const prep =
  inLanes && browser
    ? runBeside({ name: "e2e-prep", cmd: process.execPath, args: ["tests/e2e/staff-pool.mjs"], env: { E2E_POOL_MARK: mark }, report: "none" })
    : null;

console.log("Building…");
build();

const suites = [
  {
    name: "unit",
    cmd: bin("vitest"),
    args: ["run", "--config", "vitest.unit.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${join(reports, "unit.json")}`],
    report: "unit.json",
  },
  {
    name: "integration",
    cmd: bin("vitest"),
    args: ["run", "--config", "vitest.integration.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${join(reports, "integration.json")}`],
    report: "integration.json",
  },
  {
    // The deploy rehearsal: real wrangler against a fake Cloudflare API (tests/deploy/).
    name: "deploy",
    cmd: bin("vitest"),
    args: ["run", "--config", "vitest.deploy.config.ts", "--reporter=default", "--reporter=json", `--outputFile=${join(reports, "deploy.json")}`],
    report: "deploy.json",
  },
  {
    name: "e2e",
    cmd: bin("playwright"),
    args: ["test", "--reporter=list,json"],
    // No CHROME_PATH passed on: playwright.config.ts finds the same browser (findBrowser, shell first), and a file
    // that needs the full browser can still find it (decision 139).
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, "e2e.json") },
    report: "e2e.json",
    blocker: browserError,
  },
];

/** A suite's counts from its JSON report; a test that passed only on its retry is flaky, not passed (decision 122). */
function counts(suite) {
  try {
    const data = JSON.parse(readFileSync(join(reports, suite.report), "utf8"));
    return suite.name === "e2e" ? playwrightCounts(data) : vitestCounts(data);
  } catch {
    return null;
  }
}

/** Runs a suite in front, its output on this terminal; resolves with its result. */
function runInTurn(suite) {
  console.log(`\n=== ${suite.name} ===`);
  if (suite.blocker) {
    // Counted as a failure, never skipped: a run without the end-to-end suite is not a green run.
    console.error(`Not run: ${suite.blocker}`);
    return Promise.resolve({ name: suite.name, ok: false, seconds: 0, counts: null });
  }
  const t0 = Date.now();
  const child = spawn(suite.cmd, suite.args, { cwd: ROOT, env: { ...quietEnv, ...suite.env }, stdio: "inherit" });
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ name: suite.name, ok: code === 0, seconds: (Date.now() - t0) / 1000, counts: counts(suite) }));
  });
}

/** Starts a suite in the background, its output going to a log file; resolves with its result. */
function runBeside(suite) {
  if (suite.blocker) return Promise.resolve({ name: suite.name, ok: false, seconds: 0, counts: null, log: null, blocker: suite.blocker });
  const log = join(reports, `${suite.name}.log`);
  const fd = openSync(log, "w");
  const t0 = Date.now();
  const child = spawn(suite.cmd, suite.args, { cwd: ROOT, env: { ...quietEnv, ...suite.env }, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ name: suite.name, ok: code === 0, seconds: (Date.now() - t0) / 1000, counts: counts(suite), log }));
  });
}

/** A suite that ran beside: its log printed now, its result kept. */
function report(finished) {
  console.log(`\n=== ${finished.name} ===`);
  if (finished.blocker) console.error(`Not run: ${finished.blocker}`);
  else process.stdout.write(readFileSync(finished.log, "utf8"));
  results.push({ name: finished.name, ok: finished.ok, seconds: finished.seconds, counts: finished.counts });
}

const results = [];
const byName = (name) => suites.find((s) => s.name === name);
if (!inLanes) {
  for (const suite of suites) results.push(await runInTurn(suite));
} else {
  // Two phases on two cores (decision 140, measured with the machine's idle time every 5 s):
  // 1. the integration suite (two workerd runtimes) in front; beside it, one lane of the unit tests (one vitest
  //    worker) then the deploy rehearsal (wrangler starts), and what is left of the e2e state's making. The
  //    integration suite alone leaves a core idle a sixth of its time; the browsers of phase 2 leave almost none.
  // 2. the end-to-end suite (two browsers against one dev server), beside whatever of the lane is left.
  const unit = byName("unit");
  const lane = (async () => {
    const unitDone = await runBeside({ ...unit, args: [...unit.args, "--maxWorkers=1"] });
    return [unitDone, await runBeside(byName("deploy"))];
  })();
  results.push(await runInTurn(byName("integration")));
  const prepared = prep ? await prep : null;
  if (prepared && !prepared.ok)
    console.error(
      `The e2e state could not be made beside the build and the integration tests; Playwright's server command makes it:\n${readFileSync(prepared.log, "utf8")}`,
    );
  const e2e = byName("e2e");
  const e2eRun = runBeside(prepared?.ok ? { ...e2e, env: { ...e2e.env, E2E_POOL_READY: mark } } : e2e);
  console.log("\n(the unit tests and the deploy rehearsal ran beside; e2e runs now, its output follows theirs)");
  for (const finished of await lane) report(finished);
  report(await e2eRun);
}

console.log("\n=== summary ===");
const total = { passed: 0, flaky: 0, failed: 0, skipped: 0 };
const flakyNames = [];
const failedNames = [];
for (const r of results) {
  const c = r.counts ?? { passed: 0, flaky: 0, failed: r.ok ? 0 : 1, skipped: 0, flakyNames: [], failedNames: [] };
  total.passed += c.passed;
  total.flaky += c.flaky;
  total.failed += c.failed + (r.ok || c.failed > 0 ? 0 : 1);
  total.skipped += c.skipped;
  for (const name of c.flakyNames) flakyNames.push(`${r.name}: ${name}`);
  for (const name of c.failedNames) failedNames.push(`${r.name}: ${name}`);
  console.log(`${r.name.padEnd(12)} ${r.ok ? "ok    " : "FAILED"} ${c.passed} passed, ${c.flaky} flaky, ${c.failed} failed (${r.seconds.toFixed(1)} s)`);
}
// Passed only on a retry: each by name, so a defect that CI's retry hides is seen (decision 122).
if (flakyNames.length > 0) {
  console.log(`\nflaky (failed, then passed on the retry):`);
  for (const name of flakyNames) console.log(`  ${name}`);
}
// Failed: each by name and the first line of its error, here at the end where a truncated CI log still shows it.
if (failedNames.length > 0) {
  console.log(`\nfailed:`);
  for (const name of failedNames) console.log(`  ${name}`);
}
console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(closingLine(total));
process.exit(results.every((r) => r.ok) ? 0 : 1);
