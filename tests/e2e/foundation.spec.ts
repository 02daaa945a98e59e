import { expect, logIn, logInByForm, test } from "./fixtures";

test("a staff member logs in, sees the dashboard and logs out", async ({ page, staff }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Connexion — Muselingo");
  await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
  await expect(page.getByLabel("Adresse e-mail")).toHaveAttribute("type", "email");
  await expect(page.getByRole("link", { name: /Contactez-nous et obtenez un accès/ })).toHaveAttribute("href", "/contact");

  await logInByForm(page, staff);
  await expect(page.getByText("Connexion réussie")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Tableau de bord" })).toBeVisible();
  for (const name of ["Articles", "Codes QR", "Statistiques", "Réglages"]) {
    await expect(page.getByRole("main").getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Réserver une démo" })).toHaveCount(0);

  await page.getByRole("button", { name: "Déconnexion" }).click();
  await expect(page.getByText("Déconnexion réussie")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("button", { name: "Déconnexion" })).toHaveCount(0);
  await expect(page.getByRole("banner").getByRole("link", { name: "Réserver une démo" })).toBeVisible();

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
});

test("a wrong password shows the error and keeps the visitor on the login page", async ({ page, staff }) => {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(staff.email);
  await page.getByLabel("Mot de passe").fill("not the password");
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Email ou mot de passe invalide" })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("after logging in from a protected page the user lands back on it", async ({ page, staff }) => {
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await page.getByLabel("Adresse e-mail").fill(staff.email);
  await page.getByLabel("Mot de passe").fill(staff.password);
  await page.getByLabel("Mot de passe").press("Enter");
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Réglages" })).toBeVisible();
});

test("the interface switches to English and back, and the choice is remembered", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  const switcher = page.getByRole("banner").getByRole("button", { name: /Langue de l'interface/ });
  await switcher.click();
  await expect(page.getByRole("button", { name: "EN", exact: true })).toBeVisible();
  // An outside click closes the dropdown.
  await page.getByRole("heading", { level: 1 }).click();
  await expect(page.getByRole("button", { name: "EN", exact: true })).toHaveCount(0);

  await switcher.click();
  await page.getByRole("button", { name: "EN", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your museum's multilingual guide" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("contentinfo")).toContainText(`Muselingo ${new Date().getFullYear()} by`);

  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();

  await page
    .getByRole("banner")
    .getByRole("button", { name: /Interface language/ })
    .click();
  await page.getByRole("button", { name: "FR", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
});

test("an unknown address shows the not-found page in both languages", async ({ page }) => {
  const response = await page.goto("/nowhere/at-all");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Il n'y a rien par ici..." })).toBeVisible();
  await page
    .getByRole("banner")
    .getByRole("button", { name: /Langue de l'interface/ })
    .click();
  await page.getByRole("button", { name: "EN", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Nothing there..." })).toBeVisible();
  await page.getByRole("link", { name: "Back to home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the menu opens, closes on an outside press and on navigation", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Blog" })).toBeHidden();
    const toggle = page.getByRole("button", { name: "Ouvrir le menu" });
    await toggle.click();
    const panel = page.locator("#mobile-menu-panel");
    await expect(panel.getByRole("link", { name: "Tableau de bord" })).toBeVisible();
    await expect(panel.getByRole("button", { name: /Langue de l'interface/ })).toBeVisible();

    // A tap outside the panel (the page's lower half, away from the open menu).
    await page.mouse.click(20, 600);
    await expect(panel).toHaveCount(0);

    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await panel.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator("#mobile-menu-panel")).toHaveCount(0);
  });
});

test("settings: the museum's name can be changed", async ({ page, staff }) => {
  await logIn(page, staff);
  await page.goto("/settings");
  const name = page.getByLabel("Nom du musée");
  await expect(name).toHaveValue(staff.museumName);
  await name.fill("Musée d'histoire de Marseille");
  await page.getByRole("button", { name: "Enregistrer le musée" }).click();
  await expect(page.getByText("Réglages du musée enregistrés")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Nom du musée")).toHaveValue("Musée d'histoire de Marseille");
});
