import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { createArticle } from "./builders";
import { api, axeViolations, publish, shot, SHOTS, switchToEnglish } from "./helpers";

// Subtitle cues reviewed like any text, and "mark as reviewed" (decisions 050, 051).

const VTT = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nVoici la Victoire.\n\n00:00:04.000 --> 00:00:06.000\nElle vient de Samothrace.\n";

/** An article of one sentence and a video with French subtitles, published, pretranslated into German. */
async function articleWithSubtitles(page: Page) {
  const added = { id: (await createArticle(page)).articleId };
  const uploaded = await page.request.post("/api/upload/subtitles", {
    multipart: { articleId: String(added.id), videoId: "abc123", subtitles: { name: "fr.vtt", mimeType: "text/vtt", buffer: Buffer.from(VTT) } },
  });
  expect(uploaded.status()).toBe(200);
  const { mediaUrl } = (await uploaded.json()) as { mediaUrl: string };
  const article = (await (await page.request.get(`/api/read/article?articleId=${added.id}`)).json()) as { content: unknown[]; version: number };
  await api(page, "update_article", {
    articleId: added.id,
    version: article.version,
    newContent: [
      article.content[0],
      { type: "text", content: "La Victoire de Samothrace." },
      { type: "video", videoId: "abc123", src: "", subtitles: mediaUrl },
    ],
  });
  await publish(page, added.id);
  await api(page, "pretranslate", { articleId: added.id, langs: ["de"] });
  return { articleId: added.id, src: mediaUrl };
}

const card = (page: Page, id: string) => page.locator(`li.tr-segment[data-segment="${id}"]`);

async function scrollsSideways(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test("staff review a subtitle cue, mark one translation and then all shown as reviewed", async ({ page, staff }) => {
  await logIn(page, staff);
  const { articleId, src } = await articleWithSubtitles(page);
  await page.goto(`/translations?id=${articleId}`);
  await expect(page.locator("tr[data-lang=de]")).toContainText("3 / 3");

  await page.goto(`/translations?id=${articleId}&lang=de`);
  const video = page.getByRole("region", { name: "Sous-titres de la vidéo 1" });
  await expect(video.getByRole("heading", { level: 4 })).toHaveText([/Réplique 1 sur 2/, /Réplique 2 sur 2/]);
  await expect(video.getByText("00:00:01.000 → 00:00:03.000")).toBeVisible();

  // A cue corrected like a text; the translated subtitle file carries it at once.
  const cue = card(page, "e2.vtt.c1.0.0");
  await cue.getByRole("textbox").fill("Hier ist die Nike.");
  await cue.getByRole("button", { name: /Enregistrer/ }).click();
  await expect(cue.getByText("Relu par le musée")).toBeVisible();
  const served = await (await page.request.get(`/vtt?src=${encodeURIComponent(src)}&lang=de`)).text();
  expect(served).toContain("00:00:01.000 --> 00:00:03.000\nHier ist die Nike.");

  // Mark one: the machine text stays, the badge and the count change, focus moves to the next one to read.
  const text = card(page, "e1.content.0");
  await expect(text.getByRole("textbox")).toHaveValue("[de] Lá Víçtóíré dé Sámóthráçé.");
  // By keyboard: the button is reached and pressed like any other.
  await text.getByRole("button", { name: /Marquer comme relu/ }).focus();
  await page.keyboard.press("Enter");
  await expect(text.getByText("Relu par le musée")).toBeVisible();
  await expect(text.getByRole("textbox")).toHaveValue("[de] Lá Víçtóíré dé Sámóthráçé.");
  await expect(card(page, "e2.vtt.c2.0.0").getByRole("button", { name: /Marquer comme relu/ })).toBeFocused();
  await expect(page.locator(".tr-summary")).toContainText("2 relus");

  // Mark all shown: a filter first, a confirmation, then the status line takes focus.
  await page.getByRole("radio", { name: /Traductions automatiques à relire \(1\)/ }).check();
  await expect(page.locator("li.tr-segment")).toHaveCount(1);
  await page.getByRole("button", { name: "Tout marquer comme relu (1)" }).click();
  const dialog = page.getByRole("dialog", { name: "Marquer 1 traduction automatique comme relue ?" });
  await dialog.getByRole("button", { name: "Marquer comme relu" }).click();
  await expect(page.getByTestId("mark-status")).toHaveText("1 traduction marquée comme relue.");
  await expect(page.getByTestId("mark-status")).toBeFocused();
  await expect(page.locator(".tr-summary")).toContainText("3 relus");
  await expect(page.getByText("Aucun texte ne correspond à ce choix.")).toBeVisible();
  await page.getByRole("radio", { name: /Tous les textes/ }).check();
  await expect(page.getByRole("button", { name: /Marquer comme relu/ })).toHaveCount(0);
});

test("a translation changed meanwhile is not marked: the page says so and shows the new text", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const { articleId } = await articleWithSubtitles(page);
  await page.goto(`/translations?id=${articleId}&lang=de`);
  await expect(page.getByRole("button", { name: "Tout marquer comme relu (3)" })).toBeVisible();
  // A colleague corrects a cue in another tab.
  const colleague = await browser.newContext({ storageState: await page.context().storageState() });
  const other = await colleague.newPage();
  const fixed = await other.request.post("/api/manage/update_translation", {
    data: { articleId, lang: "de", segmentId: "e2.vtt.c2.0.0", text: "Sie kommt aus Samothrake." },
  });
  expect(fixed.status()).toBe(200);
  await colleague.close();

  await page.getByRole("button", { name: "Tout marquer comme relu (3)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Marquer comme relu" }).click();
  await expect(page.getByTestId("mark-status")).toContainText("1 traduction a changé pendant votre lecture");
  await expect(page.getByTestId("mark-status")).toBeFocused();
  await expect(card(page, "e2.vtt.c2.0.0").getByRole("textbox")).toHaveValue("Sie kommt aus Samothrake.");
  // Nothing was marked: the other two are still offered.
  await expect(page.getByRole("button", { name: "Tout marquer comme relu (2)" })).toBeVisible();
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the review page with cues has no axe violations in French and English at 320 and 1280 px, and never scrolls sideways", async ({ page, staff }) => {
    test.setTimeout(90_000);
    await logIn(page, staff);
    const { articleId } = await articleWithSubtitles(page);
    for (const lang of ["fr", "en"]) {
      await page.setViewportSize({ width: 1280, height: 800 });
      if (lang === "en") await switchToEnglish(page);
      // Decision 108: a language's segments keep their DOM at every width (only the grid's columns change):
      // axe at 1280 px, the sideways check at 320 px (and the dialog there); 375 px for screenshots only.
      for (const width of SHOTS ? [1280, 375, 320] : [1280, 320]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(`/translations?id=${articleId}&lang=de`);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        if (width === 1280) expect(await axeViolations(page), `${lang} ${width}`).toEqual([]);
        expect(await scrollsSideways(page), `${lang} ${width}`).toBe(false);
        if (width !== 320) await shot(page, `review/review-${lang}-${width}`, { fullPage: true });
      }
      // The confirmation dialog too.
      await page.setViewportSize({ width: 320, height: 800 });
      await page.getByRole("button", { name: lang === "fr" ? "Tout marquer comme relu (3)" : "Mark all shown as reviewed (3)" }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      expect(await axeViolations(page), `${lang} dialog`).toEqual([]);
      await page.keyboard.press("Escape");
      await expect(page.getByRole("button", { name: /\(3\)/ })).toBeFocused();
    }
  });
});
