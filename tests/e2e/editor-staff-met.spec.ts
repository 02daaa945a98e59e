import { type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { createArticle } from "./builders";
import { api, elementCard, openCard, shot, switchToEnglish, unique } from "./helpers";

// What staff met in the editor (decision 124): "New article" opens it, Ctrl+S saves from inside a field (a
// bare "www.louvre.fr/…" completed), an open card's first field follows its title in the Tab order, the
// English title has no French colon, and on a phone a tap on "Aperçu" shows the preview.

async function articleWith(page: Page, elements: unknown[]) {
  return (await createArticle(page, { elements })).articleId;
}

test("New article opens the new article in the editor, focus on its title", async ({ page, staff }) => {
  await logIn(page, staff);
  const room = unique("Salle");
  await api(page, "add_folder", { pathArray: [], id: room });
  await page.goto(`/articles/${encodeURIComponent(room)}`);
  await page.getByRole("button", { name: "Nouvel article" }).click();
  await expect(page).toHaveURL(/\/article\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get("id"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Article ${id} : Nouvel article \\d+$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(page.getByRole("link", { name: /Retour au dossier/ })).toHaveAttribute("href", `/articles/${encodeURIComponent(room)}`);
});

test("Ctrl+S saves from inside a field, completes a bare address, and focus stays", async ({ page, staff }) => {
  await logIn(page, staff);
  const id = await articleWith(page, [{ type: "link", link: "", content: "Le Louvre" }]);
  await page.goto(`/article?id=${id}`);
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await openCard(page, "Lien", 1, 1);
  const url = elementCard(page, "Lien", 1, 1).getByLabel("Adresse du lien");
  await url.fill("www.louvre.fr/fr/explorer/la-joconde");
  await expect(page.getByText("Modifications non enregistrées", { exact: true })).toBeVisible();
  await url.press("Control+s");
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await expect(url).toBeFocused();
  await expect(url).toHaveValue("https://www.louvre.fr/fr/explorer/la-joconde");
  const saved = await (await page.request.get(`/api/read/article?articleId=${id}`)).json();
  expect(saved.content[1].link).toBe("https://www.louvre.fr/fr/explorer/la-joconde");

  // From the article's name too; the browser's "save page" never opens (the page is still here, saved).
  const name = page.getByLabel("Nom privé");
  await name.fill(unique("Joconde"));
  await name.press("Control+s");
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await expect(name).toBeFocused();
});

test("an open card's first field comes right after its title in the Tab order", async ({ page, staff }) => {
  await logIn(page, staff);
  const id = await articleWith(page, [
    { type: "text", content: "Premier" },
    { type: "text", content: "Second" },
  ]);
  await page.goto(`/article?id=${id}`);
  const card = elementCard(page, "Texte", 1, 2);
  const toggle = card.getByRole("button", { name: /^Texte, élément 1 sur 2/ });
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(card.getByRole("textbox").first()).toBeFocused();
  // The card's buttons are still there, after its fields; moving it keeps focus on the button pressed.
  const down = card.getByRole("button", { name: /Descendre/ });
  await down.click();
  await expect(page.getByRole("button", { name: /Descendre — Texte, élément 2 sur 2/ })).toBeFocused();
  // A closed card keeps its buttons in its head.
  await expect(elementCard(page, "Texte", 1, 2).getByRole("button", { name: /Monter/ })).toBeVisible();
});

test("the editor's title reads as English in English", async ({ page, staff }) => {
  await logIn(page, staff);
  const id = await articleWith(page, []);
  await page.goto(`/article?id=${id}`);
  await switchToEnglish(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(new RegExp(`^Article ${id}: `));
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("a tap on Aperçu shows the preview, not the action buttons above it", async ({ page, staff }) => {
    await logIn(page, staff);
    const id = await articleWith(page, [{ type: "text", content: "L'amphore attique" }]);
    await page.goto(`/article?id=${id}`);
    const preview = page.getByRole("tablist").getByRole("tab", { name: "Aperçu" });
    await preview.click();
    await expect(page.locator(".phone__screen")).toContainText("L'amphore attique");
    // The preview starts in the top half of the screen, under the pinned bar: not below the actions and the publish panel.
    const box = (await page.locator(".phone__screen").boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeLessThan(740 / 2);
    await expect(page.locator(".phone__screen")).toBeInViewport();
    await shot(page, "editor-375-preview-fr");
  });
});
