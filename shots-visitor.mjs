import { chromium } from "@playwright/test";
const link = process.argv[2];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [locale, w, path, name] of [
  ["de-DE", 375, `/r/${link}`, "de-375"], ["de-DE", 1280, `/r/${link}`, "de-1280"],
  ["ar", 375, `/r/${link}`, "ar-375"], ["fr-FR", 375, `/r/${link}`, "fr-375"], ["en-GB", 375, `/r/${link}/languages`, "langs-375"], ["en-GB", 1280, `/r/${link}/languages`, "langs-1280"],
]) {
  const ctx = await browser.newContext({ locale, viewport: { width: w, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(`http://127.0.0.1:8801${path}`);
  await page.screenshot({ path: `/tmp/shot-${name}.png`, fullPage: false });
  await ctx.close();
}
await browser.close();
