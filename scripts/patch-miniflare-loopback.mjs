// Keeps miniflare's loopback server from closing idle keep-alive connections after Node's default 5 s.
//
// The bug: vitest-pool-workers rolls each test's isolated storage back with a fetch from workerd to
// miniflare's loopback HTTP server (Node, `http.createServer`, keepAliveTimeout 5,000 ms by default).
// workerd reuses the pooled connection the storage push opened at the test's start. After a test that kept
// workerd busy (D1 traffic) for more than 5 s, Node has closed that idle socket and workerd, busy, has not yet
// seen the FIN: the rollback fetch fails with "Network connection lost" (updateStackedStorage). Reproduced
// here: a test looping on `SELECT 1` for 8 s failed 4 of 4; with this patch 4 of 4 passed; an idle 12 s
// test always passed. The fuzz, upload and 50-concurrent-request tests were its victims (workers-sdk #11031
// reports the same symptom). The loopback server listens on localhost for the test run only, so keeping its
// connections for 10 minutes costs nothing.
//
// Idempotent, recognised by its marker; stops with an error when the text to change is not found (a silent
// no-op would bring the failures back). Replaces the file by rename: node_modules may be hard-linked.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const LOOPBACK_MARKER = "muselingo-patch:loopback-keepalive";
const FIND = '      server.on("upgrade", this.#handleLoopbackUpgrade);\n      server.listen(0, hostname, () => resolve6(server));';
const REPLACE =
  '      server.on("upgrade", this.#handleLoopbackUpgrade);\n' +
  `      server.keepAliveTimeout = 600000; /* ${LOOPBACK_MARKER} */\n` +
  "      server.listen(0, hostname, () => resolve6(server));";

export class LoopbackPatchError extends Error {}

/** Patches miniflare's dist at `indexPath`. Returns "patched" or "already-patched"; throws LoopbackPatchError. */
export function patchMiniflareLoopback(indexPath) {
  if (!existsSync(indexPath)) throw new LoopbackPatchError(`${indexPath} is missing: is miniflare installed (npm ci)?`);
  const text = readFileSync(indexPath, "utf8");
  if (text.includes(LOOPBACK_MARKER)) return "already-patched";
  const found = text.split(FIND).length - 1;
  if (found !== 1) {
    throw new LoopbackPatchError(
      `Cannot set the loopback server's keep-alive in ${indexPath}: expected its text once, found it ${found} time(s). ` +
        "The installed miniflare changed shape; see scripts/patch-miniflare-loopback.mjs.",
    );
  }
  const temp = `${indexPath}.muselingo-${process.pid}.tmp`;
  writeFileSync(temp, text.replace(FIND, REPLACE));
  renameSync(temp, indexPath);
  return "patched";
}

/** The miniflare the installed vitest-pool-workers loads (its own dependency, resolved from its folder). */
export function defaultMiniflareIndex() {
  const pool = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules", "@cloudflare", "vitest-pool-workers", "package.json");
  return createRequire(pool).resolve("miniflare");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (patchMiniflareLoopback(process.argv[2] ?? defaultMiniflareIndex()) === "patched") console.log("Patched miniflare's loopback keep-alive for the integration tests.");
  } catch (error) {
    console.error(`Error: ${error.message}`);
    process.exit(1);
  }
}
