// Makes the installed @cloudflare/vitest-pool-workers work in a checkout whose path holds non-ASCII
// characters (`/home/hélène/…`, `/tmp/x/le musée dépôt/…`).
//
// The bug (cloudflare/workers-sdk#14655): the pool's module-fallback service answers workerd with a redirect
// whose `Location` header is the raw file path, and hands workerd the runner's data (which holds the cwd)
// in the `MF-Vitest-Worker-Data` header. Header values are bytes: "é" goes out as the Latin-1 byte 0xE9,
// workerd asks for `mus%E9e`, no such file exists, and the integration suite dies before any test with
// `No such module "cloudflare:test-internal"`. The fix (workers-sdk PR #14713, commit de34449616, first
// released in 0.18.7) percent-encodes both values and decodes them on the other side. Releases carrying it
// need vitest 4 and a wrangler/miniflare that need Node 22; this machine runs Node 20, and 0.12.21 is the last
// release for vitest 3 (docs/decisions/028-non-ascii-checkout-path.md). So this script applies the same change to
// the installed dist, mirroring the PR hunk by hunk:
//   - pool/module-fallback: `encodeRedirectLocation` (only paths with bytes outside printable ASCII are
//     encoded, `%` first so the transform reverses exactly, under a sentinel prefix), `decodeEncodedSpecifier`
//     for the specifier and referrer workerd sends back, and the module's `name` kept as the raw specifier
//     workerd asked for (workerd rejects a module whose name differs from its request);
//   - pool/index: the `MF-Vitest-Worker-Data` header value encoded; worker/index: decoded.
// The header is encoded the same reversible way as the redirect (only `%` and bytes outside printable ASCII),
// not with a whole `encodeURIComponent` as upstream: `decodeURIComponent` undoes both, and an ASCII checkout's
// header stays byte for byte what it was.
//
// Idempotent: each edit is recognised by its marker and applied once. A release that already has the upstream
// fix is left alone. Anything else (a dist that changed shape) stops with an error naming the edit that did not
// match: a silent no-op would bring the bug back unseen. Files are replaced by rename, never written in place,
// because node_modules may be hard-linked into other checkouts (npm's cache, git worktrees).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const MARKER = "muselingo-patch:workers-sdk#14713";
const UPSTREAM_FIX = "__mf_vitest_encoded__";

// The helpers injected into the pool's dist, written here as real functions so tests can call the very code
// that is injected (their source is copied with Function.prototype.toString). Self-contained on purpose.
const ENCODED_PATH_PREFIX = "/__muselingo_encoded__";

/** A redirect target safe for a `Location` header: unchanged when printable ASCII, else prefixed and encoded. */
export function encodeRedirectLocation(filePath) {
  if (!/[^\x20-\x7E]/u.test(filePath)) return filePath;
  return ENCODED_PATH_PREFIX + filePath.replace(/%/g, "%25").replace(/[^\x20-\x7E]/gu, (c) => encodeURIComponent(c));
}

/** Inverts encodeRedirectLocation for the values it produced (recognised by the prefix); others unchanged. */
export function decodeEncodedSpecifier(value) {
  return value.startsWith(ENCODED_PATH_PREFIX) ? decodeURIComponent(value.slice(ENCODED_PATH_PREFIX.length)) : value;
}

/** A header value in printable ASCII; `decodeURIComponent` restores it exactly. */
export function encodeHeaderValue(value) {
  return value.replace(/%/g, "%25").replace(/[^\x20-\x7E]/gu, (c) => encodeURIComponent(c));
}

const HELPERS =
  `/* ${MARKER} */\nvar ENCODED_PATH_PREFIX = ${JSON.stringify(ENCODED_PATH_PREFIX)};\n` +
  [encodeRedirectLocation, decodeEncodedSpecifier, encodeHeaderValue].map((fn) => `${fn.toString()}\n`).join("");

