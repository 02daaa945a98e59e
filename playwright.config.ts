import { defineConfig, devices } from "@playwright/test";
import { findBrowser, CHROMIUM_ARGS } from "./scripts/browser.mjs";
import { E2E_PERSIST_TO } from "./tests/e2e/server";

const PORT = Number(process.env.E2E_PORT ?? 8790);
const baseURL = `http://localhost:${PORT}`;

// Runs against the production build under `wrangler dev` with its own fresh state directory, in the
// chromium scripts/browser.mjs finds (CHROME_PATH, Debian's, or Playwright's cache). `npm test` builds
// before this runs and installs a browser when there is none.
//
// Two workers, every test on its own (decision 080): each test has a museum and a login of its own, claimed
// from a pool written before the server starts (tests/e2e/staff-pool.mjs), so no test runs wrangler against
// the server's SQLite file while the other worker's requests read it (that made SQLITE_BUSY 500s). A test
// that must write the database straight uses fixtures.ts's writeD1, which waits until no other test runs.
// E2E_WORKERS=1 runs everything in one browser.
const workers = Number(process.env.E2E_WORKERS || 2);

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers,
  globalTeardown: "./tests/e2e/global-teardown.ts",
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // Two browsers and the server share two cores (and, on this machine, other people's work): a journey takes
  // longer than alone. The limits only matter to a test that would fail anyway.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    locale: "fr-FR",
    // With retries (CI), the trace of the retry: recording every test's trace (DOM snapshots and screencast
    // at each action) to throw it away when it passes cost the whole suite time (decision 108). Without
    // retries, kept for a failure as before. E2E_TRACE chooses (on, off, retain-on-failure…).
    trace:
      (process.env.E2E_TRACE as "on" | "off" | "retain-on-failure" | "on-first-retry" | undefined) ?? (process.env.CI ? "on-first-retry" : "retain-on-failure"),
    launchOptions: {
      // The headless shell when there is one (decision 139): a third less CPU than the full browser, headless alike.
      executablePath: findBrowser({ shell: true })?.path,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], locale: "fr-FR" } }],
  webServer: {
    // A fresh state directory with the demo museum and the staff pool, then the server on it.
    command: `node tests/e2e/staff-pool.mjs && node scripts/start.mjs --no-build --persist-to ${E2E_PERSIST_TO}`,
    env: { PORT: String(PORT) },
    url: `${baseURL}/session`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
