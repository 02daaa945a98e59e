import { readFileSync } from "node:fs";
import sharp from "sharp";
import { strToU8, zipSync } from "fflate";
import { type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { axeViolations, shot, switchToEnglish, unique } from "./helpers";

// The import page (/import, decisions 054–056): a CSV and a ZIP of pictures (one over 200 KB, resized by the
// browser before sending), the dry run's table, the confirmation, the articles arriving as drafts; then the
// same file again changes nothing, in English. Axe at 320 and 1280 px in both languages.

test.use({ bypassCSP: true });

async function bigPicture(): Promise<Buffer> {
  // Noise does not compress: an 800×800 PNG of it weighs about 1.9 MB, well over the 200 KB upload limit.
  const raw = Buffer.alloc(800 * 800 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
  return sharp(raw, { raw: { width: 800, height: 800, channels: 3 } })
    .png()
    .toBuffer();
}

async function smallPicture(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#7b2cbf" } })
    .png()
    .toBuffer();
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function checkAt(page: Page, width: number, label: string) {
  await page.setViewportSize({ width, height: 900 });
  expect(await axeViolations(page), `${label} ${width}px`).toEqual([]);
  await noSidewaysScroll(page);
}

test("a curator imports a CSV and its pictures after a dry run; the same file again changes nothing", async ({ page, staff }) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  const folder = unique("Salle");
  const slugA = `amphore-${Date.now().toString(36)}`;
  const csv = [
    "Dossier;Nom;Adresse;Texte;Image;Texte alternatif;Légende;Libellé du lien;URL du lien",
    `${folder}/Vitrine 3;Amphore;${slugA};"Amphore\n\nAthènes, vers 530 av. J.-C.";grande.png;Une amphore;;Notice;https://example.org/amphore`,
    `${folder};Vase à parfum;;Vase;petite.png;Un vase;Frise d'animaux;;`,
  ].join("\r\n");
  const images = zipSync({ "grande.png": await bigPicture(), "petite.png": await smallPicture(), "__MACOSX/._grande.png": strToU8("x") });

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Importer des articles" }).first().click();
  await expect(page).toHaveURL(/\/import$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Importer des articles");
  await checkAt(page, 1280, "fr empty");
  await shot(page, "import-fr-1280-empty", { fullPage: true });

  await page.getByLabel("Tableur", { exact: true }).setInputFiles({ name: "cartels.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByLabel("Images (facultatif)", { exact: true }).setInputFiles({ name: "images.zip", mimeType: "application/zip", buffer: Buffer.from(images) });
  await page.getByRole("button", { name: "Vérifier le fichier" }).click();

  const plan = page.getByRole("heading", { name: "Ce que fera l’import" });
  await expect(plan).toBeFocused({ timeout: 30_000 });
  await expect(page.locator(".import-plan").getByRole("status")).toHaveText("2 à créer, 0 à mettre à jour, 0 inchangés, 0 en erreur.");
  const table = page.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("row").nth(1)).toContainText("Créer");
  await expect(table.getByRole("row").nth(1)).toContainText(slugA);
  await expect(page.getByRole("combobox", { name: "Nom du fichier image" })).toHaveValue("4");
  await checkAt(page, 1280, "fr plan");
  await shot(page, "import-fr-1280-plan", { fullPage: true });
  await checkAt(page, 320, "fr plan");
  await page.setViewportSize({ width: 375, height: 900 });
  await shot(page, "import-fr-375-plan", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Keyboard: the confirm button is reachable and pressing it imports.
  const confirm = page.getByRole("button", { name: "Importer 2 articles" });
  await confirm.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Import terminé" })).toBeFocused({ timeout: 30_000 });
  await expect(page.locator(".import-plan").getByRole("status")).toContainText("2 créés, 0 mis à jour, 0 inchangés");

  // The picture over 200 KB arrived resized; both articles are unpublished drafts.
  await page.getByRole("link", { name: "Amphore" }).click();
  await expect(page).toHaveURL(/\/article\?id=\d+$/);
  const id = new URL(page.url()).searchParams.get("id");
  const read = (await (await page.request.get(`/api/read/article?articleId=${id}`)).json()) as { status: string; content: { type: string; src?: string }[] };
  expect(read.status).not.toBe("published");
  const src = read.content.find((e) => e.type === "image")!.src!;
  const picture = await page.request.get(src);
  expect(picture.status()).toBe(200);
  expect((await picture.body()).length).toBeLessThanOrEqual(200 * 1024);

  // The same file again, in English: every row unchanged, nothing to confirm.
  await page.goto("/import");
  await switchToEnglish(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Import articles");
  await checkAt(page, 1280, "en empty");
  await page.getByLabel("Spreadsheet", { exact: true }).setInputFiles({ name: "cartels.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByLabel("Pictures (optional)", { exact: true }).setInputFiles({ name: "images.zip", mimeType: "application/zip", buffer: Buffer.from(images) });
  await page.getByRole("button", { name: "Check the file" }).click();
  await expect(page.getByRole("heading", { name: "What the import will do" })).toBeFocused({ timeout: 30_000 });
  await expect(page.locator(".import-plan").getByRole("status")).toHaveText("0 to create, 0 to update, 2 unchanged, 0 with errors.");
  await expect(page.getByText("Nothing to import: every row is already up to date.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Import \d/ })).toHaveCount(0);
  await checkAt(page, 1280, "en plan");
  await shot(page, "import-en-1280-plan", { fullPage: true });
  await checkAt(page, 320, "en plan");
  await page.setViewportSize({ width: 375, height: 900 });
  await shot(page, "import-en-375-plan", { fullPage: true });
});

test("a row with an error is shown by row and column, in the interface language, and blocks the import", async ({ page, staff }) => {
  await logIn(page, staff);
  await page.goto("/import");
  const csv = "Nom,Texte,Lien URL\nBon,Texte,\n,Sans nom,\nLien,x,javascript:alert(1)\n";
  await page.getByLabel("Tableur", { exact: true }).setInputFiles({ name: "a.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Vérifier le fichier" }).click();
  await expect(page.getByRole("heading", { name: "Ce que fera l’import" })).toBeFocused({ timeout: 30_000 });
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.nth(2)).toContainText("Ligne 3");
  await expect(rows.nth(2)).toContainText("Nom (« Nom ») : obligatoire");
  await expect(rows.nth(3)).toContainText("URL du lien (« Lien URL ») : n’est pas une adresse web (http, https), mailto: ou tel: valide");
  await expect(page.getByRole("button", { name: "Importer 1 article" })).toBeDisabled();
  // Unmapping the link column and checking again clears that row's error.
  await page.getByRole("combobox", { name: "URL du lien" }).selectOption("");
  await page.getByRole("button", { name: "Vérifier de nouveau avec ces colonnes" }).click();
  await expect(page.locator(".import-plan").getByRole("status")).toHaveText("2 à créer, 0 à mettre à jour, 0 inchangés, 1 en erreur.", { timeout: 30_000 });
  expect(await axeViolations(page)).toEqual([]);
});

test("a curator imports the ODS LibreOffice saves, and an old .xls is refused saying what to save it as", async ({ page, staff }) => {
  await logIn(page, staff);
  await page.goto("/import");
  const ods = readFileSync(new URL("../fixtures/sheets/small.ods", import.meta.url));
  await page
    .getByLabel("Tableur", { exact: true })
    .setInputFiles({ name: "cartels.ods", mimeType: "application/vnd.oasis.opendocument.spreadsheet", buffer: ods });
  await page.getByRole("button", { name: "Vérifier le fichier" }).click();
  await expect(page.getByRole("heading", { name: "Ce que fera l’import" })).toBeFocused({ timeout: 30_000 });
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);

  const xls = Buffer.alloc(4096);
  xls.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  await page.getByLabel("Tableur", { exact: true }).setInputFiles({ name: "cartels.xls", mimeType: "application/vnd.ms-excel", buffer: xls });
  await page.getByRole("button", { name: "Vérifier le fichier" }).click();
  const problem = page.getByRole("alert").filter({ hasText: "enregistrez-le en XLSX ou en CSV" });
  await expect(problem).toBeVisible({ timeout: 30_000 });
  await expect(problem).toBeFocused();
});
