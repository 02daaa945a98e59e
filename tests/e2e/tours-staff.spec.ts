import { type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { createArticle, createQrCode } from "./builders";
import { api, axeViolations, switchToEnglish, unique } from "./helpers";

// Tours, staff side (issue 21 part 1): staff turn a folder into a tour, reorder it by keyboard, give a stop
// its number (a taken number is said beside the field), and print the tour's code with the numbered labels.
// The API's rules (validation, tenancy, races) are tested in tests/integration/tours-api.test.ts.

test.use({ bypassCSP: true });

const SHOTS = process.env.TOURS_SHOTS;

// Decision 108: the tour pages keep their DOM at every width (tours.css only changes the grid above 960 px;
// the header's phone menu is axe-checked on other pages): axe at 1280 px, the sideways check at 320 px too.
async function checkLayout(page: Page, label: string) {
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 1280) expect(await axeViolations(page), `${label} ${width}`).toEqual([]);
    const [scroll, client] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(scroll, `${label} ${width}: no sideways scroll`).toBeLessThanOrEqual(client!);
  }
}

async function shots(page: Page, name: string, lang: string) {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${width}.png`, fullPage: true });
  }
}

test("staff turn a folder into a tour, reorder it by keyboard, number a stop and print the tour's code", async ({ page, staff }) => {
  test.setTimeout(90_000);
  await logIn(page, staff);
  const folder = unique("Salle des bronzes");
  await api(page, "add_folder", { pathArray: [], id: folder });
  const names = ["A — Hermès", "B — Athéna", "C — Poséidon"];
  const ids: number[] = [];
  for (const name of names) ids.push((await createArticle(page, { name, folder: [folder] })).articleId);
  const code = await createQrCode(page, { articleId: ids[0]! });

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Parcours" }).click();
  await expect(page).toHaveURL(/\/tours$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Parcours");
  await checkLayout(page, "/tours empty");

  // Turn the folder into a tour (the tour takes the folder's name).
  await page.getByLabel("Partir d'un dossier (facultatif)").selectOption({ label: folder });
  await page.getByRole("button", { name: "Faire du dossier un parcours" }).click();
  await expect(page).toHaveURL(/\/tours\/\d+$/);
  const tourId = Number(/\/tours\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Parcours : ${folder}`);
  const stops = page.getByRole("list", { name: "Étapes du parcours, dans l'ordre" });
  await expect(stops.locator(".tour-stop__name")).toHaveText(names);

  // Reorder by keyboard: "move down" on the first stop, announced, focus stays with the moved stop.
  await page.getByRole("button", { name: `Descendre « ${names[0]} »` }).focus();
  await page.keyboard.press("Enter");
  await expect(stops.locator(".tour-stop__name")).toHaveText([names[1]!, names[0]!, names[2]!]);
  await expect(page.getByRole("status").filter({ hasText: `« ${names[0]} » est maintenant l'étape 2 sur 3.` })).toHaveCount(1);
  await expect(page.getByRole("button", { name: `Descendre « ${names[0]} »` })).toBeFocused();
  await page.getByLabel("Durée estimée (minutes)").fill("40");
  await page.getByRole("button", { name: "Enregistrer le parcours" }).press("Enter");
  await expect(page.getByText("Parcours enregistré. Les visiteurs voient la modification dès maintenant.")).toBeVisible();

  // A stop number, saved on its own; the same number on another stop is refused beside its field.
  await page.getByLabel(`Numéro d'étape — ${names[0]}`).fill("12");
  await page.getByLabel(`Numéro d'étape — ${names[0]}`).press("Enter");
  await expect(page.getByText("Numéro d'étape 12 enregistré.")).toBeVisible();
  await page.getByLabel(`Numéro d'étape — ${names[1]}`).fill("12");
  await page.getByLabel(`Numéro d'étape — ${names[1]}`).press("Enter");
  await expect(page.getByText(`Le numéro 12 est déjà pris par « ${names[0]} ».`)).toBeVisible();
  await expect(page.getByLabel(`Numéro d'étape — ${names[1]}`)).toHaveAttribute("aria-invalid", "true");

  // Saved for real: a reload shows the new order, the duration and the number.
  await page.reload();
  await expect(stops.locator(".tour-stop__name")).toHaveText([names[1]!, names[0]!, names[2]!]);
  await expect(page.getByLabel("Durée estimée (minutes)")).toHaveValue("40");
  await expect(page.getByLabel(`Numéro d'étape — ${names[0]}`)).toHaveValue("12");
  await checkLayout(page, "/tours/{id}");
  await shots(page, "tour", "fr");
  await page.goto("/tours");
  await expect(page.getByRole("link", { name: folder })).toBeVisible();
  await checkLayout(page, "/tours");
  await shots(page, "tours", "fr");

  // Print: tick the tour and the article's code on the QR codes page.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/qrcodes");
  await page.getByLabel(`Imprimer le code du parcours « ${folder} »`).check();
  await page.locator(`#pick-${code.qrcodeId}`).check();
  await page.getByRole("button", { name: /Imprimer/ }).click();
  await expect(page).toHaveURL(new RegExp(`/qrcodes/print\\?ids=${code.qrcodeId}&tours=${tourId}$`));
  const cells = page.locator(".print-cell");
  await expect(cells).toHaveCount(2);
  await expect(cells.nth(0)).toContainText("Étape 12");
  await expect(cells.nth(0)).toContainText(names[0]!);
  await expect(cells.nth(1)).toContainText("Parcours");
  await expect(cells.nth(1)).toContainText(folder);
  await expect(cells.nth(1)).toContainText("/t/");
  await expect(cells.nth(1).getByRole("img", { name: `Code QR du parcours « ${folder} »` })).toBeVisible();
  await shots(page, "print", "fr");

  // English: the same pages speak English.
  await page.goto(`/tours/${tourId}`);
  await switchToEnglish(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Tour: ${folder}`);
  await expect(page.getByRole("button", { name: "Save the tour" })).toBeVisible();
  await checkLayout(page, "/tours/{id} en");
  await shots(page, "tour", "en");
  await page.goto("/tours");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tours");
  await shots(page, "tours", "en");
});
