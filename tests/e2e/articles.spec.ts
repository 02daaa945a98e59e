import { type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { createArticle } from "./builders";
import { unique, api } from "./helpers";

// Each test works inside folders of its own, named uniquely, so retries and other tests never collide.
function row(page: Page, name: string) {
  return page.locator(".tree-row").filter({ has: page.getByRole("link", { name }) });
}

function toast(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text }).first();
}

test("a staff member organises articles in folders, deletes one and restores it from the trash", async ({ page, staff }) => {
  await logIn(page, staff);
  await page.goto("/articles");
  await expect(page).toHaveTitle("Articles — Muselingo");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Articles");
  await expect(page.getByRole("link", { name: /Retour au tableau de bord/ })).toBeVisible();

  const room = unique("Aile");
  await api(page, "add_folder", { pathArray: [], id: room });
  await page.reload();
  await page.getByRole("link", { name: room }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(room);

  // A folder, with the spec's default name.
  await page.getByRole("button", { name: "Ajouter un dossier" }).click();
  await expect(toast(page, "Dossier créé")).toBeVisible();
  await expect(page.getByRole("link", { name: "Nouveau dossier 1" })).toBeVisible();

  // Rename it from the right-click menu.
  await row(page, "Nouveau dossier 1").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  await page.getByLabel("Nouveau nom de Nouveau dossier 1").fill("Salle des antiques");
  await page.getByRole("button", { name: "Valider" }).click();
  await expect(page.getByRole("link", { name: "Salle des antiques" })).toBeVisible();

  // An article inside it.
  await page.getByRole("link", { name: "Salle des antiques" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Salle des antiques");
  await expect(page.getByRole("navigation", { name: "Fil d'Ariane" }).getByRole("listitem")).toHaveText(["Articles", room, "Salle des antiques"]);
  await page.getByRole("button", { name: "Nouvel article" }).click();
  await expect(toast(page, "Article créé")).toBeVisible();
  // The new article opens in the editor (decision 124); back to its folder.
  await expect(page).toHaveURL(/\/article\?id=\d+$/);
  await page.getByRole("link", { name: /Retour au dossier/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Salle des antiques");
  const articleLink = page.getByRole("link", { name: /Nouvel article \d+/ });
  await expect(articleLink).toHaveAttribute("href", /\/article\?id=\d+$/);
  const articleName = (await articleLink.innerText()).replace(/^Article\s*/, "").trim();

  // Rename it with the keyboard: the row's "⋯" button, Enter, Escape, then again.
  await page.getByRole("button", { name: `Actions pour ${articleName}` }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Renommer" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: /Déplacer vers/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await page.getByRole("button", { name: `Actions pour ${articleName}` }).click();
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  await page.getByLabel(`Nouveau nom de ${articleName}`).fill("Amphore étrusque");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("link", { name: "Amphore étrusque" })).toBeVisible();

  // Clicking away cancels a rename.
  await page.getByRole("button", { name: "Actions pour Amphore étrusque" }).click();
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  await page.getByLabel("Nouveau nom de Amphore étrusque").fill("Should not stick");
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByRole("link", { name: "Amphore étrusque" })).toBeVisible();
  await expect(page.getByLabel("Nouveau nom de Amphore étrusque")).toHaveCount(0);

  // Move it to the parent folder.
  await row(page, "Amphore étrusque").click({ button: "right" });
  await page.getByRole("menuitem", { name: /Déplacer vers/ }).click();
  await page.getByRole("menuitem", { name: `↑ Dossier parent (${room})` }).click();
  await expect(toast(page, "Déplacé")).toBeVisible();
  await expect(page.getByText("Ce dossier est vide.")).toBeVisible();
  await page.getByRole("button", { name: /Retour/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(room);
  await expect(page.getByRole("link", { name: "Amphore étrusque" })).toBeVisible();

  // Delete it, with confirmation.
  await row(page, "Amphore étrusque").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Supprimer" }).click();
  const dialog = page.getByRole("dialog", { name: "Êtes-vous sûr de vouloir supprimer l'article « Amphore étrusque » ?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Supprimer" }).click();
  await expect(toast(page, "Placé dans la corbeille")).toBeVisible();
  await expect(page.getByRole("link", { name: "Amphore étrusque" })).toHaveCount(0);

  // Restore it from the trash: it returns to the folder it left.
  await page.getByRole("link", { name: /Corbeille/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Corbeille" })).toBeVisible();
  await page.getByRole("button", { name: "Restaurer Amphore étrusque" }).click();
  await expect(toast(page, `Restauré dans ${room}`)).toBeVisible();
  await page.goto(`/articles/${encodeURIComponent(room)}`);
  await expect(page.getByRole("link", { name: "Amphore étrusque" })).toBeVisible();
});

test("deleting a folder that holds items says how many before confirming", async ({ page, staff }) => {
  await logIn(page, staff);
  const name = unique("Réserve");
  await api(page, "add_folder", { pathArray: [], id: name });
  await api(page, "add_folder", { pathArray: [name], id: "Caisses" });
  await createArticle(page, { folder: [name, "Caisses"] });
  await page.goto("/articles");

  await page.getByRole("button", { name: `Actions pour ${name}` }).click();
  await page.getByRole("menuitem", { name: "Supprimer" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Êtes-vous sûr de vouloir supprimer le dossier « ${name} » ?`);
  await expect(dialog).toContainText("Il contient 2 éléments, qui partiront avec lui.");
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("link", { name })).toBeVisible();
});
