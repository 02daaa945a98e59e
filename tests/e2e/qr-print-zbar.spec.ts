import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle, createQrCode, createTour } from "./builders";
import { unique, axeViolations, SHOTS } from "./helpers";
import { zbarDecode } from "../support/zbar";

// Issue 29: the print sheet as chromium really prints it, read by zbar (`zbarimg`, Debian zbar-tools). White on
// black was read 0 times in 30; the default must be read every time. And the tour's sheet: the tour's code, then
// every stop in the tour's order (a stop without a code shown, and its code created from the sheet), no label clipped.

/** A4 inside the sheet's 10 mm margins (190 × 277 mm) at 96 CSS px per inch, drawn at 2 device px per CSS px (192 dpi). */
const PRINTABLE = { width: Math.round((190 / 25.4) * 96), height: Math.round((277 / 25.4) * 96) };

async function printedPicture(page: Page, name: string): Promise<Uint8Array> {
  await page.setViewportSize(PRINTABLE);
  await page.emulateMedia({ media: "print" });
  // Every code image loaded (SVG from the image endpoint) before the picture is taken.
  await expect
    .poll(() =>
      page
        .locator(".print-cell img")
        .evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
    )
    .toBe(true);
  const picture = new Uint8Array(await page.screenshot({ fullPage: true }));
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(path.join(SHOTS, `print-${name}.png`), picture);
  }
  return picture;
}

/** Nothing in a printed cell reaches past the cell, and the name is not hidden under what follows it. */
async function expectNothingClipped(page: Page) {
  const problems = await page.locator(".print-cell").evaluateAll((cells) =>
    cells.flatMap((cell, index) => {
      const box = cell.getBoundingClientRect();
      const out: string[] = [];
      let previousBottom = -Infinity;
      for (const child of Array.from(cell.children)) {
        const r = child.getBoundingClientRect();
        if (r.height === 0) continue;
        if (r.bottom > box.bottom - 1) out.push(`cell ${index}: ${child.className} ends ${Math.round(r.bottom - box.bottom)} px below the cell`);
        if (r.top < previousBottom - 0.5) out.push(`cell ${index}: ${child.className} overlaps what is above it`);
        if (child.scrollHeight > child.clientHeight + 1 && child.clientHeight > 0 && !child.className.includes("print-cell__name"))
          out.push(`cell ${index}: ${child.className} is cut`);
        previousBottom = r.bottom;
      }
      return out;
    }),
  );
  expect(problems).toEqual([]);
}

// axe-core is injected as a script: the pages' CSP would refuse it.
test.use({ bypassCSP: true });

