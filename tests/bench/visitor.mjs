// `npm run bench` (second part): the visitor page. A local fake LibreTranslate server that takes 300 ms per
// call stands in for a real engine (through the real libretranslate adapter), so the figures say how many
// engine calls a first view makes and how long it waits; then a cached page's throughput is compared with a
// static file of the same size served by the same local runtime, in one run.
import { rmSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build, DEMO, parseOptions, ROOT } from "../../scripts/lib.mjs";
import { percentile, startServer, logIn } from "./server.mjs";

// BENCH_VISITOR_PORT moves it when 8794 is taken (another checkout's bench on the same machine).
const PORT = Number(process.env.BENCH_VISITOR_PORT || 8794);
const D1_DELAY_MS = 100;
const BASE = `http://127.0.0.1:${PORT}`;
const ENGINE_DELAY_MS = 300;
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean" });
if (!args["no-build"]) build();

// The fake engine: counts calls and segments; /languages answers at once, /translate after 300 ms.
const engine = { calls: 0, segments: 0 };
const LANGS = ["fr", "en", "de", "es", "it", "ja", "ar"];
const fake = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    res.setHeader("Content-Type", "application/json");
    if (req.url === "/languages") return res.end(JSON.stringify(LANGS.map((code) => ({ code, targets: LANGS }))));
    const { q, target } = JSON.parse(body);
    engine.calls += 1;
    engine.segments += q.length;
    setTimeout(() => res.end(JSON.stringify({ translatedText: q.map((t) => `«${target}» ${t}`) })), ENGINE_DELAY_MS);
  });
});
await new Promise((resolve) => fake.listen(0, "127.0.0.1", resolve));
const enginePort = fake.address().port;

const stateDir = join(ROOT, ".wrangler", "bench-visitor");
rmSync(stateDir, { recursive: true, force: true });
const staticFile = join(ROOT, "build", "client", "bench-static.html");

/** `d1;dur=…;desc="n"` and the others from a Server-Timing header, as { d1: { n, ms }, … }. */
function serverTiming(header) {
  const out = {};
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const text = params.join(";");
    out[name] = { n: Number(/desc="(\d+)"/.exec(text)?.[1] ?? NaN), ms: Number(/dur=([\d.]+)/.exec(text)?.[1] ?? 0), desc: /desc="([^"]*)"/.exec(text)?.[1] };
  }
  return out;
}

/** `concurrency` clients requesting for `seconds`: requests per second, p50 and p99, and the Server-Timing sums. */
async function load(url, headers, seconds = 5, concurrency = 8, times = [], sums = { d1: 0, d1ms: 0, kv: 0, kvms: 0, render: 0, snapshots: {}, replayed: 0 }) {
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        // Redirects are not followed: the keypad's 303 is measured as the answer it is.
        const r = await fetch(url, { headers, redirect: "manual" });
        await r.arrayBuffer();
        if (r.status >= 400) throw new Error(`${url}: HTTP ${r.status}`);
        times.push(performance.now() - t0);
        const t = serverTiming(r.headers.get("Server-Timing"));
        if (t.d1) {
          sums.d1 += t.d1.n;
          sums.d1ms += t.d1.ms;
          sums.kv += t.kv.n;
          sums.kvms += t.kv.ms;
          sums.render += t.render.ms;
          sums.snapshots[t.snapshot?.desc] = (sums.snapshots[t.snapshot?.desc] ?? 0) + 1;
          if (t.page?.desc === "replayed") sums.replayed += 1;
        }
      }
    }),
  );
  return { times, sums, seconds };
}

/**
 * The same loads taken in turns (`rounds` × `seconds` each), so a machine whose load drifts (other
 * processes) weighs on each about equally; then requests per second, p50 and p99 of each.
 */
