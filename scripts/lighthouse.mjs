// `npm run lighthouse [-- /extra/path …]`: builds, starts the app on its own port and state directory,
// and runs Lighthouse 12 (mobile settings) in Debian's chromium on the public pages, offline. Prints the
// four category scores per page (with a tour it seeds: `/t/{link}`, in Arabic, and its first stop); exits non-zero when a page misses the targets (performance ≥ 90,
// accessibility, best practices and SEO 100).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_ARGS, findBrowser } from "./browser.mjs";
import { build, DEMO, ROOT } from "./lib.mjs";

const PORT = process.env.LIGHTHOUSE_PORT ?? "8799";
const STATE = join(ROOT, ".wrangler", "lighthouse");
// The public pages, and the demo museum's visitor page (the landing's test code), in two languages.
const paths = ["/", "/blog", "/blog/guarani", "/contact", "/r/essayez2", "/r/essayez2?lang=ar", ...process.argv.slice(2)];
const PUBLIC_TARGETS = { performance: 90, accessibility: 100, "best-practices": 100, seo: 100 };
// The visitor page is the product's heart: held to a higher performance bar (issue 8).
const targetsFor = (path) =>
  path.startsWith("/r/") || path.startsWith("/v/") || path.startsWith("/t/") ? { ...PUBLIC_TARGETS, performance: 95 } : PUBLIC_TARGETS;

if (!process.argv.includes("--no-build")) build();
rmSync(STATE, { recursive: true, force: true });
const server = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs"), "--no-build", "--persist-to", STATE], {
  cwd: ROOT,
  env: { ...process.env, PORT },
  stdio: ["ignore", "pipe", "inherit"],
  // Its own process group, so wrangler and workerd stop with it.
  detached: true,
});
await new Promise((resolve, reject) => {
  server.stdout.on("data", (chunk) => String(chunk).includes("Muselingo at") && resolve());
  server.on("exit", () => reject(new Error("the app did not start")));
});

/**
 * A published tour of the demo museum's first three articles (issue 21: `/t/{link}` is held to the visitor
 * page's targets), made through the staff API as an admin would; its page joins the audited paths.
 */
async function seedTour() {
  const base = `http://localhost:${PORT}`;
  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
  });
  const cookie = /muselingo_session=[^;]+/.exec(login.headers.get("Set-Cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`demo login failed: HTTP ${login.status}`);
  const call = async (method, path, body) => {
    const r = await fetch(`${base}${path}`, { method, headers: { "Content-Type": "application/json", Cookie: cookie }, body: body && JSON.stringify(body) });
    if (!r.ok) throw new Error(`${path}: HTTP ${r.status} ${await r.text()}`);
    return r.json();
  };
  const articles = (await call("GET", "/api/read/articles")).slice(0, 3);
  const tour = await call("POST", "/api/manage/add_tour", { name: "Les incontournables" });
  const description = "Trois œuvres pour une première visite du musée, de la maison romaine aux routes maritimes.\nComptez une demi-heure.";
  await call("POST", "/api/manage/update_tour", { id: tour.id, version: tour.version, description, minutes: 30, articleIds: articles.map((a) => a.id) });
  return tour.link;
}
const tourLink = await seedTour();
paths.push(`/t/${tourLink}`, `/t/${tourLink}?lang=ar`, `/t/${tourLink}/1`);

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? findBrowser()?.path,
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});
let failed = false;
try {
  for (const path of paths.filter((p) => p.startsWith("/"))) {
    const result = await lighthouse(`http://localhost:${PORT}${path}`, { port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile" });
    const scores = Object.fromEntries(Object.entries(result.lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]));
    const TARGETS = targetsFor(path);
    const misses = Object.entries(TARGETS).filter(([id, min]) => (scores[id] ?? 0) < min);
    if (misses.length > 0) failed = true;
    console.log(
      `${path.padEnd(24)} performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores["best-practices"]}  seo ${scores.seo}${misses.length ? "  ← below target" : ""}`,
    );
    for (const [id, category] of Object.entries(result.lhr.categories)) {
      if ((category.score ?? 1) >= (TARGETS[id] ?? 0) / 100) continue;
      for (const ref of category.auditRefs) {
        const audit = result.lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) console.log(`    ${id}: ${audit.id} (${audit.displayValue ?? audit.score})`);
      }
    }
  }
} finally {
  await chrome.kill();
  process.kill(-server.pid, "SIGTERM");
}
process.exitCode = failed ? 1 : 0;
