import { readFile } from "node:fs/promises";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle, createQrCode } from "./builders";
import { unique, api, axeViolations, switchToEnglish } from "./helpers";

// The QR code journey of a staff member: add a code, link it to an article, print it. Each test works in
// a museum of its own (the `staff` fixture), with articles named uniquely.
async function addArticle(page: Page, name: string) {
  return (await createArticle(page, { name })).articleId;
}

const addCode = async (page: Page) => {
  const { qrcodeId: id, link } = await createQrCode(page);
  return { id, link };
};
const state = (page: Page) => page.getByTestId("qrcode-state");
const INACTIVE = "Code QR inactif. Aucun article associé.";

test("add a code, link it to an article found by searching, then unlink it", async ({ page, staff }) => {
  await logIn(page, staff);
  const name = unique("Amphore à anses");
  await addArticle(page, name);
  await addArticle(page, unique("Stèle funéraire"));

  await page.goto("/qrcodes");
  await expect(page.getByText("Aucun code QR pour l'instant")).toBeVisible();
  await page.getByRole("button", { name: "Ajouter un code QR" }).click();
  await expect(page).toHaveURL(/\/qrcode\?id=\d+$/);
  // The address changes before the new page renders: wait for its heading, not the list's still on screen (a flake
  // of decision 140's runs read "Codes QR" here).
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText(/^Code QR [a-z0-9]{8}$/);
  const link = /^Code QR ([a-z0-9]{8})$/.exec((await heading.textContent()) ?? "")?.[1];
  expect(link).toBeTruthy();
  await expect(state(page)).toHaveText(INACTIVE);

  // Case and accents do not matter in the search.
  const group = page.getByRole("group", { name: "Articles" });
  await expect(group.getByRole("radio")).toHaveCount(2);
  await page.getByLabel("Rechercher un article").fill("AMPHORE A ANSES");
  await expect(group.getByRole("radio")).toHaveCount(1);
  await group.getByRole("radio", { name }).check();
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Code QR mis à jour avec succès")).toBeVisible();
  await expect(state(page)).toHaveText(`Ce code QR mène les visiteurs à l'article « ${name} »`);

  await page.getByRole("link", { name: "Retour aux codes QR" }).click();
  const row = page.getByRole("listitem").filter({ hasText: `Code QR ${link}` });
  await expect(row).toContainText(name);
  await row.getByRole("link", { name: `Code QR ${link}` }).click();
  await expect(group.getByRole("radio", { name })).toBeChecked();

  await page.getByRole("button", { name: "Dissocier l'article" }).click();
  await expect(page.getByText("Code QR mis à jour avec succès")).toBeVisible();
  await expect(state(page)).toHaveText(INACTIVE);
  await expect(page.getByRole("button", { name: "Dissocier l'article" })).toHaveCount(0);
});

test("the article picker works with the keyboard alone", async ({ page, staff }) => {
  await logIn(page, staff);
  const names = [unique("Vase attique"), unique("Vase corinthien"), unique("Lampe")];
  for (const name of names) await addArticle(page, name);
  const code = await addCode(page);
  await page.goto(`/qrcode?id=${code.id}`);

  // From the back link, Tab reaches the search box.
  await page.getByRole("link", { name: "Retour aux codes QR" }).focus();
  const search = page.getByLabel("Rechercher un article");
  for (let i = 0; i < 5 && !(await search.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(search).toBeFocused();
  await page.keyboard.type("vase");
  await expect(page.getByText("2 articles")).toBeVisible();

  // Enter does not send the form: it goes to the list. The arrows move the choice.
  await page.keyboard.press("Enter");
  const radios = page.getByRole("group", { name: "Articles" }).getByRole("radio");
  await expect(radios.first()).toBeFocused();
  await page.keyboard.press("Space");
  await expect(radios.first()).toBeChecked();
  await page.keyboard.press("ArrowDown");
  await expect(radios.nth(1)).toBeFocused();
  await expect(radios.nth(1)).toBeChecked();
  await expect(page.getByText("Code QR mis à jour avec succès")).toHaveCount(0);

  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Enregistrer" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Code QR mis à jour avec succès")).toBeVisible();
  await expect(state(page)).toHaveText(`Ce code QR mène les visiteurs à l'article « ${names[1]} »`);

  // Shift+Tab from the search box's list comes back to the search box.
  await search.focus();
  await page.keyboard.press("ArrowDown");
  await expect(radios.nth(1)).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(search).toBeFocused();
});

