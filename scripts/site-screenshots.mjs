// Captures the phone screenshots the landing shows (public/site/screens/*.{png,webp,avif}): the demo
// article as the museum wrote it, and the visitor's language picker in each interface language,
// from a running app seeded with the demo museum: `npm start`, then
// `node scripts/site-screenshots.mjs [http://localhost:8787]`. Real pages of the product, nothing retouched.
import { join } from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { findBrowser } from "./browser.mjs";
import { ROOT } from "./lib.mjs";

const base = process.argv[2] ?? "http://localhost:8787";
const LINK = "essayez2";
const browser = await chromium.launch({ executablePath: findBrowser()?.path, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
try {
  const shots = [
    // The original text (the demo museum writes in French), whatever the landing's language.
    { name: "article", locale: "fr-FR", path: `/r/${LINK}?ignoreStats=true` },
    { name: "languages-fr", locale: "fr-FR", path: `/r/${LINK}/languages` },
    { name: "languages-en", locale: "en-GB", path: `/r/${LINK}/languages` },
  ];
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: shot.locale, deviceScaleFactor: 1 });
    const page = await context.newPage();
    // ignoreStats: screenshots are not visits.
    await page.goto(base + shot.path, { waitUntil: "networkidle" });
    const png = await page.screenshot({ type: "png" });
    const out = join(ROOT, "public", "site", "screens", shot.name);
    await sharp(png).png({ compressionLevel: 9, palette: true }).toFile(`${out}.png`);
    await sharp(png).webp({ quality: 80 }).toFile(`${out}.webp`);
    await sharp(png).avif({ quality: 55 }).toFile(`${out}.avif`);
    await context.close();
    console.log(`${shot.name}: written`);
  }
} finally {
  await browser.close();
}
