import { readFileSync } from "node:fs";
import { type Page } from "@playwright/test";
import { test, expect, logIn, writeD1, type Staff } from "./fixtures";
import { createArticle, createQrCode } from "./builders";
import { unique, api, axeViolations, publish, switchToEnglish } from "./helpers";

// Statistics as a curator reads them. The first tests write daily_stats straight into the e2e database
// (as the consumer would, through writeD1: decision 080), so they do not depend on the visitor page; the last
// one goes through it.

const addArticle = async (page: Page, name: string) => (await createArticle(page, { name })).articleId;

/** Today in Europe/Paris (the fixture museum's timezone), as the consumer computes it. */
function parisDay(offsetDays = 0) {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit", day: "2-digit" }).format(
    Date.now() - offsetDays * 86_400_000,
  );
  return parts;
}

function seed(staff: Staff, rows: [articleId: number, lang: string, scans: number, views: number, daysAgo: number][]) {
  // The day as the counters store it since 0014: days since 1970-01-01 (decision 145).
  const values = rows.map(
    ([a, l, s, v, d]) =>
      `((SELECT id FROM museums WHERE slug = '${staff.museumSlug}'), CAST(julianday('${parisDay(d)}') - 2440587.5 AS INTEGER), ${a}, '${l}', ${s}, ${v})`,
  );
  writeD1(`INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES ${values.join(", ")};`, staff);
}

