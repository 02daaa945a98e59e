import { defineConfig, devices } from "@playwright/test";
import { findBrowser } from "./scripts/browser.mjs";
import { E2E_PERSIST_TO } from "./tests/e2e/server";

const PORT = Number(process.env.E2E_PORT ?? 8790);
const baseURL = `http://localhost:${PORT}`;

// Runs against the production build under `wrangler dev` with its own fresh state directory, in the
// chromium scripts/browser.mjs finds (CHROME_PATH, Debian's, or Playwright's cache). `npm test` builds
// before this runs and installs a browser when there is none.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // One browser: with two, one worker's `wrangler d1 execute` (its staff pool) can lock the dev server's SQLite
  // file while the other worker's request reads it (SQLITE_BUSY, a 500). The suite runs beside the unit tests
  // and the deploy rehearsal instead (scripts/test.mjs).
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    locale: "fr-FR",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: findBrowser()?.path,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], locale: "fr-FR" } }],
  webServer: {
    command: `rm -rf ${E2E_PERSIST_TO} && node scripts/start.mjs --no-build --persist-to ${E2E_PERSIST_TO}`,
    env: { PORT: String(PORT) },
    url: `${baseURL}/session`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
