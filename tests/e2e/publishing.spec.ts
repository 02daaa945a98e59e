import { type Browser, type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { api, axeViolations, shot, SHOTS, switchToEnglish, unique } from "./helpers";

// Drafts and publishing (issue 18, decision 041): an editor drafts, previews and publishes while a visitor
// keeps reading the published text; the publish bar in both languages; the "not available yet" page.

/** An article with one text, published, behind a new QR code. */
async function publishedArticle(page: Page, text: string) {
  const made = await createArticle(page, { name: unique("Amphore"), elements: [{ type: "text", content: text }], published: true, qrcode: true });
  return { id: made.articleId, slug: made.slug, link: made.link! };
}

async function visitorPhone(browser: Browser, locale = "fr-FR") {
  const context = await browser.newContext({ locale, viewport: { width: 375, height: 800 } });
  return context.newPage();
}

test("an editor drafts, previews and publishes; a visitor reads the old text until publication", async ({ browser, page, staff }) => {
  await logIn(page, staff);
  const a = await publishedArticle(page, "Texte publié.");
  const visitor = await visitorPhone(browser);
  await visitor.goto(`/r/${a.link}`);
  await expect(visitor.locator("main")).toContainText("Texte publié.");

  await page.goto(`/article?id=${a.id}`);
  const status = page.locator(".publish-badge");
  await expect(status).toHaveText("Publié");
  // Fields sit in the element's card: open it first (it stays open for the rest of the test).
  await page.getByRole("button", { name: /^Texte, élément 1 sur 1/ }).click();
  await page.getByRole("group", { name: "Texte, élément 1 sur 1" }).getByRole("textbox", { name: "Texte" }).fill("Texte du brouillon.");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(page.getByText("Article enregistré")).toBeVisible();
  await expect(status).toHaveText("Brouillon — modifications non publiées");

  // Saved, not published: the visitor still reads the published text.
  await visitor.reload();
  await expect(visitor.locator("main")).toContainText("Texte publié.");
  await expect(visitor.locator("main")).not.toContainText("Texte du brouillon.");

  // The draft's preview: with the staff session only.
  const previewLink = page.getByRole("link", { name: /Aperçu du brouillon/ });
  const href = await previewLink.getAttribute("href");
  expect(href).toBe(`/v/${staff.museumSlug}/${a.slug}?preview=draft&ignoreStats=true`);
  await expect(previewLink).toHaveAttribute("target", "_blank");
  const preview = await page.context().newPage();
  await preview.goto(href!);
  await expect(preview.locator(".v-draft")).toHaveText("Aperçu du brouillon : les visiteurs ne voient pas encore cette version.");
  await expect(preview.locator("main")).toContainText("Texte du brouillon.");
  await preview.close();
  await visitor.goto(href!);
  await expect(visitor.locator("main")).toContainText("Texte publié.");
  await expect(visitor.locator(".v-draft")).toHaveCount(0);

  // Publish: focus goes to the status, the visitor's next view shows the new text.
  await page.getByRole("button", { name: "Publier", exact: true }).click();
  await expect(status).toHaveText("Publié");
  await expect(status).toBeFocused();
  await visitor.goto(`/r/${a.link}`);
  await expect(visitor.locator("main")).toContainText("Texte du brouillon.");

  // A draft discarded goes back to the published text.
  await page.getByRole("group", { name: "Texte, élément 1 sur 1" }).getByRole("textbox", { name: "Texte" }).fill("Une erreur.");
  await page.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(status).toHaveText("Brouillon — modifications non publiées");
  await page.getByRole("button", { name: "Abandonner le brouillon" }).click();
  const dialog = page.getByRole("dialog", { name: "Abandonner le brouillon ?" });
  await dialog.getByRole("button", { name: "Abandonner le brouillon" }).click();
  await expect(status).toHaveText("Publié");
  await expect(page.getByRole("group", { name: "Texte, élément 1 sur 1" }).getByRole("textbox", { name: "Texte" })).toHaveValue("Texte du brouillon.");
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();

  // Publish at a time in the museum's zone, then cancel.
  await expect(page.getByLabel("Publier le (fuseau horaire Europe/Paris)")).toBeVisible();
  const next = new Date(Date.now() + 3 * 86_400_000);
  const local = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, "0")}-${String(next.getDate()).padStart(2, "0")}T10:30`;
  await page.getByLabel("Publier le (fuseau horaire Europe/Paris)").fill(local);
  await page.getByRole("button", { name: "Programmer" }).click();
  await expect(page.getByText(/Publication prévue le .* 10:30 \(Europe\/Paris\)/)).toBeVisible();
  await page.getByRole("button", { name: "Annuler la programmation" }).click();
  await expect(page.getByText(/Publication prévue le/)).toHaveCount(0);
  await expect(status).toBeFocused();
  // The history link leads to the article's history.
  await expect(page.getByRole("link", { name: "Historique" })).toHaveAttribute("href", `/article/history?id=${a.id}`);
  await visitor.context().close();
});

test("an article never published: the list says so, visitors get 'not available yet' in their language", async ({ browser, page, staff }) => {
  await logIn(page, staff);
  const name = unique("Stèle");
  const { slug, link } = await createArticle(page, { name, qrcode: true });
  const code = { link: link! };
  await page.goto("/articles");
  await expect(page.locator(".tree-row", { has: page.getByRole("link", { name }) }).locator(".tree-badge")).toHaveText("Jamais publié");
  for (const [locale, title] of [
    ["fr-FR", "Cet article n’est pas encore disponible"],
    ["en-GB", "This article is not available yet"],
  ] as const) {
    const visitor = await visitorPhone(browser, locale);
    const response = await visitor.goto(`/r/${code.link}`);
    expect(response?.status()).toBe(404);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);
    const address = await visitor.goto(`/v/${staff.museumSlug}/${slug}`);
    expect(address?.status()).toBe(404);
    await visitor.context().close();
  }
});

test.describe("accessibility and looks", () => {
  test.use({ bypassCSP: true });

  // Decision 108: the publish bar keeps its DOM at every width; the editor's phone layout around it is
  // axe-checked in editor-cards.spec.ts. Axe at 1280 px, the sideways check at 320 px, 375 px for screenshots.
  test("the editor with its publish bar has no axe violations in French and English, and does not scroll sideways at 320 px", async ({ page, staff }) => {
    test.setTimeout(180_000);
    await logIn(page, staff);
    const a = await publishedArticle(page, "Une amphore attique.");
    const article = (await (await page.request.get(`/api/read/article?articleId=${a.id}`)).json()) as { content: unknown[]; version: number };
    await api(page, "update_article", {
      articleId: a.id,
      version: article.version,
      newContent: [article.content[0], { type: "text", content: "Un brouillon." }],
    });
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await api(page, "publish_article", { id: a.id, version: article.version + 1, at });
    for (const lang of ["fr", "en"]) {
      if (lang === "en") await switchToEnglish(page);
      for (const width of SHOTS ? [320, 375, 1280] : [320, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/article?id=${a.id}`);
        await expect(page.locator(".publish-bar")).toBeVisible();
        await expect(page.locator(".publish-badge")).toHaveText(lang === "fr" ? "Brouillon — modifications non publiées" : "Draft — unpublished changes");
        if (width !== 375) {
          if (width === 1280) expect(await axeViolations(page), `${lang} ${width}`).toEqual([]);
          const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
          expect(widths[0], `${lang} ${width}`).toBeLessThanOrEqual(widths[1]!);
        }
        if (width !== 320) await shot(page.locator(".publish-bar"), `publishing/publish-bar-${lang}-${width}`);
      }
    }
    // Keyboard: the publish bar's controls are reachable and the status takes focus after an action.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Cancel schedule" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator(".publish-badge")).toBeFocused();
  });

  test("the not-available page has no axe violations; screenshots in both languages", async ({ browser, page, staff }) => {
    test.setTimeout(120_000);
    await logIn(page, staff);
    const code = { link: (await createArticle(page, { qrcode: true })).link! };
    for (const locale of ["fr-FR", "en-GB"]) {
      // A visitor page: the same DOM at every width (decision 108), axe on the phone; 1280 px for screenshots.
      for (const width of SHOTS ? [375, 1280] : [375]) {
        const context = await browser.newContext({ locale, viewport: { width, height: 700 }, bypassCSP: true });
        const visitor = await context.newPage();
        await visitor.goto(`/r/${code.link}`);
        expect(await axeViolations(visitor), `${locale} ${width}`).toEqual([]);
        expect(await visitor.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth), `${locale} ${width}`).toBe(false);
        await shot(visitor, `publishing/not-available-${locale}-${width}`, { fullPage: true });
        await context.close();
      }
    }
  });
});
