import type { Browser, Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { createArticle, createTour } from "./builders";
import { axeViolations } from "./helpers";

// Issue 21 part 2, one journey: a phone opens a tour's code, walks three stops by "next", then uses the
// keypad; axe at 320 and 1280 px on the tour page, a stop and the keypad, and the tour page and a stop in
// Arabic at 320 px (right to left, the offline save control shown). The rules (numbering, languages,
// tenancy, statistics) are tested at the integration level (tests/integration/tour-visitor.test.ts).

const SHOTS = process.env.TOUR_SHOTS; // a folder: also saves screenshots (fr, en, ar × 375, 1280) to look at

async function article(page: Page, lines: string[], stopNumber?: number): Promise<number> {
  return (await createArticle(page, { elements: lines.map((content) => ({ type: "text", content })), published: true, stopNumber })).articleId;
}

async function phone(browser: Browser, width: number, locale = "fr-FR") {
  const context = await browser.newContext({ locale, viewport: { width, height: 800 }, isMobile: width < 800, hasTouch: width < 800, bypassCSP: true });
  return { context, page: await context.newPage() };
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

// Decision 108: the visitor pages keep their DOM at every width (visitor.css has no width query): axe at
// 320 px, the sideways check at both widths (a resize, no reload).
async function checkPage(page: Page, label: string) {
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    if (width === 320) expect(await axeViolations(page), `${label} at ${width}px`).toEqual([]);
    expect(await sideways(page), `${label} scrolls sideways at ${width}px`).toBe(false);
  }
  await page.setViewportSize({ width: 375, height: 800 });
}

test("a phone follows a tour stop by stop, then finds a stop by its number", async ({ page, staff, browser }) => {
  test.slow(); // several stops written through the API, then three pages checked at two widths
  await logIn(page, staff);
  const names = ["Vase à figures rouges", "Stèle funéraire d'Hégéso", "Kouros de Milo", "Amphore panathénaïque"];
  const ids: number[] = [];
  // The third is stop 12. Through the staff API: a wrangler write while other workers' requests run meets
  // SQLITE_BUSY there (fixtures.ts writeD1, decision 080).
  for (const [i, name] of names.entries())
    ids.push(await article(page, [name, `${name} : une œuvre de la Grèce antique, présentée dans la salle 7 du musée.`], i === 2 ? 12 : undefined));
  const { link } = await createTour(page, {
    name: "La Grèce antique en quatre œuvres",
    description: "Un parcours dans les salles grecques, du vase à figures rouges à l'amphore des jeux.",
    minutes: 40,
    articleIds: ids,
  });

  const { context, page: visitor } = await phone(browser, 375);
  await visitor.goto(`/t/${link}`);
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText("La Grèce antique en quatre œuvres");
  await expect(visitor.getByRole("listitem")).toHaveCount(4);
  await expect(visitor.locator("#v-offline")).toHaveCount(1);
  await checkPage(visitor, "tour page");

  // Start, then "next" twice: three stops.
  await visitor.getByRole("link", { name: "Commencer le parcours" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}/1$`));
  await expect(visitor.getByText("Étape 1 sur 4")).toBeVisible();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(names[0]!);
  for (const n of [2, 3]) {
    const next = visitor.getByRole("link", { name: /Étape suivante/ });
    await next.focus();
    await visitor.keyboard.press("Enter");
    await expect(visitor).toHaveURL(new RegExp(`/t/${link}/${n}$`));
    await expect(visitor.getByText(`Étape ${n} sur 4`)).toBeVisible();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(names[n - 1]!);
  }
  await checkPage(visitor, "stop page");
  await visitor.getByRole("link", { name: /Étape précédente/ }).click();
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}/2$`));
  await visitor.getByRole("link", { name: "La Grèce antique en quatre œuvres" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}$`));

  // The keypad opened from the tour: an unknown number says so and keeps the field focused; 12 leads to its
  // stop in this tour, with the tour around it, as offline (decision 113).
  await visitor.getByRole("link", { name: "Saisir un numéro d'étape" }).click();
  await expect(visitor).toHaveURL(new RegExp(`/v/${staff.museumSlug}/n\\?tour=${link}$`));
  await checkPage(visitor, "keypad");
  const field = visitor.getByLabel("Saisissez le numéro indiqué sur le cartel");
  await expect(field).toHaveAttribute("inputmode", "numeric");
  await field.fill("99");
  await field.press("Enter");
  await expect(visitor.getByRole("alert")).toContainText("Aucune étape ne porte ce numéro");
  await expect(field).toBeFocused();
  await checkPage(visitor, "keypad with its message");
  await field.fill("12");
  await visitor.getByRole("button", { name: "Valider" }).click();
  await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(names[2]!);
  await expect(visitor).toHaveURL(new RegExp(`/t/${link}/3$`));
  await expect(visitor.getByText("Étape 3 sur 4")).toBeVisible();
  await expect(visitor.getByRole("link", { name: /Étape suivante/ })).toBeVisible();
  await context.close();

  // Arabic on the narrowest phone: right to left, no sideways scroll, axe clean, the save control shown.
  const narrow = await phone(browser, 320, "ar");
  for (const [label, path] of [
    ["tour page", `/t/${link}?lang=ar`],
    ["stop page", `/t/${link}/2?lang=ar`],
  ] as const) {
    await narrow.page.goto(path);
    await expect(narrow.page.locator("html"), `${label} in Arabic`).toHaveAttribute("dir", "rtl");
    if (label === "tour page") {
      const save = narrow.page.locator("#v-offline-save");
      await expect(save).toBeVisible();
      expect(await save.evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
      // Right to left: the heading starts at the right edge of the page, the control sits within the width.
      const [heading, control] = [await narrow.page.getByRole("heading", { level: 1 }).boundingBox(), await save.boundingBox()];
      expect(heading!.x + heading!.width).toBeGreaterThan(320 - 40);
      expect(control!.x).toBeGreaterThanOrEqual(0);
      expect(control!.x + control!.width).toBeLessThanOrEqual(320);
    }
    // On a stop, the tour's name is translated as on the tour page (decision 113): in the page's language, unmarked.
    if (label === "stop page") {
      await expect(narrow.page.locator(".v-tour-name")).toContainText("[ar]");
      await expect(narrow.page.locator(".v-tour-name")).not.toHaveAttribute("lang", /.*/);
    }
    expect(await sideways(narrow.page), `${label} in Arabic scrolls sideways at 320px`).toBe(false);
    expect(await axeViolations(narrow.page), `${label} in Arabic at 320px`).toEqual([]);
    if (SHOTS) await narrow.page.screenshot({ path: `${SHOTS}/${label.split(" ")[0]}-ar-320.png`, fullPage: true });
  }
  await narrow.context.close();

  if (SHOTS) {
    for (const [locale, lang] of [
      ["fr-FR", "fr"],
      ["en-GB", "en"],
      ["ar", "ar"],
    ] as const) {
      for (const width of [375, 1280]) {
        const shot = await phone(browser, width, locale);
        for (const [name, path] of [
          ["tour", `/t/${link}?lang=${lang}`],
          ["stop", `/t/${link}/2?lang=${lang}`],
          ["keypad", `/v/${staff.museumSlug}/n?number=99&lang=${lang}`],
        ] as const) {
          await shot.page.goto(path);
          await shot.page.screenshot({ path: `${SHOTS}/${name}-${lang}-${width}.png`, fullPage: true });
        }
        await shot.context.close();
      }
    }
  }
});
