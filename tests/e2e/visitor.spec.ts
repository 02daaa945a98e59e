import type { Browser, Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { api, axeViolations } from "./helpers";

/** Staff write an article with every text-bearing element and link it to a new code; returns the code's link. */
async function publishArticle(page: Page): Promise<string> {
  const added = await api<{ id: number }>(page, "add_article", { pathArray: [] });
  const article = (await (await page.request.get(`/api/read/article?articleId=${added.id}`)).json()) as { content: unknown[]; version: number };
  await api(page, "update_article", {
    articleId: added.id,
    version: article.version,
    newContent: [
      article.content[0],
      { type: "text", content: "La Victoire de Samothrace.\nMarbre de Paros.\n\nDécouverte en 1863." },
      { type: "link", link: "https://example.org", content: "Le site du musée" },
      { type: "accordion", header: { content: "En savoir plus" }, details: [{ type: "text", content: "Un détail caché." }] },
    ],
  });
  const code = await api<{ id: number; link: string }>(page, "add_qrcode", {});
  await api(page, "update_qrcode", { qrcodeId: code.id, articleId: added.id });
  return code.link;
}

/** A phone set to this language, as a visitor's would be. */
async function phone(browser: Browser, locale: string, options: { javaScriptEnabled?: boolean; bypassCSP?: boolean; width?: number } = {}) {
  const context = await browser.newContext({
    locale,
    viewport: { width: options.width ?? 375, height: 740 },
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    bypassCSP: options.bypassCSP ?? false,
  });
  return { context, page: await context.newPage() };
}

async function scrollsSideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test("a German phone scans a code, reads German, switches to Arabic and reads right to left", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const link = await publishArticle(page);

  const { context, page: visitor } = await phone(browser, "de-DE");
  await visitor.goto(`/r/${link}`);
  await expect(visitor.locator("html")).toHaveAttribute("lang", "de");
  await expect(visitor.getByText("[de] Lá Víçtóíré dé Sámóthráçé.")).toBeVisible();
  await expect(visitor.getByText(/Pséúdó-tráñslátíóñ/)).toBeVisible();

  // The language button, by keyboard, to the picker; Arabic is found by its French name too.
  const button = visitor.getByRole("link", { name: /Deutsch/ });
  await button.focus();
  await visitor.keyboard.press("Enter");
  await expect(visitor).toHaveURL(new RegExp(`/r/${link}/languages`));
  await visitor.getByRole("searchbox").fill("arabe");
  await expect(visitor.getByRole("link", { name: /Deutsch/ })).toBeHidden();
  await visitor.getByRole("link", { name: /العربية/ }).click();

  await expect(visitor.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(visitor.locator("html")).toHaveAttribute("lang", "ar");
  const text = visitor.locator(".ml-text").first();
  // Right to left: the paragraph starts at the right edge of its box.
  expect(await text.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
  expect(await text.evaluate((el) => getComputedStyle(el).textAlign)).toBe("start");

  // Remembered: a new scan of the same code comes back in Arabic.
  await visitor.goto(`/r/${link}`);
  await expect(visitor.locator("html")).toHaveAttribute("lang", "ar");
  await context.close();
});

test("the visitor page works without JavaScript: the accordion opens, the language picker searches", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const link = await publishArticle(page);
  const { context, page: visitor } = await phone(browser, "es-ES", { javaScriptEnabled: false });
  await visitor.goto(`/r/${link}`);
  await expect(visitor.locator("html")).toHaveAttribute("lang", "es");
  const hidden = visitor.getByText("[es] Úñ détáíl çáçhé.");
  await expect(hidden).toBeHidden();
  await visitor.getByText("[es] Éñ sávóír plús").click();
  await expect(hidden).toBeVisible();

  await visitor.getByRole("link", { name: /Español/ }).click();
  await visitor.getByRole("searchbox").fill("japon");
  await visitor.getByRole("searchbox").press("Enter");
  await expect(visitor.getByRole("link", { name: /日本語/ })).toBeVisible();
  await expect(visitor.getByRole("link", { name: /Deutsch/ })).toHaveCount(0);
  await context.close();
});

test("visitor pages are accessible (axe) and never scroll sideways at 320 px", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const link = await publishArticle(page);
  const inactive = await api<{ link: string }>(page, "add_qrcode", {});
  for (const [locale, path] of [
    ["de-DE", `/r/${link}`],
    ["ar", `/r/${link}`],
    ["fr-FR", `/r/${link}`],
    ["en-GB", `/r/${link}/languages`],
    ["fr-FR", `/r/${inactive.link}`],
    ["en-GB", "/r/zzzzzzzz"],
  ]) {
    const { context, page: visitor } = await phone(browser, locale!, { bypassCSP: true, width: 320 });
    await visitor.goto(path!);
    expect(await axeViolations(visitor), `${locale} ${path}`).toEqual([]);
    expect(await scrollsSideways(visitor), `${locale} ${path}`).toBe(false);
    await context.close();
  }
});

test("the report form, its refusal and its thank-you are accessible on a 320 px phone", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const link = await publishArticle(page);
  const { context, page: visitor } = await phone(browser, "de-DE", { bypassCSP: true, width: 320 });
  await visitor.goto(`/r/${link}`);
  await visitor.getByText(/Répórt á tráñslátíóñ próblém/).click();
  const message = visitor.getByRole("textbox");
  await message.fill("   ");
  // The browser's own check would stop an empty message; the server's refusal is what is tested here.
  await message.evaluate((el) => el.removeAttribute("required"));
  await visitor.getByRole("button", { name: /Séñd/ }).click();
  await expect(visitor).toHaveURL(new RegExp(`/r/${link}/report`));
  await expect(visitor.getByRole("alert")).toBeVisible();
  expect(await axeViolations(visitor)).toEqual([]);
  expect(await scrollsSideways(visitor)).toBe(false);

  await visitor.getByRole("textbox").fill("Der zweite Satz ist falsch übersetzt.");
  await visitor.getByRole("button", { name: /Séñd/ }).click();
  await expect(visitor.getByRole("status")).toBeVisible();
  expect(await axeViolations(visitor)).toEqual([]);
  expect(await scrollsSideways(visitor)).toBe(false);
  await context.close();
});
