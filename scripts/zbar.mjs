// Finds zbarimg (Debian's zbar-tools), the QR code reader the tests use beside jsQR: it does not try inverted
// codes, as many phone readers don't, so a code it reads is one common readers read (issue 29). Installs it on
// a fresh machine where it can (root and apt-get), as scripts/browser.mjs does for chromium.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const APT_INSTALL_ZBAR = "apt-get update && apt-get install -y zbar-tools";

/** The path of zbarimg on PATH, or null. */
export function findZbar(env = process.env) {
  const found = spawnSync("sh", ["-c", "command -v zbarimg"], { encoding: "utf8", env });
  const path = found.status === 0 ? found.stdout.trim() : "";
  return path || null;
}

/** Finds zbarimg, installing it with apt-get as root when absent; throws with the exact command when it cannot. */
export function ensureZbar({ cwd = process.cwd(), log = console.log, isRoot = process.getuid?.() === 0, hasApt = existsSync("/usr/bin/apt-get") } = {}) {
  const found = findZbar();
  if (found) return found;
  if (isRoot && hasApt) {
    log(`No zbarimg found for the QR code reader test; installing it with: ${APT_INSTALL_ZBAR}`);
    spawnSync("sh", ["-c", APT_INSTALL_ZBAR], { cwd, stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    const after = findZbar();
    if (after) return after;
  }
  throw new Error(`Could not find zbarimg for the QR code reader test. Run this as root, then npm test again:\n  ${APT_INSTALL_ZBAR}`);
}
