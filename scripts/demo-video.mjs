// Records the landing's demo videos (public/site/demo-{fr,en}.webm and a poster .webp): a real phone-sized
// session on the demo museum's visitor page, in Debian's chromium. The visitor opens the page the test
// code leads to, reads it in the phone's language, opens the language picker, searches for Arabic and reads
// right to left. Nothing is staged or retouched: with `npm start` offline the translations come from the
// `pseudo` stand-in engine, and the page says so on screen.
//
//   npm start            (a server seeded with the demo museum), then
//   node scripts/demo-video.mjs [http://localhost:8787]
//
// Playwright's `recordVideo` needs an ffmpeg build Playwright downloads; offline we do without it: the
// page's own frames come from the DevTools screencast (JPEG, with their times), and the same chromium
// encodes them to WebM (VP9) with MediaRecorder, replaying them at their recorded pace.
/* global window, document, createImageBitmap, MediaRecorder -- these run in the page (page.evaluate). */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { findBrowser } from "./browser.mjs";
import { ROOT } from "./lib.mjs";

const base = process.argv[2] ?? "http://localhost:8787";
const LINK = "essayez2";
const SIZE = { width: 390, height: 844 };
const BITRATE = 350_000;
/** One video per interface language of the landing: the phone speaks that language. */
const RUNS = [
  { lang: "fr", locale: "fr-FR", search: "arabe" },
  { lang: "en", locale: "en-GB", search: "arabic" },
];

const pause = (page, ms) => page.waitForTimeout(ms);

/** Scrolls like a thumb would: small steps, so the screencast has frames in between. */
async function scroll(page, dy) {
  const steps = Math.ceil(Math.abs(dy) / 30);
  for (let i = 0; i < steps; i++) {
    await page.evaluate((d) => window.scrollBy(0, d), Math.sign(dy) * 30);
    await pause(page, 40);
  }
}

/** The visitor's session, at a reading pace. */
async function visit(page, run, marks) {
  await page.goto(`${base}/r/${LINK}?ignoreStats=true`, { waitUntil: "networkidle" });
  marks.start = Date.now() / 1000;
  await pause(page, 2200);
  await scroll(page, 420);
  await pause(page, 900);
  const accordion = page.locator("summary").first();
  if (await accordion.count()) {
    await accordion.scrollIntoViewIfNeeded();
    await accordion.click();
    await pause(page, 1800);
  }
  await scroll(page, -(await page.evaluate(() => window.scrollY)));
  await pause(page, 900);
  // The language button at the top of the page leads to the picker.
  await page.locator(`a[href*="/r/${LINK}/languages"]`).first().click();
  await page.waitForURL(/\/languages/);
  await pause(page, 1200);
  await page.getByRole("searchbox").pressSequentially(run.search, { delay: 160 });
  await pause(page, 900);
  await page.getByRole("link", { name: /العربية/ }).click();
  await page.locator("html[dir=rtl]").waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle");
  await pause(page, 2400);
  await scroll(page, 300);
  await pause(page, 1800);
}

/** Encodes screencast frames to WebM in the browser, at the pace they were captured. */
async function encode(browser, frames) {
  const page = await browser.newPage();
  try {
    const payload = frames.map((f) => ({ data: f.data, at: Math.round((f.t - frames[0].t) * 1000) }));
    const base64 = await page.evaluate(
      async ({ payload, size, bitrate }) => {
        const bitmaps = await Promise.all(
          payload.map((f) =>
            fetch(`data:image/jpeg;base64,${f.data}`)
              .then((r) => r.blob())
              .then((b) => createImageBitmap(b)),
          ),
        );
        const canvas = document.createElement("canvas");
        canvas.width = size.width;
        canvas.height = size.height;
        document.body.append(canvas);
        const g = canvas.getContext("2d");
        const draw = (i) => g.drawImage(bitmaps[i], 0, 0, size.width, size.height);
        draw(0);
        const type = ["video/webm;codecs=vp9", "video/webm;codecs=vp8"].find((t) => MediaRecorder.isTypeSupported(t));
        const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: type, videoBitsPerSecond: bitrate });
        const chunks = [];
        recorder.ondataavailable = (e) => chunks.push(e.data);
        recorder.start(1000);
        const start = performance.now();
        for (let i = 0; i < payload.length; i++) {
          const wait = payload[i].at - (performance.now() - start);
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          draw(i);
        }
        await new Promise((r) => setTimeout(r, 800));
        await new Promise((r) => {
          recorder.onstop = r;
          recorder.stop();
        });
        const bytes = new Uint8Array(await new Blob(chunks, { type }).arrayBuffer());
        let binary = "";
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      },
      { payload, size: SIZE, bitrate: BITRATE },
    );
    return Buffer.from(base64, "base64");
  } finally {
    await page.close();
  }
}

const browser = await chromium.launch({ executablePath: findBrowser()?.path, args: ["--no-sandbox", "--disable-gpu", "--no-first-run"] });
try {
  for (const run of RUNS) {
    const context = await browser.newContext({ viewport: SIZE, locale: run.locale, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const frames = [];
    cdp.on("Page.screencastFrame", ({ data, metadata, sessionId }) => {
      frames.push({ data, t: metadata.timestamp });
      void cdp.send("Page.screencastFrameAck", { sessionId }).catch(() => {});
    });
    await cdp.send("Page.startScreencast", { format: "jpeg", quality: 85, maxWidth: SIZE.width, maxHeight: SIZE.height });
    const marks = { start: 0 };
    await visit(page, run, marks);
    await cdp.send("Page.stopScreencast");
    await context.close();
    // The video starts on the loaded article: the last frame painted before then stands for that moment.
    const before = frames.filter((f) => f.t < marks.start);
    const kept = [...(before.length ? [{ ...before.at(-1), t: marks.start }] : []), ...frames.filter((f) => f.t >= marks.start)];
    frames.splice(0, frames.length, ...kept);
    // DEMO_FRAMES=dir keeps the frames as JPEG files, to look at them one by one.
    if (process.env.DEMO_FRAMES)
      frames.forEach((f, i) =>
        writeFileSync(
          join(process.env.DEMO_FRAMES, `${run.lang}-${String(i).padStart(3, "0")}-${Math.round((f.t - marks.start) * 1000)}.jpg`),
          Buffer.from(f.data, "base64"),
        ),
      );
    const webm = await encode(browser, frames);
    const out = join(ROOT, "public", "site", `demo-${run.lang}`);
    writeFileSync(`${out}.webm`, webm);
    const first = frames[0];
    await sharp(Buffer.from(first.data, "base64")).webp({ quality: 72 }).toFile(`${out}.webp`);
    const seconds = (frames.at(-1).t - frames[0].t).toFixed(1);
    console.log(`demo-${run.lang}: ${frames.length} frames over ${seconds} s, ${(webm.length / 1024).toFixed(0)} KiB`);
  }
} finally {
  await browser.close();
}
