// `node tests/bench/import.mjs [--no-build]`: a 2,000-row spreadsheet import (decision 056) through a local
// `wrangler dev` on its own state: the dry run, the apply and the same file again (all "skip"), each with
// 2,000 distinct pictures of 20 KB in the ZIP (about 40 MB). Wall time per request, and the CPU time and
// resident memory of the local workerd process around it (read from /proc: the local D1 runs inside that
// process too, so its CPU time counts the SQLite work a deployed Worker would not pay for).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { build, d1Target, DEMO, parseOptions, prepareLocalDatabase, ROOT } from "../../scripts/lib.mjs";
import { startServer, logIn } from "./server.mjs";

const PORT = 8813;
const BASE = `http://127.0.0.1:${PORT}`;
const PERSIST = ".wrangler/bench-import";
const ROWS = 2000;
const { values: args } = parseOptions(process.argv.slice(2), { "no-build": "boolean" });

if (!args["no-build"]) build();
rmSync(join(ROOT, PERSIST), { recursive: true, force: true });
await prepareLocalDatabase(d1Target({ persistTo: PERSIST }));

function png(size, seed) {
  const out = new Uint8Array(size);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  for (let i = 32; i < size; i++) out[i] = (i * 31 + seed * 7919) & 0xff;
  return out;
}

const text = "Amphore à figures noires, Athènes, vers 530 av. J.-C.\n\n" + "Le peintre montre Héraclès et le lion de Némée. ".repeat(10);
const lines = ["Dossier;Nom;Adresse;Texte;Image;Texte alternatif;Légende;Libellé du lien;URL du lien"];
const pictures = {};
for (let i = 0; i < ROWS; i++) {
  lines.push(`Salle ${i % 20}/Vitrine ${i % 7};Objet ${i};bench-objet-${i};"${text}";p${i}.png;Objet ${i};;Notice;https://example.org/${i}`);
  pictures[`p${i}.png`] = [png(20 * 1024, i), { level: 0 }];
}
const csv = new TextEncoder().encode(lines.join("\r\n"));
const zip = zipSync(pictures);
console.log(`Sheet ${(csv.length / 1024).toFixed(0)} KiB, ${ROWS} rows; pictures ZIP ${(zip.length / 1024 / 1024).toFixed(1)} MiB`);

function descendants(pid) {
  const all = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  const parent = new Map();
  for (const p of all) {
    try {
      parent.set(Number(p), Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ")[1]));
    } catch {
      /* gone */
    }
  }
  const out = [];
  for (const [p] of parent)
    for (let q = p; q; q = parent.get(q))
      if (q === pid) {
        out.push(p);
        break;
      }
  return out;
}

const TICK_MS = 10; // USER_HZ = 100
function workerdUsage(pids) {
  let cpu = 0;
  let rss = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      cpu += (Number(stat[11]) + Number(stat[12])) * TICK_MS;
      rss += Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) * 1024;
    } catch {
      /* gone */
    }
  }
  return { cpu, rss };
}

const server = await startServer({ port: PORT, persistTo: PERSIST });
try {
  const workerd = descendants(server.pid ?? 0);
  const cookie = await logIn(BASE, { email: DEMO.email, password: DEMO.password }, "10.255.3.1");
  const run = async (label, dryRun) => {
    const form = new FormData();
    form.append("file", new Blob([csv]), "bench.csv");
    form.append("images", new Blob([zip]), "images.zip");
    const before = workerdUsage(workerd);
    const t = performance.now();
    const response = await fetch(`${BASE}/api/manage/import_articles?dryRun=${dryRun}`, { method: "POST", body: form, headers: { Cookie: cookie } });
    const body = await response.json();
    const wall = performance.now() - t;
    const after = workerdUsage(workerd);
    if (!response.ok) throw new Error(`${label}: HTTP ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    console.log(
      `  ${label.padEnd(22)} ${String(response.status)}  wall ${(wall / 1000).toFixed(2)} s  workerd CPU ${(after.cpu - before.cpu) / 1000} s  RSS ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB  created ${body.created} updated ${body.updated} skipped ${body.skipped} failed ${body.failed}`,
    );
    return body;
  };
  console.log(`workerd processes: ${workerd.length}`);
  const dry = await run("dry run", true);
  const applied = await run("apply", false);
  const again = await run("same file again (apply)", false);
  if (dry.created !== ROWS || applied.created !== ROWS || again.skipped !== ROWS) throw new Error("unexpected counts");
} finally {
  server.stop();
}
