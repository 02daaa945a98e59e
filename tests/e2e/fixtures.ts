import { expect, type Page } from "@playwright/test";

// Seeded by `npm start` on the fresh e2e database (scripts/lib.mjs DEMO).
export const DEMO = { email: "demo@muselingo.test", password: "muselingo-demo" };

export async function logIn(page: Page, user = DEMO) {
  await page.goto("/login");
  await page.getByLabel("Adresse e-mail").fill(user.email);
  await page.getByLabel("Mot de passe").fill(user.password);
  await page.getByLabel("Mot de passe").press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
}
