import { test, expect, logIn } from "./fixtures";
import { axeViolations, switchToEnglish } from "./helpers";

const PUBLIC = ["/", "/blog", "/blog/guarani", "/blog/why-muselingo", "/contact"];

test.describe("public site", () => {
  test.use({ bypassCSP: true });

  test("landing sections in order, in both languages", async ({ page }) => {
    await page.goto("/");
    const headings = page.locator("#main h2");
    await expect(headings).toHaveText([
      "Comment ça marche",
      "Offrez plus que l'œuvre",
      "Simple, rapide, complet",
      "Essayez vous-même",
      "Sous le capot",
      "Notre premier musée partenaire",
      "Prêt à accueillir tous vos visiteurs ?",
    ]);
    await expect(page.getByText("Brisez la barrière de la langue")).toBeVisible();
    await expect(page.getByText(/le 27 ou le 28 février 2025.*le 1er mars 2025/)).toBeVisible();
    await switchToEnglish(page);
    await expect(headings.first()).toHaveText("How it works");
    await expect(page.getByText("Break the language barrier")).toBeVisible();
    await expect(page.locator(".carousel__slide")).toHaveCount(17);
  });

  test("the carousel's overlay opens by keyboard and closes with Escape or a click outside, focus back", async ({ page }) => {
    await page.goto("/");
    const first = page.getByRole("button", { name: "Agrandir l'illustration 1", exact: true });
    await first.scrollIntoViewIfNeeded();
    await page.getByRole("button", { name: "Mettre le défilement en pause" }).click();
    await first.focus();
    await page.keyboard.press("Enter");
    const overlay = page.getByRole("dialog", { name: "Illustration agrandie" });
    await expect(overlay).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(overlay).toBeHidden();
    await expect(first).toBeFocused();
    await first.click();
    await expect(overlay).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(overlay).toBeHidden();
  });

  test("the test code opens the demo museum's article; a plain link at 1080 px and below", async ({ page }) => {
    await page.setViewportSize({ width: 1080, height: 900 });
    await page.goto("/");
    await expect(page.getByRole("img", { name: /Code QR qui ouvre/ })).toBeHidden();
    await page.getByRole("link", { name: "Testez-le !" }).click();
    await expect(page).toHaveURL(/\/r\/essayez2$/);
    await expect(page.getByText(/Dans l'Antiquité, l'amphore/)).toBeVisible();
  });

  test("a click on the phone plays the demo video of the page's language, focus on the player", async ({ page }) => {
    await page.goto("/");
    const play = page.getByRole("link", { name: "Lancer la vidéo de démonstration" });
    await play.scrollIntoViewIfNeeded();
    await play.focus();
    await page.keyboard.press("Enter");
    const video = page.locator("video.phone__screen");
    await expect(video).toHaveAccessibleName(/^Vidéo de démonstration/);
    await expect(video).toBeFocused();
    await expect(video).toHaveAttribute("src", "/site/demo-fr.webm");
    // It really plays: time advances and the recording has the phone's size.
    await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.5);
    expect(await video.evaluate((el: HTMLVideoElement) => [el.videoWidth, el.videoHeight])).toEqual([390, 844]);
    await switchToEnglish(page);
    await page.reload();
    await expect(page.getByRole("link", { name: "Play the demo video" })).toHaveAttribute("href", "/site/demo-en.webm");
  });

  test("blog list to a post, day-month-year dates, coming soon in English", async ({ page }) => {
    await page.goto("/blog");
    await expect(page.locator(".blog-card time")).toHaveText(["28-02-2025", "16-01-2025", "23-12-2024", "20-12-2024", "17-12-2024"]);
    await page.getByRole("link", { name: /De l'espagnol au guarani/ }).click();
    await expect(page).toHaveURL(/\/blog\/guarani$/);
    await expect(page.getByRole("heading", { level: 2, name: "Conclusion" })).toBeVisible();
    await switchToEnglish(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Spanish to Guarani/);
    await page.goto("/blog/why-muselingo");
    await expect(page.getByText("Coming soon...")).toBeVisible();
    await page.goto("/blog/unknown");
    await expect(page.getByRole("heading", { name: "Nothing there..." })).toBeVisible();
  });

  test("feeds are well-formed XML", async ({ page }) => {
    await page.goto("/");
    for (const path of ["/rss.fr.xml", "/rss.en.xml", "/sitemap.xml"]) {
      const errors = await page.evaluate(async (url) => {
        const doc = new DOMParser().parseFromString(await (await fetch(url)).text(), "application/xml");
        return doc.getElementsByTagName("parsererror").length;
      }, path);
      expect(errors, path).toBe(0);
    }
  });

  test("the booking popup opens 630 px high when logged out; no button when logged in", async ({ page, staff }) => {
    await page.goto("/contact");
    const button = page.locator("#main").getByRole("link", { name: "Réserver une démo" });
    await expect(button).toHaveCSS("color", "rgb(255, 255, 255)");
    await button.click();
    const dialog = page.locator("#main").getByRole("dialog", { name: "Réserver une démo" });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator("iframe")).toHaveAttribute("height", "630");
    await page.keyboard.press("Escape");
    await logIn(page, staff);
    await page.goto("/contact");
    await expect(page.getByRole("link", { name: "Réserver une démo" })).toHaveCount(0);
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Ouvrir mon tableau de bord" })).toBeVisible();
  });

  test("the mobile menu lists the public pages", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await page.locator("#mobile-menu-panel").getByRole("link", { name: "Blog" }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.locator("#mobile-menu-panel")).toHaveCount(0);
  });

  for (const width of [320, 375, 1280]) {
    test(`no axe violation and no sideways scroll at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ reducedMotion: "reduce" });
      for (const path of PUBLIC) {
        await page.goto(path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(width);
        if (width !== 320) expect(await axeViolations(page), path).toEqual([]);
      }
    });
  }
});