test("the printed sheet is read by zbar, code by code, and a tour prints with all its stops in order", async ({ page, staff }) => {
  test.setTimeout(120_000);
  await logIn(page, staff);
  // Three stops numbered 13, 12, 14 in the order they were made; 14 has no QR code yet.
  const names = [unique("Cratère en calice"), unique("Lécythe à fond blanc"), unique("Stamnos étrusque — un nom assez long pour tenir sur deux lignes")];
  const ids: number[] = [];
  for (const [i, name] of names.entries()) {
    ids.push((await createArticle(page, { name, stopNumber: [13, 12, 14][i] })).articleId);
  }
  const links: string[] = [];
  for (const articleId of ids.slice(0, 2)) links.push((await createQrCode(page, { articleId })).link);
  const tourName = unique("Parcours des vases");
  // The tour's order: 12, 13, 14.
  const tour = await createTour(page, { name: tourName, articleIds: [ids[1]!, ids[0]!, ids[2]!] });

  // From the tour's page, "Print the tour and its stops" (the spec's white on black folded beside the downloads).
  await page.goto(`/tours/${tour.id}`);
  await page.getByText("Blanc sur noir (l'aspect d'origine)").click();
  await expect(page.getByRole("link", { name: "Télécharger en blanc sur noir (PNG)" })).toHaveAttribute(
    "href",
    `/api/read/tour_qrcode?id=${tour.id}&format=png&look=light-on-dark`,
  );
  expect(await axeViolations(page, ".qr-panel")).toEqual([]);
  await page.getByRole("link", { name: "Imprimer le parcours et ses étapes" }).click();
  await expect(page).toHaveURL(new RegExp(`/qrcodes/print\\?tour=${tour.id}$`));
  const cells = page.locator(".print-cell");
  await expect(cells).toHaveCount(4);
  await expect(cells.nth(0)).toContainText(tourName);
  await expect(cells.nth(1)).toContainText("Étape 12");
  await expect(cells.nth(2)).toContainText("Étape 13");
  await expect(cells.nth(3)).toContainText("Étape 14");
  await expect(cells.nth(3)).toContainText("Pas encore de code QR");
  await expect(page.getByText("1 étape de parcours n'a pas encore de code QR")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // The missing code is created from the sheet; the sheet then holds four codes.
  await cells
    .nth(3)
    .getByRole("button", { name: `Créer son code QR ${names[2]}` })
    .click();
  await expect(cells.nth(3).getByRole("img")).toBeVisible();
  await expect(cells.nth(3)).toContainText("Étape 14");
  await expect(page.getByText("Pas encore de code QR")).toHaveCount(0);
  const third = await page.request.get("/api/read/qrcodes");
  const all = (await third.json()) as { id: number; link: string }[];
  links.push(all.map((c) => c.link).find((link) => !links.includes(link))!);

  // Printed: zbar reads every code on the picture of the page, each exactly once.
  const origin = new URL(page.url()).origin;
  const expected = [`${origin}/t/${tour.link}`, `${origin}/r/${links[1]}`, `${origin}/r/${links[0]}`, `${origin}/r/${links[2]}`];
  await expectNothingClipped(page);
  const read = zbarDecode(await printedPicture(page, "tour"));
  expect(read.sort()).toEqual(expected.sort());
  // A long name keeps two whole lines under "Étape 14" (it was cut to less than one by the address).
  const lines = await cells
    .nth(3)
    .locator(".print-cell__name")
    .evaluate((el) => el.clientHeight / parseFloat(getComputedStyle(el).lineHeight));
  expect(lines).toBeCloseTo(2, 1);

  // "Print all": the articles' codes by stop number (12, 13, 14), then the tour.
  await page.emulateMedia({ media: "screen" });
  await page.goto("/qrcodes/print");
  await expect(cells).toHaveCount(4);
  await expect(cells.nth(0)).toContainText("Étape 12");
  await expect(cells.nth(1)).toContainText("Étape 13");
  await expect(cells.nth(2)).toContainText("Étape 14");
  await expect(cells.nth(3)).toContainText(tourName);
  await expectNothingClipped(page);
  expect(zbarDecode(await printedPicture(page, "all")).sort()).toEqual(expected.sort());

  // The spec's white on black stays on offer: zbar as shipped misses it, told to try inverted codes it reads it.
  await page.emulateMedia({ media: "screen" });
  await page.getByRole("link", { name: "Blanc sur noir (l'aspect d'origine)" }).click();
  await expect(page).toHaveURL(/\/qrcodes\/print\?look=light-on-dark$/);
  await expect(page.getByText("Blanc sur noir : certains lecteurs de codes QR ne le lisent pas.")).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  const inverted = await printedPicture(page, "white-on-black");
  expect(zbarDecode(inverted)).toEqual([]);
  expect(zbarDecode(inverted, { inverted: true }).sort()).toEqual(expected.sort());
});

test("a stop whose article has no code shows on 'print all' too, and its code is made once however often it is asked", async ({ page, staff }) => {
  await logIn(page, staff);
  const name = unique("Hydrie");
  const { articleId: id } = await createArticle(page, { name });
  await createTour(page, { name: unique("Petit parcours"), articleIds: [id] });

  await page.goto("/qrcodes/print");
  await expect(page.locator(".print-cell--missing")).toContainText(name);
  // Five "create" posts at once (a double click, another tab): one code.
  const answers = await Promise.all(
    Array.from({ length: 5 }, () =>
      page.request.post("/qrcodes/print", { form: { intent: "create-code", articleId: String(id) }, headers: { Origin: new URL(page.url()).origin } }),
    ),
  );
  const refused = await Promise.all(answers.filter((a) => a.status() !== 200).map(async (a) => `${a.status()} ${(await a.text()).slice(0, 300)}`));
  expect(refused).toEqual([]);
  const codes = (await (await page.request.get("/api/read/qrcodes")).json()) as { id: number }[];
  const linked = await Promise.all(
    codes.map(async (c) => ((await (await page.request.get(`/api/read/qrcode?qrcodeId=${c.id}`)).json()) as { id_article: number | null }).id_article),
  );
  expect(linked.filter((articleId) => articleId === id)).toHaveLength(1);
  await page.reload();
  await expect(page.locator(".print-cell--missing")).toHaveCount(0);

  // Refusals name the field: a malformed article, another intent.
  const bad = await page.request.post("/qrcodes/print", { form: { intent: "create-code", articleId: "abc" }, headers: { Origin: new URL(page.url()).origin } });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain("articleId");
  const other = await page.request.post("/qrcodes/print", {
    form: { intent: "delete-everything", articleId: String(id) },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(other.status()).toBe(400);
  expect(await other.text()).toContain("intent");
});
