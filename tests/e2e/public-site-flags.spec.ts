import { findBrowser, CHROMIUM_ARGS } from "../../scripts/browser.mjs";
import { test, expect } from "./fixtures";

// The public site's flags, in the full browser, not the headless shell of the other files (decision 139): once a
// modal dialog has closed, the shell runs no idle callback any more (full chromium does), and this test waits for
// the page's first idle period. Launch options apply to a whole file's worker, hence a file of its own.
test.use({ launchOptions: { executablePath: (findBrowser() ?? findBrowser({ shell: true }))?.path, args: CHROMIUM_ARGS } });

test.describe("public site", () => {
  test("the flags burst unless reduced motion is preferred", async ({ page }) => {
    // The fireworks code is a chunk of its own, fetched only for a burst. Reduced motion is checked first, on
    // the context's empty cache, so that a chunk in the cache cannot hide a fetch.
    const fireworks: string[] = [];
    page.on("request", (request) => {
      if (/\/fireworks-[\w-]+\.js$/.test(new URL(request.url()).pathname)) fireworks.push(request.url());
    });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/contact");
    // Everything that would start a burst has happened: the page is hydrated (the demo button opens its dialog
    // only then, and React runs the burst's effect before it handles a click), the first idle period after
    // load has passed (an idle callback of ours, queued after the page's, has run), and the network is quiet.
    await page.locator("#main").getByRole("link", { name: "Réserver une démo" }).click();
    await expect(page.locator("#main").getByRole("dialog", { name: "Réserver une démo" })).toBeVisible();
    await page.keyboard.press("Escape");
    // Bounded: once a modal dialog has closed, headless Chromium may grant no idle period at all (always in the
    // headless shell, once in a fresh clone's run in the full browser too: decision 140). Then no idle callback,
    // the app's included, has run by the time limit, and the network checks below still apply.
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 })));
    expect(fireworks, "fetched at the first idle period after load").toEqual([]);
    await page.waitForLoadState("networkidle", { timeout: 10_000 });
    expect(fireworks).toEqual([]);
    await expect(page.locator(".flag-burst")).toHaveCount(0);

    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/contact");
    // One canvas, drawn by a worker: 35 + 35 + 50 + 50 flags at 1280 px.
    const burst = page.locator("canvas.flag-burst");
    await expect(burst).toHaveAttribute("data-flags", "170");
    await expect(burst).toHaveAttribute("data-runner", "worker");
    await expect(burst).toHaveAttribute("aria-hidden", "true");
    // The same watch sees the chunk when it is fetched.
    expect(fireworks).toHaveLength(1);
    // It removes itself once the flags have stopped (at most 600 frames).
    await expect(burst).toHaveCount(0, { timeout: 15_000 });
  });
});
