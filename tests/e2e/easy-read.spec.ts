import type { AxeResults } from "axe-core";
import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { publishWithCode } from "./builders";
import { axeViolations, switchToEnglish } from "./helpers";

// Issue 22 §2-3 (decisions 094-097): staff write, correct and approve an easy-to-read version; a visitor in
// Arabic switches to it; display choices at 320 px with the largest text never scroll sideways.
const SHOTS = process.env.EASY_READ_SHOTS;
// axe is injected as a script: the app's nonce CSP would block it.
test.use({ bypassCSP: true });

async function shoot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** axe's enhanced contrast rule (WCAG AAA 1.4.6, 7:1), which the AA tag set leaves out. */
async function enhancedContrast(page: Page) {
  await page.addScriptTag({ path: "node_modules/axe-core/axe.min.js" });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
      runOnly: { type: "rule", values: ["color-contrast-enhanced"] },
    }),
  );
  return results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test("staff write, correct and approve an easy-to-read version; an Arabic phone switches to it and chooses the largest contrasting text", async ({
  page,
  staff,
  browser,
}) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  const { articleId, link } = await publishWithCode(page, [
    {
      type: "text",
      content:
        "La Victoire de Samothrace, sculptée vers 190 avant notre ère, célèbre une victoire navale. Elle fut découverte en 1863 par Charles Champoiseau.",
    },
    { type: "heading", content: "Le marbre" },
    { type: "text", content: "Le corps est en marbre de Paros; le navire, en marbre gris de Lartos." },
  ]);

  // Staff: from the editor's publish bar to the easy-to-read page; write, correct, approve.
  await page.goto(`/article?id=${articleId}`);
  await page.getByRole("link", { name: "Facile à lire" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Facile à lire");
  await page.getByRole("button", { name: "Écrire la version facile à lire" }).click();
  const status = page.getByRole("status").filter({ hasText: "La version facile à lire est écrite" });
  await expect(status).toBeVisible();
  await expect(page.locator(".easy-read__message-slot")).toBeFocused();
  const first = page.getByLabel("Paragraphe 1");
  await expect(first).toHaveValue(/^▸ La Victoire de Samothrace/);
  await first.fill("La Victoire de Samothrace est une statue.\nElle a plus de 2000 ans.");
  await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
  await expect(page.getByText("Modifications enregistrées.")).toBeVisible();
  await expect(page.locator(".easy-read__message-slot")).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("button", { name: "Approuver pour les visiteurs" }).click();
  await expect(page.getByText("Approuvée : les visiteurs peuvent maintenant choisir cette version.")).toBeVisible();
  await expect(page.locator(".easy-read__badge--approved")).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await sideways(page)).toBe(false);
    await shoot(page, `staff-fr-${width}`);
  }
  if (SHOTS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await switchToEnglish(page);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await shoot(page, `staff-en-${width}`);
    }
  }

  // An Arabic phone: the switch (its label translated), the easy text in Arabic, right to left.
  const context = await browser.newContext({ locale: "ar", viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, bypassCSP: true });
  const visitor = await context.newPage();
  await visitor.goto(`/r/${link}`);
  await expect(visitor.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(visitor.locator("#v-text")).not.toContainText("2000");
  const toEasy = visitor.locator(".v-easy__switch");
  await expect(toEasy).toContainText("[ar]");
  await toEasy.click();
  await expect(visitor.locator("#v-text")).toContainText("[ar] Él");
  await expect(visitor.locator("#v-text")).toContainText("2000");
  await expect(visitor.locator(".v-easy .v-label")).toBeVisible();
  expect(await axeViolations(visitor)).toEqual([]);
  await shoot(visitor, "visitor-ar-easy-375");
  // Remembered: the plain address opens the easy version.
  await visitor.goto(`/r/${link}`);
  await expect(visitor.locator("#v-text")).toContainText("2000");

  // Display choices, by keyboard and without script: largest text, high contrast, more spacing.
  await visitor.locator(".v-footer a[href^='/display']").click();
  await expect(visitor.locator("html")).toHaveAttribute("dir", "rtl");
  expect(await axeViolations(visitor)).toEqual([]);
  await visitor.locator("input[name=text][value='2']").check();
  await visitor.locator("input[name=contrast]").check();
  await visitor.locator("input[name=spacing]").check();
  await visitor.locator("button[type=submit]").focus();
  await visitor.keyboard.press("Enter");
  await expect(visitor.locator("html")).toHaveClass("v-text-2 v-contrast v-spacing");
  await expect(visitor.locator("#v-text")).toContainText("2000");
  await visitor.setViewportSize({ width: 320, height: 640 });
  expect(await sideways(visitor)).toBe(false);
  expect(await axeViolations(visitor)).toEqual([]);
  expect(await enhancedContrast(visitor)).toEqual([]);
  // Computed: the text is white on black, the links yellow, no letter spacing in Arabic.
  const computed = await visitor.evaluate(() => {
    const p = document.querySelector("#v-text p")!;
    const a = document.querySelector(".v-status a, .v-footer a:not(.v-button)") ?? document.querySelector("a")!;
    const style = getComputedStyle(p);
    return {
      color: style.color,
      background: getComputedStyle(document.querySelector("main")!).backgroundColor,
      link: getComputedStyle(a).color,
      letterSpacing: style.letterSpacing,
      zoom: getComputedStyle(document.body).zoom,
    };
  });
  expect(computed).toMatchObject({ color: "rgb(255, 255, 255)", background: "rgb(0, 0, 0)", zoom: "1.5" });
  expect(["normal", "0px"]).toContain(computed.letterSpacing);
  await shoot(visitor, "visitor-ar-display-320");
  await visitor.setViewportSize({ width: 1280, height: 900 });
  await shoot(visitor, "visitor-ar-display-1280");
  if (SHOTS) {
    for (const lang of ["fr", "en"]) {
      for (const width of [375, 1280]) {
        await visitor.setViewportSize({ width, height: 900 });
        await visitor.goto(`/r/${link}?lang=${lang}`);
        await shoot(visitor, `visitor-${lang}-display-${width}`);
        await visitor.goto(`/display?back=${encodeURIComponent(`/r/${link}?lang=${lang}`)}`);
        await shoot(visitor, `display-page-${lang}-${width}`);
      }
    }
    await context.clearCookies();
    for (const lang of ["fr", "en", "ar"]) {
      await visitor.setViewportSize({ width: 375, height: 900 });
      await visitor.goto(`/r/${link}?lang=${lang}&easy=1`);
      await shoot(visitor, `visitor-${lang}-easy-375`);
      await visitor.setViewportSize({ width: 1280, height: 900 });
      await shoot(visitor, `visitor-${lang}-easy-1280`);
    }
  }
  await context.close();
});