/** Each edit: the exact text of 0.12.21's dist, its replacement, and how many times the text occurs. */
export const EDITS = [
  {
    file: "dist/pool/index.mjs",
    name: "helpers before buildRedirectResponse",
    find: "function buildRedirectResponse(filePath) {\n",
    replace: `${HELPERS}function buildRedirectResponse(filePath) {\n`,
  },
  {
    file: "dist/pool/index.mjs",
    name: "redirect Location percent-encoded",
    find: "return new Response2(null, { status: 301, headers: { Location: filePath } });",
    replace: `return new Response2(null, { status: 301, headers: { Location: encodeRedirectLocation(filePath) } }); /* ${MARKER} */`,
  },
  {
    file: "dist/pool/index.mjs",
    name: "load() takes the raw specifier",
    find: "async function load(vite, logBase, method, target, specifier, filePath) {",
    replace: `async function load(vite, logBase, method, target, rawTarget, specifier, filePath) { /* ${MARKER} */`,
  },
  {
    file: "dist/pool/index.mjs",
    name: "module name is the raw specifier",
    find: "return buildModuleResponse(target, ",
    replace: "return buildModuleResponse(rawTarget, ",
    count: 5,
  },
  {
    file: "dist/pool/index.mjs",
    name: "specifier and referrer decoded",
    find:
      '  let target = url.searchParams.get("specifier");\n' +
      '  let referrer = url.searchParams.get("referrer");\n' +
      '  assert3(target !== null, "Expected specifier search param");\n' +
      '  assert3(referrer !== null, "Expected referrer search param");\n',
    replace:
      `  /* ${MARKER} */\n` +
      '  const rawSpecifierParam = url.searchParams.get("specifier");\n' +
      '  let referrer = url.searchParams.get("referrer");\n' +
      '  assert3(rawSpecifierParam !== null, "Expected specifier search param");\n' +
      '  assert3(referrer !== null, "Expected referrer search param");\n' +
      "  let target = decodeEncodedSpecifier(rawSpecifierParam);\n" +
      "  let rawTarget = rawSpecifierParam;\n" +
      "  referrer = decodeEncodedSpecifier(referrer);\n",
  },
  {
    file: "dist/pool/index.mjs",
    name: "raw specifier rooted like the target on Windows",
    find: '    if (target[0] === "/") {\n      target = target.substring(1);\n    }\n    if (referrer[0] === "/") {',
    replace:
      '    if (target[0] === "/") {\n      target = target.substring(1);\n    }\n' +
      `    if (rawTarget[0] === "/") { /* ${MARKER} */\n      rawTarget = rawTarget.substring(1);\n    }\n` +
      '    if (referrer[0] === "/") {',
  },
  {
    file: "dist/pool/index.mjs",
    name: "load() called with the raw specifier",
    find: "return await load(vite, logBase, method, target, specifier, filePath);",
    replace: `return await load(vite, logBase, method, target, rawTarget, specifier, filePath); /* ${MARKER} */`,
  },
  {
    file: "dist/pool/index.mjs",
    name: "MF-Vitest-Worker-Data encoded",
    find:
      '      "MF-Vitest-Worker-Data": structuredSerializableStringify({\n' +
      "        filePath: pathToFileURL2(workerPath).href,\n" +
      "        name: method,\n" +
      "        data,\n" +
      "        cwd: process.cwd()\n" +
      "      })\n",
    replace:
      `      "MF-Vitest-Worker-Data": /* ${MARKER} */ encodeHeaderValue(structuredSerializableStringify({\n` +
      "        filePath: pathToFileURL2(workerPath).href,\n" +
      "        name: method,\n" +
      "        data,\n" +
      "        cwd: process.cwd()\n" +
      "      }))\n",
  },
  {
    file: "dist/worker/index.mjs",
    name: "MF-Vitest-Worker-Data decoded",
    find: "const wd = structuredSerializableParse(workerDataHeader);",
    replace: `const wd = structuredSerializableParse(decodeURIComponent(workerDataHeader)); /* ${MARKER} */`,
  },
];

export class PatchError extends Error {}

function occurrences(text, needle) {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Applies EDITS to the package in `packageDir`. Returns "patched", "already-patched" or "upstream-fixed".
 * Throws PatchError, before writing anything, when an edit's text is neither there nor already replaced.
 */
export function patchVitestPoolWorkers(packageDir) {
  const files = [...new Set(EDITS.map((edit) => edit.file))];
  const texts = new Map();
  for (const file of files) {
    const path = join(packageDir, file);
    if (!existsSync(path)) throw new PatchError(`${path} is missing: is @cloudflare/vitest-pool-workers installed (npm ci)?`);
    texts.set(file, readFileSync(path, "utf8"));
  }
  if (texts.get("dist/pool/index.mjs").includes(UPSTREAM_FIX)) return "upstream-fixed";

  const changed = new Set();
  for (const edit of EDITS) {
    const text = texts.get(edit.file);
    const want = edit.count ?? 1;
    const done = occurrences(text, edit.replace);
    const todo = occurrences(text, edit.find);
    if (done === want && (todo === 0 || edit.replace.includes(edit.find))) continue;
    if (todo !== want || done !== 0) {
      throw new PatchError(
        `Cannot apply "${edit.name}" to ${join(packageDir, edit.file)}: expected its text ${want} time(s), found ${todo} ` +
          `(and ${done} already patched). The installed @cloudflare/vitest-pool-workers is not the 0.12.21 dist this patch ` +
          "mirrors PR #14713 onto; see docs/decisions/028-non-ascii-checkout-path.md.",
      );
    }
    texts.set(edit.file, text.split(edit.find).join(edit.replace));
    changed.add(edit.file);
  }
  for (const file of changed) {
    const path = join(packageDir, file);
    const temp = `${path}.muselingo-${process.pid}.tmp`;
    writeFileSync(temp, texts.get(file));
    renameSync(temp, path);
  }
  return changed.size > 0 ? "patched" : "already-patched";
}

/** The package installed beside this repository. */
export function defaultPackageDir() {
  return join(fileURLToPath(new URL("..", import.meta.url)), "node_modules", "@cloudflare", "vitest-pool-workers");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const result = patchVitestPoolWorkers(process.argv[2] ?? defaultPackageDir());
    if (result === "patched") console.log("Patched @cloudflare/vitest-pool-workers for non-ASCII checkout paths (workers-sdk #14713).");
  } catch (error) {
    console.error(`Error: ${error.message}`);
    process.exit(1);
  }
}