test("read the three charts, their tables and totals, change the period, fetch one article, download the CSV", async ({ page, staff }) => {
  await logIn(page, staff);
  const amphora = unique("Amphore");
  const amphoraId = await addArticle(page, amphora);
  const steleId = await addArticle(page, unique("Stèle"));
  seed(staff, [
    [amphoraId, "de", 3, 1, 0],
    [amphoraId, "fr", 2, 0, 2],
    [steleId, "ja", 1, 0, 0],
    [steleId, "es", 4, 0, 20],
  ]);

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Statistiques", exact: true }).click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Statistiques");
  const perArticle = page.getByRole("figure", { name: "Nombres de scan de code QR par article" });
  const perLanguage = page.getByRole("figure", { name: "Nombres de scan de code QR par langue" });
  await expect(perArticle.getByText("Total : 6 scans")).toBeVisible();
  await expect(perLanguage.getByText("Total : 6 scans")).toBeVisible();
  await expect(perArticle.locator("canvas")).toBeVisible();
  await expect(perLanguage.locator("canvas")).toHaveAttribute("aria-label", /Nombres de scan de code QR par langue\. Total : 6 scans/);

  // The table says what the bars show, with language names rather than codes.
  await perLanguage.getByText("Voir les chiffres en tableau").click();
  const table = perLanguage.getByRole("table");
  await expect(
    table
      .getByRole("row", { name: /Allemand/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("3");
  await expect(
    table
      .getByRole("row", { name: /Japonais/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("1");
  await expect(table.getByRole("row")).toHaveCount(4);

  // Fetch with no article picked sends nothing.
  await page.getByRole("button", { name: "Charger" }).click();
  await expect(page).toHaveURL(/\/stats$/);
  await expect(page.getByRole("figure", { name: /Langues demandées/ })).toHaveCount(0);

  await page.getByLabel("Article :").selectOption({ label: amphora });
  await page.getByRole("button", { name: "Charger" }).click();
  const ofArticle = page.getByRole("figure", { name: `Langues demandées pour l'article ${amphora}` });
  await expect(ofArticle.getByText("Total : 6 requêtes")).toBeVisible();
  await expect(page.getByRole("button", { name: "Charger" })).toBeFocused();

  // A longer period takes in the scans of 20 days ago; the article stays picked.
  await page.getByRole("link", { name: "30 derniers jours" }).click();
  await expect(page).toHaveURL(new RegExp(`days=30&articleId=${amphoraId}`));
  await expect(page.getByRole("link", { name: "30 derniers jours" })).toHaveAttribute("aria-current", "page");
  await expect(perArticle.getByText("Total : 10 scans")).toBeVisible();
  await expect(ofArticle).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), perLanguage.getByRole("link", { name: "Télécharger en CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`muselingo-scans-per-language-30d-${parisDay()}.csv`);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe("date,es,de,fr,ja");
  expect(csv.at(-2)).toBe(`${parisDay()},0,3,0,1`);
  expect(csv).toHaveLength(32);
});

test("an empty museum shows 'No data to display'; the page and dashboard pass axe in both languages", async ({ browser, staff }) => {
  const context = await browser.newContext({ bypassCSP: true, locale: "fr-FR" });
  const page = await context.newPage();
  await logIn(page, staff);
  await page.goto("/stats");
  await expect(page.getByText("Aucune donnée à afficher")).toHaveCount(2);
  expect(await axeViolations(page), "fr empty /stats").toEqual([]);

  const id = await addArticle(page, unique("Buste"));
  seed(staff, [
    [id, "ar", 2, 1, 1],
    [id, "zh-Hans", 1, 0, 0],
  ]);
  for (const lang of ["fr", "en"]) {
    if (lang === "en") await switchToEnglish(page);
    await page.goto(`/stats?articleId=${id}`);
    await expect(page.locator("canvas")).toHaveCount(3);
    for (const summary of await page.locator("summary").all()) await summary.click();
    expect(await axeViolations(page), `${lang} /stats`).toEqual([]);
    await page.goto("/dashboard");
    expect(await axeViolations(page), `${lang} /dashboard`).toEqual([]);
  }
  await page.goto(`/stats?articleId=${id}`);
  await expect(page.getByRole("heading", { name: /Languages requested for the article Buste/ })).toBeVisible();
  await expect(page.getByText("No data to display")).toHaveCount(0);
  await context.close();
});

test("on a 320 px phone with reduced motion nothing scrolls sideways and the table scrolls on its own", async ({ browser, staff }) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 700 }, reducedMotion: "reduce", locale: "fr-FR" });
  const page = await context.newPage();
  await logIn(page, staff);
  const id = await addArticle(page, unique("Mosaïque au nom très long pour voir comment il se replie"));
  seed(staff, [[id, "de", 2, 0, 0]]);
  await page.goto("/stats?days=90");
  await expect(page.locator("canvas")).toHaveCount(2);
  await page.getByText("Voir les chiffres en tableau").first().click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const region = page.getByRole("region", { name: /par article, jour par jour/ });
  await region.focus();
  await page.keyboard.press("End");
  await expect(region).toBeFocused();
  await context.close();
});

test("three scans in two languages on the visitor page show on /stats and the dashboard within seconds", async ({ browser, page, staff }) => {
  await logIn(page, staff);
  const name = unique("Vase");
  const articleId = await addArticle(page, name);
  // Some text to translate: an article with none is shown (and counted) in the museum's language.
  const slug = `vase-${Date.now().toString(36)}`;
  await api(page, "update_article", {
    articleId,
    unformatted_name: name,
    newContent: [
      { type: "metadatas", url: slug, backgroundColor: "#341539" },
      { type: "text", content: "Un vase à figures rouges." },
    ],
  });
  await publish(page, articleId);
  const code = await createQrCode(page, { articleId });

  // Phones, not bots: a headless user agent would be filtered out as a bot. All of them reach the
  // local server from one address, so each phone is told apart by its browser (decision 032).
  const phone = (ios: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${ios} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${ios.replace("_", ".")} Mobile/15E148 Safari/604.1`;
  const visit = async (ios: string, path: string, acceptLanguage: string, times = 1) => {
    // The config's fr-FR locale would set Accept-Language: the phone's own locale goes with the header.
    const locale = acceptLanguage.split(",")[0]!;
    const visitor = await browser.newContext({ userAgent: phone(ios), locale, extraHTTPHeaders: { "Accept-Language": acceptLanguage } });
    const tab = await visitor.newPage();
    for (let i = 0; i < times; i++) {
      const response = await tab.goto(path);
      expect(response?.status(), path).toBe(200);
    }
    await visitor.close();
  };
  // Three scans: two phones in German (the first reloads the page three times: still one scan), one
  // in Spanish. Then another visitor picks German on the page (`?lang=de`): a view, not a new scan.
  await visit("17_5", `/r/${code.link}`, "de-DE,de;q=0.9", 4);
  await visit("17_4", `/r/${code.link}`, "de-AT,de;q=0.8,en;q=0.5");
  await visit("16_7", `/r/${code.link}`, "es-ES,es;q=0.9");
  await visit("18_0", `/r/${code.link}?lang=de`, "en-GB");

  const perArticle = page.getByRole("figure", { name: /par article/ });
  await expect(async () => {
    await page.goto("/stats");
    await expect(perArticle.getByText("Total : 3 scans")).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await expect(perArticle.locator("canvas")).toBeVisible();
  const perLanguage = page.getByRole("figure", { name: /par langue/ });
  await expect(perLanguage.getByText("Total : 3 scans")).toBeVisible();
  await perLanguage.getByText("Voir les chiffres en tableau").click();
  await expect(
    perLanguage
      .getByRole("row", { name: /Allemand/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("2");
  await expect(
    perLanguage
      .getByRole("row", { name: /Espagnol/ })
      .getByRole("cell")
      .last(),
  ).toHaveText("1");

  // The article's languages count every request: the three scans and the view.
  await page.getByLabel("Article :").selectOption({ label: name });
  await page.getByRole("button", { name: "Charger" }).click();
  const ofArticle = page.getByRole("figure", { name: `Langues demandées pour l'article ${name}` });
  await expect(ofArticle.getByText("Total : 4 requêtes")).toBeVisible();

  await page.goto("/dashboard");
  const today = page.locator(".activity__figure").first();
  await expect(today).toContainText("3");
  await expect(today).toContainText("Scans aujourd'hui");
  await expect(page.getByRole("link", { name })).toHaveAttribute("href", `/stats?articleId=${articleId}`);
});
