import type { ConsoleMessage, Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { switchToEnglish, unique } from "./helpers";

// Decision 077: a page downloads only its own language's strings (one JSON file, preloaded by the HTML),
// hydrates without a mismatch or a raw key, and a language switch fetches the other language's strings
// before the page changes language, without reloading it.

const STRINGS = /\/assets\/common-[\w-]+\.json$/;
const RAW_KEY = /\b(?:nav|editor|editorCards|editorErrors|keep|publishing|footer|articles|errors)\.[a-z][A-Za-z_.]+\b/;

function watch(page: Page) {
  const strings: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => {
    if (STRINGS.test(new URL(request.url()).pathname)) strings.push(new URL(request.url()).pathname);
  });
  page.on("console", (message: ConsoleMessage) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return { strings, problems };
}

async function preloaded(page: Page): Promise<string> {
  const href = await page.locator('link[rel="preload"][as="fetch"]').getAttribute("href");
  expect(href).toMatch(STRINGS);
  return href!;
}

test("the editor hydrates with its language's strings only, and switches language without a reload", async ({ page, staff }) => {
  test.setTimeout(60_000);
  await logIn(page, staff);
  const name = unique("Cratère");
  const { articleId: id } = await createArticle(page, { name });

  const seen = watch(page);
  await page.goto(`/article?id=${id}`);
  await expect(page).toHaveTitle("Éditeur d'article — Muselingo");
  const fr = await preloaded(page);
  // Hydrated: a client-side control answers (the language menu opens).
  const languageButton = page.getByRole("banner").getByRole("button", { name: /Langue de l'interface/ });
  await languageButton.click();
  await expect(page.getByRole("button", { name: "EN", exact: true })).toBeVisible();
  await languageButton.click();
  expect(seen.strings).toEqual([fr]);
  expect(await page.locator("body").innerText()).not.toMatch(RAW_KEY);
  expect(seen.problems.filter((p) => /hydrat|did not match|server rendered/i.test(p))).toEqual([]);

  // Switch on the editor itself: the English strings come first, then the page changes, with no reload.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await switchToEnglish(page);
  await expect(page).toHaveTitle("Article editor — Muselingo");
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(seen.strings).toHaveLength(2);
  const en = seen.strings[1]!;
  expect(en).not.toBe(fr);
  expect(await page.locator("body").innerText()).not.toMatch(RAW_KEY);

  // A fresh English page preloads and fetches the English file alone.
  seen.strings.length = 0;
  await page.reload();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeVisible();
  expect(await preloaded(page)).toBe(en);
  await page
    .getByRole("banner")
    .getByRole("button", { name: /Interface language/ })
    .click();
  await expect(page.getByRole("button", { name: "FR", exact: true })).toBeVisible();
  expect(seen.strings).toEqual([en]);
  expect(seen.problems.filter((p) => /hydrat|did not match|server rendered/i.test(p))).toEqual([]);
});
