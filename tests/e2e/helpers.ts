import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AxeResults } from "axe-core";
import { expect, type Locator, type Page } from "@playwright/test";

/** A name no other test run uses, so retries and repeats never collide. */
export const unique = (label: string) => `${label} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** One JSON call of the staff API from the page's session; anything but 200 fails the test. */
export async function api<T = Record<string, unknown>>(page: Page, name: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/api/manage/${name}`, { data });
  expect(response.status(), name).toBe(200);
  return (await response.json()) as T;
}

/**
 * Publishes the article's saved draft (decision 041: visitors see only what is published); anything but
 * 200 fails the test. Returns the published version.
 */
export async function publish(page: Page, articleId: number): Promise<number> {
  const article = (await (await page.request.get(`/api/read/article?articleId=${articleId}`)).json()) as { version: number };
  await api(page, "publish_article", { id: articleId, version: article.version });
  return article.version;
}

/**
 * WCAG 2.2 AA violations axe finds on the current page, or only inside the elements `within` selects (a
 * card just opened on a page already checked whole: the rest of the page has not changed; rules that look
 * across the document, such as duplicate ids, still do). The app's nonce CSP blocks the injected script:
 * call it in a context opened with `bypassCSP: true`.
 */
export async function axeViolations(page: Page, within?: string) {
  // Injected once per document: a page checked several times (a card opened, a dialog shown) reuses it.
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: "node_modules/axe-core/axe.min.js" });
  // A toast fading in or out (the login's "Connexion réussie" still leaving the next page) is half transparent
  // mid-animation, and axe reports its text's contrast: measure once finite animations and transitions have
  // ended (endless ones, a spinner, are not waited for).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity));
  const results = await page.evaluate(
    (selector) =>
      (window as unknown as { axe: { run: (ctx: Document | { include: string[] }, options: object) => Promise<AxeResults> } }).axe.run(
        selector ? { include: [selector] } : document,
        {
          runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"],
        },
      ),
    within,
  );
  if (within) expect(results.passes.length + results.violations.length, `axe found nothing to check in ${within}`).toBeGreaterThan(0);
  return results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

/** True when the page is wider than the window (it would scroll sideways). Cheap: no axe. */
export async function scrollsSideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/**
 * Where screenshots go: a folder named by E2E_SHOTS, or none. They are for a person to look at (STYLE.md:
 * screenshot each new page at 375 and 1280 px and look); `npm test` asserts nothing on them, so it takes none
 * (decision 108). `E2E_SHOTS=/tmp/shots npx playwright test x.spec.ts` writes them.
 */
export const SHOTS = process.env.E2E_SHOTS || "";

/** A screenshot of the page (or of one element) into E2E_SHOTS, when set; nothing otherwise. */
export async function shot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) {
  if (!SHOTS) return;
  const path = join(SHOTS, `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  if ("goto" in target) await target.screenshot({ path, ...options });
  else await target.screenshot({ path });
}

/** Switches the interface to English through the header's switcher, as a person would. */
export async function switchToEnglish(page: Page) {
  await page
    .getByRole("banner")
    .getByRole("button", { name: /Langue de l'interface/ })
    .click();
  await page.getByRole("button", { name: "EN", exact: true }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
}

/** An editor element's card, by its type, position and the count of elements (French interface). */
export const elementCard = (page: Page, type: string, position: number, count: number) =>
  page.getByRole("group", { name: `${type}, élément ${position} sur ${count}`, exact: true });

/** Opens an editor element's card (its fields are hidden while it is closed; one card is open at a time). */
export async function openCard(page: Page, type: string, position: number, count: number) {
  const toggle = elementCard(page, type, position, count).getByRole("button", { name: new RegExp(`^${type}, élément ${position} sur ${count}`) });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
}

/** Closes an editor element's card. */
export async function closeCard(page: Page, type: string, position: number, count: number) {
  const toggle = elementCard(page, type, position, count).getByRole("button", { name: new RegExp(`^${type}, élément ${position} sur ${count}`) });
  if ((await toggle.getAttribute("aria-expanded")) === "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
}

/** Opens the "Style" fold of an open card. */
export async function openStyle(page: Page, type: string, position: number, count: number) {
  const fold = elementCard(page, type, position, count).locator("details.ef-style").first();
  if ((await fold.getAttribute("open")) === null) await fold.locator("summary").click();
  await expect(fold).toHaveAttribute("open", "");
}
