import { devices, type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { call, createArticle, createTour } from "./builders";
import { axeViolations, SHOTS, shot, unique } from "./helpers";

// The offline visit (issue 21 §3, decisions 087-088): a phone walks a tour, saves it, keeps walking in
// airplane mode (next, previous, the keypad), meets the offline page, and its offline views reach the
// statistics once the connection returns.

const phone = { ...devices["Pixel 7"], locale: "fr-FR" };

async function article(page: Page, name: string, stopNumber: number) {
  const elements = [
    { type: "text", content: name },
    { type: "text", content: `${name} : une œuvre de la visite.` },
  ];
  const { articleId: id } = await createArticle(page, { name, elements, published: true });
  return { id, name, stopNumber };
}

/**
 * A tour of these articles in this order, with their stop numbers, through the staff API (docs/api.md: add_tour,
 * update_tour, update_stop_number). Not written with wrangler: a direct write makes the other worker wait
 * until it is done (fixtures.ts writeD1; decision 108). Returns the tour's link.
 */
async function tourOf(page: Page, name: string, stops: { id: number; stopNumber: number | null }[]) {
  const tour = await createTour(page, { name, articleIds: stops.map((s) => s.id) });
  for (const s of stops) if (s.stopNumber !== null) await call(page, "update_stop_number", { articleId: s.id, stopNumber: s.stopNumber });
  return tour.link;
}

/** Views and scans of an article today, from the statistics API (the consumer writes them). */
async function requestsOf(page: Page, articleId: number) {
  const response = await page.request.get(`/api/stats/languages-per-article?articleId=${articleId}&days=10`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as Record<string, unknown>[] | { rows: Record<string, unknown>[] };
  const rows = Array.isArray(body) ? body : body.rows;
  return rows.reduce((sum, row) => sum + Object.entries(row).reduce((s, [k, v]) => s + (k !== "formatted_date" && typeof v === "number" ? v : 0), 0), 0);
}

test("a phone saves a tour, walks it offline by next, previous and number, and its views arrive when back online", async ({ browser, page, staff }) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  const stops = [];
  for (let i = 1; i <= 6; i++) stops.push(await article(page, unique(`Salle ${i}`), 400 + i));
  const link = await tourOf(page, "Parcours hors connexion", stops);

  const context = await browser.newContext(phone);
  const visitor = await context.newPage();
  await visitor.goto(`/t/${link}`);
  await visitor.getByRole("link", { name: "Commencer le parcours" }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[0]!.name);
  for (const next of stops.slice(1, 3)) {
    await visitor.getByRole("link", { name: /Étape suivante/ }).click();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(next.name);
  }

  // Back on the tour page by its name: the size first, then progress, then ready.
  await visitor.getByRole("link", { name: "Parcours hors connexion" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}$`));
  const save = visitor.getByRole("button", { name: "Enregistrer ce parcours hors connexion" });
  await save.click();
  const status = visitor.getByRole("status");
  await expect(status).toContainText(/Ce parcours occupera environ [\d,]+\sMo/);
  const confirm = visitor.getByRole("button", { name: /^Enregistrer \([\d,]+\sMo\)$/ });
  await expect(confirm).toBeFocused();
  await confirm.click();
  await expect(visitor.locator("#v-offline-progress")).toBeVisible();
  await expect(status).toContainText(/Prêt hors connexion/, { timeout: 20_000 });
  await expect(visitor.getByRole("button", { name: "Supprimer de ce téléphone" })).toBeFocused();
  // Saving is not a visit: the stops not yet opened still have no views.
  expect(await requestsOf(page, stops[3]!.id)).toBe(0);

  await context.setOffline(true);
  await visitor.getByRole("link", { name: stops[2]!.name }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[2]!.name);
  await visitor.getByRole("link", { name: /Étape suivante/ }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[3]!.name);
  await visitor.getByRole("link", { name: /Étape suivante/ }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[4]!.name);
  await visitor.getByRole("link", { name: /Étape précédente/ }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[3]!.name);
  // The keypad, from the saved map of numbers.
  await visitor.goto(`/v/${staff.museumSlug}/n`);
  await visitor.locator('input[name="number"]').fill(String(stops[5]!.stopNumber));
  await visitor.getByRole("button", { name: "Valider" }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(stops[5]!.name);
  // A page that was not saved.
  await visitor.goto(`/r/${"2".repeat(8)}`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("Vous êtes hors connexion");
  await visitor.getByRole("link", { name: /Retour au parcours/ }).click();
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}$`));

  // Online again: the next page sends the queued views; the consumer counts them once each.
  await context.setOffline(false);
  await visitor.goto(`/t/${link}`);
  for (const stop of stops.slice(3)) {
    await expect(async () => expect(await requestsOf(page, stop.id)).toBe(1)).toPass({ timeout: 20_000 });
  }
  await context.close();
});

test("the tour page with the save control passes axe and fits a phone, in French and English", async ({ browser, staff }) => {
  test.setTimeout(120_000);
  const page = await (await browser.newContext({ locale: "fr-FR" })).newPage();
  await logIn(page, staff);
  const one = await article(page, unique("Salle"), 1);
  const link = await tourOf(page, "Parcours", [{ ...one, stopNumber: null }]);
  for (const [locale, lang] of [
    ["fr-FR", "fr"],
    ["en-GB", "en"],
  ] as const) {
    // Decision 108: the visitor pages keep their DOM at every width (visitor.css has no width query): axe at
    // the phone's width only; 1280 px only for screenshots (E2E_SHOTS).
    for (const width of SHOTS ? [375, 1280] : [375]) {
      const context = await browser.newContext({ locale, bypassCSP: true, viewport: { width, height: 800 } });
      const tab = await context.newPage();
      await tab.goto(`/t/${link}`);
      const button = tab.locator("#v-offline-save");
      await expect(button).toBeVisible();
      await button.click();
      await expect(tab.getByRole("status")).not.toBeEmpty();
      expect(await axeViolations(tab), `${lang} ${width}`).toEqual([]);
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(tab, `offline-tour-${lang}-${width}`, { fullPage: true });
      await tab.goto(`/offline?tour=${link}&lang=${lang}`);
      expect(await axeViolations(tab), `offline page ${lang} ${width}`).toEqual([]);
      expect(await tab.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(tab, `offline-page-${lang}-${width}`, { fullPage: true });
      await context.close();
    }
  }
});
