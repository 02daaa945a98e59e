import type { AxeResults } from "axe-core";
import { type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { axeViolations, shot, SHOTS, switchToEnglish, unique } from "./helpers";

// The heading element (issue 20 §1, decision 074): a curator adds section headings in the editor, saves and
// publishes; visitors read them as <h2>/<h3> under the page's <h1>, translated, in an outline axe accepts.

test.use({ bypassCSP: true });

/** axe's outline rules (best practices, outside the WCAG tags `axeViolations` runs). */
async function outlineViolations(page: Page) {
  await page.addScriptTag({ path: "node_modules/axe-core/axe.min.js" });
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<AxeResults> } }).axe.run(document, {
      runOnly: { type: "rule", values: ["heading-order", "empty-heading", "page-has-heading-one", "landmark-one-main"] },
    }),
  );
  return results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

const outline = (page: Page) =>
  page
    .locator("main")
    .locator("h1, h2, h3, h4")
    .evaluateAll((hs) => hs.map((h) => `${h.tagName.toLowerCase()} ${h.textContent?.trim()}`));

async function addElement(page: Page, type: string) {
  await page.getByLabel("Type d'élément").selectOption({ label: type });
  await page.getByRole("button", { name: "Ajouter", exact: true }).click();
}

test("add headings in the editor, save, publish: the visitor page shows them as h2/h3, translated, axe clean", async ({ page, browser, staff }) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  const { articleId: id, link } = await createArticle(page, { name: unique("Radeau"), qrcode: true });
  const code = { link: link! };

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/article?id=${id}`);
  await addElement(page, "Texte");
  await page.getByLabel("Texte", { exact: true }).last().fill("Le Radeau de la Méduse\nGéricault, 1819.");

  // A heading: the type is offered, its text field takes focus, level 2 by default.
  await addElement(page, "Intertitre");
  const text = page.getByLabel("Texte de l'intertitre");
  await expect(text).toBeFocused();
  await expect(page.getByLabel("Niveau", { exact: true })).toHaveValue("2");
  await text.fill("Le naufrage");
  await addElement(page, "Texte");
  await page.getByLabel("Texte", { exact: true }).last().fill("En 1816, la frégate Méduse échoue.");
  await addElement(page, "Intertitre");
  await page.getByLabel("Niveau", { exact: true }).last().selectOption({ label: "Niveau 3 : sous-partie" });
  await page.getByLabel("Texte de l'intertitre").last().fill("Les survivants");
  await page.getByLabel("Alignement du texte").last().selectOption({ label: "Centré" });

  // The live preview shows them at once, in order.
  const preview = page.locator(".phone__screen");
  await expect(preview.locator("h2.ml-heading--2")).toHaveText("Le naufrage");
  await expect(preview.locator("h3.ml-heading--3")).toHaveText("Les survivants");
  await expect(preview.locator("h3.ml-heading--3")).toHaveCSS("text-align", "center");

  expect(await axeViolations(page), "editor").toEqual([]);
  await shot(page, "heading/editor-heading-fr-1280", { fullPage: true });

  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByText("Article enregistré")).toBeVisible();
  await page.getByRole("button", { name: "Publier", exact: true }).click();
  await expect(page.locator(".publish-badge")).toHaveText("Publié");

  // Reloaded: the headings were saved with their level.
  await page.reload();
  await expect(page.getByLabel("Texte de l'intertitre").first()).toHaveValue("Le naufrage");
  await expect(page.getByLabel("Niveau", { exact: true }).last()).toHaveValue("3");

  for (const [locale, lang, expected] of [
    ["fr-FR", "fr", ["h1 Le Radeau de la Méduse", "h2 Le naufrage", "h3 Les survivants"]],
    ["de-DE", "de", null],
  ] as const) {
    // A visitor page: the same DOM at every width (decision 108): checked at 320 px; 1280 px for screenshots.
    for (const width of SHOTS ? [320, 1280] : [320]) {
      const context = await browser.newContext({ locale, viewport: { width, height: 800 }, bypassCSP: true });
      const visitor = await context.newPage();
      await visitor.goto(`/r/${code.link}?lang=${lang}`);
      const found = await outline(visitor);
      if (expected) expect(found).toEqual(expected);
      else {
        // German (the pseudo engine): translated, in the same outline.
        expect(found.map((h) => h.slice(0, 3))).toEqual(["h1 ", "h2 ", "h3 "]);
        expect(found.every((h) => h.includes("[de]"))).toBe(true);
        expect(found[1]).not.toBe("h2 Le naufrage");
      }
      expect(await axeViolations(visitor), `${lang} ${width}`).toEqual([]);
      expect(await outlineViolations(visitor), `${lang} ${width}`).toEqual([]);
      const widths = await visitor.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(widths[0], `${lang} ${width}`).toBeLessThanOrEqual(widths[1]!);
      await shot(visitor, `heading/visitor-heading-${lang}-${width}`, { fullPage: true });
      await context.close();
    }
  }

  // The review page lists the headings as segments in the article's order, with their German text.
  await page.goto(`/translations?id=${id}&lang=de`);
  const sources = page.locator("li.tr-segment");
  await expect(sources).toHaveCount(5);
  await expect(sources.nth(2)).toContainText("Le naufrage");
  await expect(sources.nth(4)).toContainText("Les survivants");
  expect(await axeViolations(page), "review").toEqual([]);
});

// Decision 108: the heading's card keeps its DOM at every width (the editor's phone layout around it is
// axe-checked in editor-cards.spec.ts): axe on the open card at 1280 px, the sideways check at 375 px.
test("the heading form in both languages at 375 and 1280 px: labelled, keyboard usable, axe clean; screenshots", async ({ page, staff }) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  const { articleId: id } = await createArticle(page, {
    elements: [
      { type: "text", content: "Une amphore attique" },
      { type: "heading", level: 3, content: "Décor et inscriptions" },
    ],
  });
  for (const lang of ["fr", "en"] as const) {
    if (lang === "en") await switchToEnglish(page);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/article?id=${id}`);
      // The heading's card (the second element) opens to show its form.
      const toggle = page.locator(".editor-element [aria-expanded]").nth(1);
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      const level = page.getByLabel(lang === "fr" ? "Niveau" : "Level", { exact: true });
      await expect(level).toHaveValue("3");
      const content = page.getByLabel(lang === "fr" ? "Texte de l'intertitre" : "Heading text");
      await expect(content).toHaveValue("Décor et inscriptions");
      if (width === 1280) expect(await axeViolations(page, ".editor-element--open"), `${lang} ${width}`).toEqual([]);
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(widths[0], `${lang} ${width}`).toBeLessThanOrEqual(widths[1]!);
      const group = content.locator("xpath=ancestor::*[contains(@class, 'ef-form')][1]");
      await shot(group, `heading/heading-form-${lang}-${width}`);
    }
  }
  // Keyboard: from the text, Tab reaches the level; typing updates the preview, so does a new level.
  const content = page.getByLabel("Heading text");
  const level = page.getByLabel("Level", { exact: true });
  await content.focus();
  await page.keyboard.press("Tab");
  await expect(level).toBeFocused();
  await content.focus();
  await page.keyboard.press("End");
  await page.keyboard.type(" peints");
  // Alone, a level 3 is an <h2> in the outline, styled as a 3 (decision 074).
  await expect(page.locator(".phone__screen h2.ml-heading--3")).toHaveText("Décor et inscriptions peints");
  await level.selectOption("2");
  await expect(page.locator(".phone__screen h2.ml-heading--2")).toHaveText("Décor et inscriptions peints");
});
