import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./fixtures";

function row(page: Page, name: string) {
  return page.locator(".tree-row").filter({ has: page.getByRole("link", { name, exact: false }) });
}

test("a staff member organises articles in folders, deletes one and restores it from the trash", async ({ page }) => {
  await logIn(page);
  await page.goto("/articles");
  await expect(page).toHaveTitle("Articles — Muselingo");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Articles /");
  await expect(page.getByRole("link", { name: /Retour au tableau de bord/ })).toBeVisible();

  // A folder, with the spec's default name.
  await page.getByRole("button", { name: "Ajouter un dossier" }).click();
  await expect(page.getByText("Dossier créé")).toBeVisible();
  const folderLink = page.getByRole("link", { name: /Nouveau dossier 1/ });
  await expect(folderLink).toBeVisible();

  // Rename it from the right-click menu.
  await row(page, "Nouveau dossier 1").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  const folderInput = page.getByLabel("Nouveau nom de Nouveau dossier 1");
  await folderInput.fill("Salle des antiques");
  await page.getByRole("button", { name: "Valider" }).click();
  await expect(page.getByRole("link", { name: /Salle des antiques/ })).toBeVisible();

  // An article inside it.
  await page.getByRole("link", { name: /Salle des antiques/ }).click();
  await expect(page).toHaveURL(/\/articles\/Salle%20des%20antiques$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Articles / Salle des antiques");
  await page.getByRole("button", { name: "Nouvel article" }).click();
  await expect(page.getByText("Article créé")).toBeVisible();
  await expect(page.getByRole("link", { name: /Nouvel article \d+/ })).toHaveAttribute("href", /\/article\?id=\d+$/);

  // Rename it with the keyboard: the row's "⋯" button, arrows, Enter.
  const articleName = (await page.getByRole("link", { name: /Nouvel article \d+/ }).innerText()).replace(/^Article\s*/, "").trim();
  await page.getByRole("button", { name: `Actions pour ${articleName}` }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Renommer" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toHaveCount(0);
  await page.getByRole("button", { name: `Actions pour ${articleName}` }).click();
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  await page.getByLabel(`Nouveau nom de ${articleName}`).fill("Amphore étrusque");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("link", { name: /Amphore étrusque/ })).toBeVisible();

  // Clicking away cancels a rename.
  await page.getByRole("button", { name: "Actions pour Amphore étrusque" }).click();
  await page.getByRole("menuitem", { name: "Renommer" }).click();
  await page.getByLabel("Nouveau nom de Amphore étrusque").fill("Should not stick");
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByRole("link", { name: /Amphore étrusque/ })).toBeVisible();

  // Move it to the parent folder (the root).
  await row(page, "Amphore étrusque").click({ button: "right" });
  await page.getByRole("menuitem", { name: /Déplacer vers/ }).click();
  await page.getByRole("menuitem", { name: /Dossier parent \(Racine\)/ }).click();
  await expect(page.getByText("Déplacé")).toBeVisible();
  await expect(page.getByText("Ce dossier est vide.")).toBeVisible();
  await page.getByRole("button", { name: /Retour/ }).click();
  await expect(page).toHaveURL(/\/articles$/);
  await expect(page.getByRole("link", { name: /Amphore étrusque/ })).toBeVisible();

  // Delete it, with confirmation.
  await row(page, "Amphore étrusque").click({ button: "right" });
  await page.getByRole("menuitem", { name: "Supprimer" }).click();
  const dialog = page.getByRole("dialog", { name: "Êtes-vous sûr de vouloir supprimer cet article ?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByText("Placé dans la corbeille")).toBeVisible();
  await expect(page.getByRole("link", { name: /Amphore étrusque/ })).toHaveCount(0);

  // Restore it from the trash.
  await page.getByRole("link", { name: /Corbeille/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Corbeille" })).toBeVisible();
  await page.getByRole("button", { name: "Restaurer Amphore étrusque" }).click();
  await expect(page.getByText("Restauré dans Racine")).toBeVisible();
  await expect(page.getByText("La corbeille est vide.")).toBeVisible();
  await page.getByRole("link", { name: /Retour aux articles/ }).click();
  await expect(page.getByRole("link", { name: /Amphore étrusque/ })).toBeVisible();
});

test("deleting a folder that holds items says how many before confirming", async ({ page }) => {
  await logIn(page);
  await page.goto("/articles");
  await page.getByRole("button", { name: "Ajouter un dossier" }).click();
  const name = (await page.locator(".tree-row--folder .tree-row__link").last().innerText()).replace(/^Dossier\s*/, "").trim();
  await page.getByRole("link", { name: new RegExp(name) }).click();
  await page.getByRole("button", { name: "Nouvel article" }).click();
  await expect(page.getByText("Article créé")).toBeVisible();
  await page.getByRole("button", { name: "Ajouter un dossier" }).click();
  await expect(page.getByText("Dossier créé")).toBeVisible();
  await page.getByRole("button", { name: /Retour/ }).click();

  await page.getByRole("button", { name: `Actions pour ${name}` }).click();
  await page.getByRole("menuitem", { name: "Supprimer" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Êtes-vous sûr de vouloir supprimer le dossier « ${name} » ?`);
  await expect(dialog).toContainText("Il contient 2 élément(s)");
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();
});
