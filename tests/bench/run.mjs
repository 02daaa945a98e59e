// `npm run bench`: what a visitor's phone downloads and how fast the local Worker answers.
// Sizes are exact; timings come from a local `wrangler dev` on this machine, so compare them between
// runs on the same machine, never against a hard threshold in tests.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, DEMO, parseOptions, ROOT } from "../../scripts/lib.mjs";
import { percentile, startServer, logIn } from "./server.mjs";

const PORT = 8795;
const BASE = `http://127.0.0.1:${PORT}`;
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean" });

if (!args["no-build"]) build();

function clientManifest() {
  const dir = join(ROOT, "build", "client", "assets");
  const file = readdirSync(dir).find((f) => /^manifest-.*\.js$/.test(f));
  const text = readFileSync(join(dir, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
}

function routeJsBytes(manifest, routeId) {
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", routeId]) {
    const route = manifest.routes[id];
    if (!route) continue;
    files.add(route.module);
    for (const i of route.imports ?? []) files.add(i);
  }
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const buf = readFileSync(join(ROOT, "build", "client", f));
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  return { files: files.size, raw, gzip: gz };
}

const manifest = clientManifest();
const sizes = {};
for (const id of [
  "routes/_index",
  "routes/login",
  "routes/dashboard",
  "routes/settings",
  "routes/articles.$",
  "routes/article",
  "routes/qrcodes._index",
  "routes/qrcode",
  "routes/qrcodes.print",
])
  sizes[id] = routeJsBytes(manifest, id);
const css = readdirSync(join(ROOT, "build", "client", "assets")).filter((f) => f.endsWith(".css"));
const cssGzip = css.reduce((n, f) => n + gzipSync(readFileSync(join(ROOT, "build", "client", "assets", f))).length, 0);

console.log("\nJavaScript a page loads (entry + root + route chunks):");
for (const [id, s] of Object.entries(sizes)) {
  console.log(
    `  ${id.padEnd(18)} ${String(s.files).padStart(2)} files  ${(s.raw / 1024).toFixed(1).padStart(6)} KiB raw  ${(s.gzip / 1024).toFixed(1).padStart(6)} KiB gzip`,
  );
}
console.log(`  stylesheet gzip   ${(cssGzip / 1024).toFixed(1)} KiB`);

const stateDir = join(ROOT, ".wrangler", "bench");
rmSync(stateDir, { recursive: true, force: true });
async function measure(label, count, request) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await request(i);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${label}: HTTP ${response.status}`);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(28)} n=${count}  p50 ${percentile(times, 50).toFixed(1)} ms  p95 ${percentile(times, 95).toFixed(1)} ms`);
}

const server = await startServer({ port: PORT, persistTo: ".wrangler/bench" });
try {
  for (let i = 0; i < 5; i++) await (await fetch(`${BASE}/login`)).arrayBuffer();
  console.log("\nLocal wrangler dev, sequential requests:");
  await measure("GET /login (HTML)", 50, () => fetch(`${BASE}/login`));
  await measure("GET /session (JSON)", 50, () => fetch(`${BASE}/session`));
  await measure("POST /login (PBKDF2 100k)", 15, (i) =>
    fetch(`${BASE}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.255.0.${i}` },
      body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
    }),
  );

  // A museum of 40 folders (two levels) and 400 articles, built through the API itself.
  const cookie = await logIn(BASE, { email: DEMO.email, password: DEMO.password }, "10.255.1.1");
  const api = (name, body) =>
    fetch(`${BASE}/api/manage/${name}`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });
  const t0 = performance.now();
  for (let room = 1; room <= 8; room++) {
    await (await api("add_folder", { pathArray: [], id: `Salle ${room}` })).arrayBuffer();
    for (let case_ = 1; case_ <= 4; case_++) {
      await (await api("add_folder", { pathArray: [`Salle ${room}`], id: `Vitrine ${case_}` })).arrayBuffer();
      for (let n = 0; n < 12; n++) await (await api("add_article", { pathArray: [`Salle ${room}`, `Vitrine ${case_}`] })).arrayBuffer();
    }
    for (let n = 0; n < 2; n++) await (await api("add_article", { pathArray: [`Salle ${room}`] })).arrayBuffer();
  }
  console.log(`\nBuilt 40 folders and 400 articles through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const authed = { headers: { Cookie: cookie } };
  await measure("GET /api/tree (440 nodes)", 30, () => fetch(`${BASE}/api/tree`, authed));
  await measure("GET /articles/Salle 1 (HTML)", 30, () => fetch(`${BASE}/articles/Salle%201`, authed));
  await measure("POST add_article", 20, () => api("add_article", { pathArray: ["Salle 1", "Vitrine 1"] }));

  // QR code images: rendered on first request, then served from KV.
  const codes = [];
  for (let i = 0; i < 20; i++) codes.push(await (await api("add_qrcode", {})).json());
  const image = (code, format) => fetch(`${BASE}/api/read/qrcode_image?qrcodeId=${code.id}&format=${format}`, authed);
  await measure("GET QR image png, rendered", 20, (i) => image(codes[i], "png"));
  await measure("GET QR image png, cached", 20, () => image(codes[0], "png"));
  await measure("GET QR image svg, rendered", 20, (i) => image(codes[i], "svg"));
  const png = await (await image(codes[0], "png")).arrayBuffer();
  const svg = await (await image(codes[0], "svg")).arrayBuffer();
  console.log(`  QR image sizes: png ${(png.byteLength / 1024).toFixed(1)} KiB, svg ${(svg.byteLength / 1024).toFixed(1)} KiB`);
} finally {
  server.stop();
}
