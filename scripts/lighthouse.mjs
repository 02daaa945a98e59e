// `npm run lighthouse [-- /extra/path …]`: builds, starts the app on its own port and state directory,
// and runs Lighthouse 12 (mobile settings) in Debian's chromium on the public pages, offline. Prints the
// four category scores per page; exits non-zero when a page misses the targets (performance ≥ 90,
// accessibility, best practices and SEO 100).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { findBrowser } from "./browser.mjs";
import { build, ROOT } from "./lib.mjs";

const PORT = process.env.LIGHTHOUSE_PORT ?? "8799";
const STATE = join(ROOT, ".wrangler", "lighthouse");
// The public pages, and the demo museum's visitor page (the landing's test code), in two languages.
const paths = ["/", "/blog", "/blog/guarani", "/contact", "/r/essayez2", "/r/essayez2?lang=ar", ...process.argv.slice(2)];
const PUBLIC_TARGETS = { performance: 90, accessibility: 100, "best-practices": 100, seo: 100 };
// The visitor page is the product's heart: held to a higher performance bar (issue 8).
const targetsFor = (path) => (path.startsWith("/r/") || path.startsWith("/v/") ? { ...PUBLIC_TARGETS, performance: 95 } : PUBLIC_TARGETS);

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

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? findBrowser()?.path,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"],
});
let failed = false;
try {
  for (const path of paths.filter((p) => p.startsWith("/"))) {
    const result = await lighthouse(`http://localhost:${PORT}${path}`, { port: chrome.port, output: "json", logLevel: "error", formFactor: "mobile" });
    const scores = Object.fromEntries(Object.entries(result.lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]));
    const TARGETS = targetsFor(path);
    const misses = Object.entries(TARGETS).filter(([id, min]) => (scores[id] ?? 0) < min);
    if (misses.length > 0) failed = true;
    console.log(`${path.padEnd(24)} performance ${scores.performance}  accessibility ${scores.accessibility}  best-practices ${scores["best-practices"]}  seo ${scores.seo}${misses.length ? "  ← below target" : ""}`);
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
