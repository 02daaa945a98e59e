// Finds the chromium the end-to-end tests drive, and installs one on a fresh machine.
// Order: CHROME_PATH, Debian's /usr/bin/chromium, then a chromium in Playwright's own cache. The end-to-end tests
// ask for the headless shell first (`shell: true`, decision 139): Debian's chromium-headless-shell, the same engine
// without the browser's interface, which Playwright itself runs for headless tests; it cut a third of their CPU.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";
/** The flags chromium runs with here: the end-to-end tests (playwright.config.ts, a file in the full browser) and Lighthouse. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-dev-shm-usage",
];
export const DEBIAN_HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
// Both: the tests run in the headless shell, one file and Lighthouse in the full browser.
export const APT_INSTALL = "apt-get update && apt-get install -y chromium chromium-headless-shell";
export const PLAYWRIGHT_INSTALL = "npx playwright install chromium";

/** Playwright's cache: PLAYWRIGHT_BROWSERS_PATH when set, else ~/.cache/ms-playwright. */
export function playwrightCache(env = process.env, home = homedir()) {
  const custom = env.PLAYWRIGHT_BROWSERS_PATH;
  return custom && custom !== "0" ? custom : join(home, ".cache", "ms-playwright");
}

function listDir(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The browser to use, or null when there is none. `exists` and `list` are injectable for tests.
 * A CHROME_PATH that points nowhere is an error rather than a silent fallback: someone asked for it.
 */
export function findBrowser({ env = process.env, home = homedir(), exists = existsSync, list = listDir, shell = false } = {}) {
  if (env.CHROME_PATH) {
    if (!exists(env.CHROME_PATH)) throw new Error(`CHROME_PATH is set to ${env.CHROME_PATH}, which does not exist.`);
    return { path: env.CHROME_PATH, source: "CHROME_PATH" };
  }
  const cache = playwrightCache(env, home);
  if (shell) {
    if (exists(DEBIAN_HEADLESS_SHELL)) return { path: DEBIAN_HEADLESS_SHELL, source: "Debian's chromium-headless-shell" };
    const shells = list(cache)
      .filter((name) => /^chromium_headless_shell-\d+$/.test(name))
      .sort((a, b) => Number(b.split("-")[1]) - Number(a.split("-")[1]));
    for (const build of shells) {
      const path = join(cache, build, "chrome-headless-shell-linux64", "chrome-headless-shell");
      if (exists(path)) return { path, source: "Playwright's cache (headless shell)" };
    }
  }
  if (exists(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: "Debian's chromium" };
  // Newest build first; Playwright names its folder chrome-linux64 since 1.57, chrome-linux before.
  const builds = list(cache)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  for (const build of builds) {
    for (const folder of ["chrome-linux64", "chrome-linux", "chrome-linux-arm64"]) {
      const path = join(cache, build, folder, "chrome");
      if (exists(path)) return { path, source: "Playwright's cache" };
    }
  }
  return null;
}

/** The command that installs a browser here: Debian's package as root, Playwright's download otherwise. */
export function installCommand({ isRoot = process.getuid?.() === 0, hasApt = existsSync("/usr/bin/apt-get") } = {}) {
  return isRoot && hasApt ? APT_INSTALL : PLAYWRIGHT_INSTALL;
}

/**
 * The end-to-end tests' browser (the headless shell first), installing what is missing: also a full chromium,
 * which one file (public-site-flags.spec.ts) and Lighthouse need (decision 139). Throws with the exact command when
 * that fails. `find` and `run` are injectable for tests.
 */
export function ensureBrowser({ cwd = process.cwd(), log = console.log, find = findBrowser, run = undefined } = {}) {
  const ready = () => {
    const shell = find({ shell: true });
    return shell && find() ? shell : null;
  };
  const found = ready();
  if (found) return found;
  const command = installCommand();
  log(`No chromium (or no full chromium beside the headless shell) for the end-to-end tests; installing with: ${command}`);
  const status = run
    ? run(command)
    : spawnSync("sh", ["-c", command], { cwd, stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status;
  const after = status === 0 ? ready() : null;
  if (!after) {
    throw new Error(
      `Could not install chromium for the end-to-end tests. Run this, then npm test again:\n  ${command}\n` +
        `(or point CHROME_PATH at a Chrome or Chromium binary).`,
    );
  }
  return after;
}