async function interleaved(loads, rounds = 4, seconds = 3) {
  const acc = loads.map(() => ({ times: [], sums: { d1: 0, d1ms: 0, kv: 0, kvms: 0, render: 0, snapshots: {}, replayed: 0 } }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, [url, headers]] of loads.entries()) await load(url, headers, seconds, 8, acc[i].times, acc[i].sums);
  }
  return acc.map(({ times, sums }) => {
    times.sort((a, b) => a - b);
    return { rps: times.length / (rounds * seconds), p50: percentile(times, 50), p99: percentile(times, 99), n: times.length, sums };
  });
}

/**
 * Waits (at most 120 s) until the page offers its narration, so the throughput below does not share the machine
 * with the narration's generation; resolves with the seconds waited.
 */
async function settledNarration(url, headers) {
  const t0 = performance.now();
  while (performance.now() - t0 < 120_000) {
    const html = await (await fetch(url, { headers })).text();
    if (html.includes("<audio")) return (performance.now() - t0) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the page's narration was not ready within 120 s");
}

/** One view's figures: wall time, status, gzip bytes and the Server-Timing counts. */
async function view(url, headers) {
  const t0 = performance.now();
  const r = await fetch(url, { headers, redirect: "manual" });
  const body = await r.text();
  return { ms: performance.now() - t0, status: r.status, body, gzip: gzipSync(body).length, timing: serverTiming(r.headers.get("Server-Timing")) };
}

const timingText = (t) => `D1 ${t.d1?.n} (${t.d1?.ms} ms), KV ${t.kv?.n} (${t.kv?.ms} ms), engine ${t.engine?.n} (${t.engine?.ms} ms)`;

/**
 * The tour pages (issue 21's measures): a published tour of three stops, the long article first and
 * numbered, then `/t/{link}`, `/t/{link}/1` and `/v/{museum}/n` (the form, and a number → 303), each in a
 * language not seen yet (engine work) and then again (cached): wall time, engine calls, Server-Timing,
 * HTML gzip against the 14 KiB budget, and the cached view's throughput with 8 clients.
 */
async function tourPages({ api, cookie, articleId }) {
  const read = async (path) => {
    const r = await fetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status}`);
    return r.json();
  };
  const museumSlug = (await read("/session")).museum.slug;
  const others = (await read("/api/read/articles"))
    .map((a) => a.id)
    .filter((other) => other !== articleId)
    .slice(0, 2);
  await api("update_stop_number", { articleId, stopNumber: 12 });
  const tour = await api("add_tour", { name: "Les incontournables du musée" });
  const description =
    "Trois œuvres pour une première visite, de l'amphore d'Héraclès aux routes maritimes.\nComptez une demi-heure ; les numéros des étapes se tapent aussi sur le clavier.";
  await api("update_tour", { id: tour.id, version: tour.version, description, minutes: 30, articleIds: [articleId, ...others] });
  const tourUrl = `${BASE}/t/${tour.link}`;
  const pages = [
    ["tour page /t/{link}", tourUrl],
    ["stop page /t/{link}/1 (20 paragraphs)", `${tourUrl}/1`],
    ["keypad /v/{museum}/n", `${BASE}/v/${museumSlug}/n`],
    ["keypad ?number=12 (303)", `${BASE}/v/${museumSlug}/n?number=12`],
  ];
  const spanish = { "Accept-Language": "es-ES,es;q=0.9" };
  console.log(`\nTour pages (a tour of ${1 + others.length} stops; first view in Spanish, a language not seen yet, engine ${ENGINE_DELAY_MS} ms per call):`);
  const cachedViews = [];
  for (const [label, url] of pages) {
    const before = { ...engine };
    const first = await view(url, spanish);
    const again = await view(url, spanish);
    if (first.status >= 400 || again.status !== first.status) throw new Error(`${label}: HTTP ${first.status} then ${again.status}`);
    if (url.startsWith(tourUrl) && !again.body.includes("«es»")) throw new Error(`${label}: not translated into Spanish`);
    cachedViews.push([label, url, again]);
    console.log(`  ${label}`);
    console.log(`    first view   ${first.ms.toFixed(0)} ms, HTTP ${first.status}; ${engine.calls - before.calls} engine calls; ${timingText(first.timing)}`);
    console.log(`    cached view  ${again.ms.toFixed(0)} ms; ${timingText(again.timing)}`);
    if (again.status === 200)
      console.log(
        `    HTML ${(Buffer.byteLength(again.body) / 1024).toFixed(1)} KiB raw, ${(again.gzip / 1024).toFixed(1)} KiB gzip (target ≤ 14 KiB)${again.gzip > 14 * 1024 ? "  ← over budget" : ""}`,
      );
  }
  const loads = await interleaved(
    cachedViews.map(([, url]) => [url, spanish]),
    2,
    3,
  );
  const per = (x, key) => (x.sums[key] / x.n).toFixed(2);
  console.log("  cached views under load (8 clients, 2 turns × 3 s each, taken in turns):");
  for (const [i, [label]] of cachedViews.entries()) {
    const x = loads[i];
    console.log(
      `    ${label.padEnd(38)} ${x.rps.toFixed(0)} req/s  p50 ${x.p50.toFixed(1)} ms  p99 ${x.p99.toFixed(1)} ms; per view D1 ${per(x, "d1")} queries ${per(x, "d1ms")} ms, KV ${per(x, "kv")} reads`,
    );
  }
}

const server = await startServer({
  port: PORT,
  persistTo: ".wrangler/bench-visitor",
  // DEV_D1_DELAY=allow: this local server honours X-Dev-D1-Delay-Ms (decision 039), for "D1 far away" below.
  env: { TRANSLATION_ENGINES: "libretranslate", LIBRETRANSLATE_URL: `http://127.0.0.1:${enginePort}`, DEV_D1_DELAY: "allow" },
});
try {
  const cookie = await logIn(BASE, { email: DEMO.email, password: DEMO.password }, "10.254.0.1");
  const api = async (name, body) => {
    const r = await fetch(`${BASE}/api/manage/${name}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${name}: HTTP ${r.status} ${await r.text()}`);
    return r.json();
  };
  const { id } = await api("add_article", { pathArray: [] });
  const article = await (await fetch(`${BASE}/api/read/article?articleId=${id}`, { headers: { Cookie: cookie } })).json();
  // A 20-paragraph label text of about 60 words each: what a long museum label looks like.
  const paragraph = (i) =>
    `Paragraphe ${i + 1}. Cette amphore à figures noires, produite à Athènes vers 530 avant notre ère, montre Héraclès ` +
    `luttant contre le lion de Némée ; le peintre a gravé la crinière trait par trait et rehaussé les muscles de rouge. ` +
    `Elle a été retrouvée en Étrurie, où ces vases étaient recherchés pour les banquets et déposés ensuite dans les tombes.`;
  const texts = Array.from({ length: 20 }, (_, i) => paragraph(i));
  // Saved, then published: visitors see published content only (decision 041).
  const save = async (version) => {
    const saved = await api("update_article", {
      articleId: id,
      version,
      newContent: [article.content[0], ...texts.map((content) => ({ type: "text", content }))],
    });
    await api("publish_article", { id, version: saved.version });
    return saved;
  };
  const saved = await save(article.version);
  const code = await api("add_qrcode", {});
  await api("update_qrcode", { qrcodeId: code.id, articleId: id });
  const page = `${BASE}/r/${code.link}`;
  const german = { "Accept-Language": "de-DE,de;q=0.9" };

  console.log(`\nVisitor page, engine = fake LibreTranslate answering in ${ENGINE_DELAY_MS} ms per call:`);
  // A warm Worker, as in production: one view in Italian first (module start-up, the engine's language list).
  await (await fetch(page, { headers: { "Accept-Language": "it" } })).arrayBuffer();
  engine.calls = 0;
  engine.segments = 0;
  let t0 = performance.now();
  let r = await fetch(page, { headers: german });
  const html = await r.text();
  const firstMs = performance.now() - t0;
  if (r.status !== 200 || !html.includes("«de» Paragraphe 20")) throw new Error(`the first view is not the translated article (HTTP ${r.status})`);
  console.log(
    `  first view, 20 paragraphs in German   ${firstMs.toFixed(0)} ms wall time (${(firstMs / ENGINE_DELAY_MS).toFixed(2)} × one engine call); ${engine.calls} engine calls, ${engine.segments} segments (20 article + interface strings)`,
  );

  const before = { ...engine };
  t0 = performance.now();
  await (await fetch(page, { headers: german })).arrayBuffer();
  console.log(`  second view                            ${(performance.now() - t0).toFixed(0)} ms; ${engine.calls - before.calls} engine calls`);

  texts[11] = "Paragraphe réécrit : le vase a été restauré en 1911, puis nettoyé en 2019.";
  await save(saved.version);
  const beforeEdit = { ...engine };
  t0 = performance.now();
  const edited = await (await fetch(page, { headers: german })).text();
  if (!edited.includes("«de» Paragraphe réécrit")) throw new Error("the view after the edit does not show the new paragraph");
  console.log(
    `  view after editing one paragraph       ${(performance.now() - t0).toFixed(0)} ms; ${engine.calls - beforeEdit.calls} engine call(s), ${engine.segments - beforeEdit.segments} segment(s)`,
  );

  const cached = await (await fetch(page, { headers: german })).text();
  const style = /<style>([\s\S]*?)<\/style>/.exec(cached)?.[1] ?? "";
  const script = /<script[^>]*>([\s\S]*?)<\/script>/.exec(cached)?.[1] ?? "";
  console.log("\nVisitor page weight (20 paragraphs, German):");
  console.log(`  HTML ${(Buffer.byteLength(cached) / 1024).toFixed(1)} KiB raw, ${(gzipSync(cached).length / 1024).toFixed(1)} KiB gzip (target ≤ 14 KiB)`);
  console.log(
    `  inline CSS ${(gzipSync(style).length / 1024).toFixed(1)} KiB gzip (target ≤ 10 KiB); inline script ${(Buffer.byteLength(script) / 1024).toFixed(2)} KiB (target ≤ 4 KiB); no other request but images`,
  );
  // The offline visit's JavaScript (decision 087), fetched as a phone gets it: loaded only when a visitor saves a tour.
  const sw = await (await fetch(`${BASE}/sw.js`)).text();
  const saveScript = await (await fetch(`${BASE}/offline.js`)).text();
  console.log(
    `  offline visit: /sw.js ${(gzipSync(sw).length / 1024).toFixed(2)} KiB gzip + /offline.js ${(gzipSync(saveScript).length / 1024).toFixed(2)} KiB gzip = ${((gzipSync(sw).length + gzipSync(saveScript).length) / 1024).toFixed(2)} KiB (target with the tour page's bootstrap ≤ 6 KiB)`,
  );

  // The same number of bytes as a static asset of the same runtime.
  writeFileSync(staticFile, cached);
  const staticUrl = `${BASE}/bench-static.html`;
  await (await fetch(staticUrl)).arrayBuffer();
  const cachedTiming = serverTiming((await fetch(page, { headers: german })).headers.get("Server-Timing"));
  // A miss is reported and fails the run at the end, after the other figures (they still say something).
  if (cachedTiming.d1?.n !== 0) {
    console.log(`  ← target missed: a cached view read D1: Server-Timing d1 ${JSON.stringify(cachedTiming.d1)}`);
    process.exitCode = 1;
  }
  // D1 far away: each D1 round trip held back 100 ms. A view that reads D1 shows it; a cached one must not.
  const far = { ...german, "X-Dev-D1-Delay-Ms": String(D1_DELAY_MS) };
  const missing = `${BASE}/r/zzzzzzzz`;
  t0 = performance.now();
  const farMiss = await fetch(missing, { headers: far });
  await farMiss.arrayBuffer();
  const farMissMs = performance.now() - t0;
  const farMissTiming = serverTiming(farMiss.headers.get("Server-Timing"));

  // The first German view started its narration (the offline engine: eSpeak, then MP3, in this same runtime);
  // a cached view is measured once that one-off job is over, as it is for every view after the first minute.
  const narrated = await settledNarration(page, german);
  console.log(`  (the German narration was ready after ${narrated.toFixed(1)} s; the load starts after it)`);

  const [dynamic, fixed, distant] = await interleaved([
    [page, german],
    [staticUrl, {}],
    [page, far],
  ]);
  // One client, the two kinds of request alternating one by one: the drift of a busy machine cancels out.
  const alone = { near: [], far: [] };
  for (let i = 0; i < 400; i++) {
    const kind = i % 2 === 0 ? "near" : "far";
    const t = performance.now();
    await (await fetch(page, { headers: kind === "near" ? german : far })).arrayBuffer();
    alone[kind].push(performance.now() - t);
  }
  for (const list of Object.values(alone)) list.sort((a, b) => a - b);
  const per = (x, key) => (x.sums[key] / x.n).toFixed(2);
  console.log("\nCached visitor page against a static file of the same size (8 clients, 4 turns × 3 s each, taken in turns, same server):");
  console.log(`  /r/{link} (German, cached)          ${dynamic.rps.toFixed(0)} req/s  p50 ${dynamic.p50.toFixed(1)} ms  p99 ${dynamic.p99.toFixed(1)} ms`);
  console.log(`  static file                         ${fixed.rps.toFixed(0)} req/s  p50 ${fixed.p50.toFixed(1)} ms  p99 ${fixed.p99.toFixed(1)} ms`);
  console.log(`  ratio ${(dynamic.rps / fixed.rps).toFixed(2)} of the static file's throughput (target ≥ 0.6)`);
  console.log(
    `  per cached view (Server-Timing): D1 ${per(dynamic, "d1")} queries ${per(dynamic, "d1ms")} ms, KV ${per(dynamic, "kv")} reads ${per(dynamic, "kvms")} ms, render ${per(dynamic, "render")} ms; snapshot from ${JSON.stringify(dynamic.sums.snapshots)}; replayed ${per(dynamic, "replayed")}`,
  );
  console.log(`\nD1 made ${D1_DELAY_MS} ms away (local-only switch, X-Dev-D1-Delay-Ms):`);
  console.log(`  a view that reads D1 (unknown code)  ${farMissMs.toFixed(0)} ms; D1 ${farMissTiming.d1?.n} queries ${farMissTiming.d1?.ms} ms`);
  console.log(
    `  /r/{link} (German, cached)          ${distant.rps.toFixed(0)} req/s  p50 ${distant.p50.toFixed(1)} ms  p99 ${distant.p99.toFixed(1)} ms; D1 ${per(distant, "d1")} queries per view`,
  );
  console.log(`  p50 ${(distant.p50 - dynamic.p50).toFixed(1)} ms from the figure without the delay under load (target within 5 ms)`);
  const [nearP50, farP50] = [percentile(alone.near, 50), percentile(alone.far, 50)];
  console.log(
    `  one client, alternating request by request (200 each): p50 ${nearP50.toFixed(1)} ms without, ${farP50.toFixed(1)} ms with the delay: ${(farP50 - nearP50).toFixed(1)} ms apart; p99 ${percentile(alone.near, 99).toFixed(1)} / ${percentile(alone.far, 99).toFixed(1)} ms`,
  );

  // Tours (issue 21): the tour page, a stop and the keypad, measured as the article page is above.
  await tourPages({ api, cookie, articleId: id });
} finally {
  try {
    unlinkSync(staticFile);
  } catch {
    /* not written */
  }
  server.stop();
  fake.close();
}