test("the downloaded PNG holds the public address written on the page", async ({ page, staff }) => {
  await logIn(page, staff);
  const code = await addCode(page);
  await page.goto(`/qrcode?id=${code.id}`);
  const address = (await page.getByTestId("public-address").textContent())?.trim();
  expect(address).toMatch(new RegExp(`^http://localhost:\\d+/r/${code.link}$`));

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Télécharger en PNG" }).click()]);
  expect(download.suggestedFilename()).toBe(`qrcode-${code.link}.png`);
  const image = PNG.sync.read(await readFile((await download.path())!));

  // A white border gives the decoder the quiet zone it expects around a code.
  const pad = 40;
  const padded = new PNG({ width: image.width + 2 * pad, height: image.height + 2 * pad });
  padded.data.fill(255);
  PNG.bitblt(image, padded, 0, 0, image.width, image.height, pad, pad);
  const decoded = jsQR(new Uint8ClampedArray(padded.data), padded.width, padded.height, { inversionAttempts: "attemptBoth" });
  expect(decoded?.data).toBe(address);
});

test("the print sheet shows the chosen codes, or all of them, with a Print button", async ({ page, staff }) => {
  await logIn(page, staff);
  const name = unique("Mosaïque");
  const articleId = await addArticle(page, name);
  const codes = [await addCode(page), await addCode(page), await addCode(page)];
  await api(page, "update_qrcode", { qrcodeId: codes[0]!.id, articleId });

  await page.goto("/qrcodes");
  await expect(page.getByRole("button", { name: "Imprimer tous les codes" })).toBeVisible();
  await page.getByRole("checkbox", { name: `Sélectionner le code QR ${codes[0]!.link} pour l'impression` }).check();
  await page.getByRole("checkbox", { name: `Sélectionner le code QR ${codes[2]!.link} pour l'impression` }).check();
  await page.getByRole("button", { name: "Imprimer les 2 codes sélectionnés" }).click();
  await expect(page).toHaveURL(new RegExp(`/qrcodes/print\\?ids=${codes[0]!.id},${codes[2]!.id}$`));

  const cells = page.locator(".print-cell");
  await expect(cells).toHaveCount(2);
  await expect(cells.first()).toContainText(name);
  await expect(cells.first()).toContainText(`/r/${codes[0]!.link}`);
  await expect(cells.last()).toContainText("Inactif");
  await expect(page.getByRole("button", { name: "Imprimer", exact: true })).toBeVisible();

  // Printed, only the sheet is left: no site header, footer or screen controls.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("banner")).toBeHidden();
  await expect(page.getByRole("contentinfo")).toBeHidden();
  await expect(page.getByRole("button", { name: "Imprimer", exact: true })).toBeHidden();
  await expect(cells.first()).toBeVisible();
  await page.emulateMedia({ media: "screen" });

  await page.getByRole("link", { name: "Retour aux codes QR" }).click();
  await expect(page).toHaveURL(/\/qrcodes$/);
  await page.goto("/qrcodes/print");
  await expect(cells).toHaveCount(3);
});

test.describe("on a 320 px phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("nothing scrolls sideways on the list, the code page and the print sheet", async ({ page, staff }) => {
    await logIn(page, staff);
    const longName = `Un-article-au-nom-interminable-${"x".repeat(60)}`.slice(0, 100);
    const articleId = await addArticle(page, longName);
    const code = await addCode(page);
    await api(page, "update_qrcode", { qrcodeId: code.id, articleId });
    await addCode(page);

    for (const path of ["/qrcodes", `/qrcode?id=${code.id}`, "/qrcodes/print"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
    }
  });
});

test.describe("accessibility", () => {
  // The app's nonce CSP would block the injected axe script.
  test.use({ bypassCSP: true });

  test("/qrcodes, /qrcode?id= and the print sheet have no axe violations, in French and in English", async ({ page, staff }) => {
    await logIn(page, staff);
    const articleId = await addArticle(page, unique("Buste"));
    await addArticle(page, unique("Fibule"));
    const active = await addCode(page);
    const inactive = await addCode(page);
    await api(page, "update_qrcode", { qrcodeId: active.id, articleId });

    for (const lang of ["fr", "en"]) {
      if (lang === "en") await switchToEnglish(page);
      for (const path of ["/qrcodes", `/qrcode?id=${active.id}`, `/qrcode?id=${inactive.id}`, "/qrcodes/print"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await axeViolations(page), `${lang} ${path}`).toEqual([]);
      }
    }
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Print QR codes");
  });
});
