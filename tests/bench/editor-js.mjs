// `npm run bench` (first step): the editor's JavaScript weight (issue 20, decision 077).
// Reads Vite's manifest of the production client build and sums the gzip size of every JavaScript file the
// browser downloads to open `/article?id=…`: entry.client, root, the route module and all their static imports
// (recursively). Fails (exit 1) above the budget. The page language's strings (one JSON file since decision
// 077) are printed apart, with the sum of both; the dashboard's figures are for information only.
//
//   node tests/bench/editor-js.mjs [--no-build] [--json]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, parseOptions, ROOT } from "../../scripts/lib.mjs";

export const BUDGET_KIB = 145;
const CLIENT = join(ROOT, "build", "client");

/** Vite's client manifest: Remix moves it out of build/client (so it is never deployed) when `build.manifest` is on. */
export function viteClientManifest() {
  for (const file of [join(ROOT, "build", ".vite", "client-manifest.json"), join(CLIENT, ".vite", "manifest.json")]) {
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  }
  throw new Error("No Vite client manifest: build first (`npm run build`, with build.manifest in vite.config.ts)");
}

/** The manifest key of a source module (Remix builds route modules as `app/…tsx?__remix-build-client-route`). */
function keyOf(manifest, src) {
  const key = Object.keys(manifest).find((k) => k === src || k.startsWith(`${src}?`));
  if (!key) throw new Error(`${src} is not in the client manifest`);
  return key;
}

/**
 * Every JS file that opening a page downloads before it is interactive: the given sources and their static
 * imports, recursively. Dynamic imports (lazy dialogs, the other locale) are listed apart: they load later, if ever.
 */
export function pageFiles(manifest, sources) {
  const files = new Map();
  const lazy = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.set(chunk.file, { key, name: chunk.name ?? chunk.src ?? key });
    for (const i of chunk.imports ?? []) visit(i);
    for (const d of chunk.dynamicImports ?? []) lazy.add(manifest[d]?.file ?? d);
  };
  for (const src of sources) visit(keyOf(manifest, src));
  for (const f of files.keys()) lazy.delete(f);
  return { files: [...files.keys()], lazy: [...lazy] };
}

export function gzipSize(file) {
  const buf = readFileSync(join(CLIENT, file));
  return { raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length };
}

/** The page language's strings chunk (the dynamic import of locales/{lng}/common.json in app/i18n/client.ts). */
export function localeChunk(manifest, lng) {
  const key = Object.keys(manifest).find((k) => k === `locales/${lng}/common.json`);
  return key ? manifest[key].file : null;
}

/**
 * What opening the page downloads: its JavaScript (the budgeted figure) and, apart, the page language's
 * strings (a JSON file since decision 077, cached a year; before, both languages were JavaScript).
 */
export function measurePage(manifest, routeSrc, lng = "fr") {
  const { files, lazy } = pageFiles(manifest, ["app/entry.client.tsx", "app/root.tsx", routeSrc]);
  const rows = files.map((file) => ({ file, ...gzipSize(file) })).sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((s, r) => ({ raw: s.raw + r.raw, gzip: s.gzip + r.gzip }), { raw: 0, gzip: 0 });
  const stringsFile = localeChunk(manifest, lng);
  const strings = stringsFile ? { file: stringsFile, ...gzipSize(stringsFile) } : null;
  const withStrings = strings ? { raw: total.raw + strings.raw, gzip: total.gzip + strings.gzip } : total;
  return { rows, total, strings, withStrings, lazy };
}

const kib = (n) => (n / 1024).toFixed(1).padStart(6);

function print(label, page) {
  console.log(`\n${label}`);
  for (const r of page.rows) console.log(`  ${r.file.padEnd(58)} ${kib(r.raw)} KiB raw ${kib(r.gzip)} KiB gzip`);
  console.log(`  ${"JavaScript total".padEnd(58)} ${kib(page.total.raw)} KiB raw ${kib(page.total.gzip)} KiB gzip (${page.rows.length} files)`);
  if (page.strings) {
    console.log(`  ${`+ strings ${page.strings.file}`.padEnd(58)} ${kib(page.strings.raw)} KiB raw ${kib(page.strings.gzip)} KiB gzip`);
    console.log(`  ${"everything the page downloads".padEnd(58)} ${kib(page.withStrings.raw)} KiB raw ${kib(page.withStrings.gzip)} KiB gzip`);
  }
  if (page.lazy.length) console.log(`  loaded later, on demand: ${page.lazy.join(", ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean", json: "boolean" });
  if (!args["no-build"]) build();
  const manifest = viteClientManifest();
  const editor = measurePage(manifest, "app/routes/article.tsx");
  const dashboard = measurePage(manifest, "app/routes/dashboard.tsx");
  if (args.json) {
    console.log(JSON.stringify({ budgetKiB: BUDGET_KIB, editor, dashboard }, null, 2));
  } else {
    print("Editor (/article?id=…), French page: JavaScript downloaded to open it", editor);
    print("Dashboard (/dashboard), for information", dashboard);
  }
  const over = editor.total.gzip > BUDGET_KIB * 1024;
  const strings = editor.strings ? ` (with the French strings: ${(editor.withStrings.gzip / 1024).toFixed(1)} KiB)` : "";
  console.log(`\nEditor JavaScript: ${(editor.total.gzip / 1024).toFixed(1)} KiB gzip${strings}, budget ${BUDGET_KIB} KiB: ${over ? "OVER BUDGET" : "ok"}`);
  if (over) process.exit(1);
}
