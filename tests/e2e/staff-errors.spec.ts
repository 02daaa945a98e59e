import { type Page } from "@playwright/test";
import { expect, logIn, test } from "./fixtures";
import { api, axeViolations, scrollsSideways, shot } from "./helpers";

// Decision 136: a staff page that cannot be shown says what happened and what to do (its error boundary). One
// journey for both pages, in both languages: a deleted article's page (404, with the way to the trash) and a
// page the member's role does not open (403). Their wording and statuses per page are tests/integration/
// staff-error-pages.test.ts's; here the browser's side: axe, focus on the heading, no sideways scroll at 320 px.
test.use({ bypassCSP: true });

/** The interface language, as the header's switcher leaves it (the `lng` cookie holds the JSON string). */
async function useLanguage(page: Page, baseURL: string, locale: "fr" | "en") {
  await page.context().addCookies([{ name: "lng", value: encodeURIComponent(btoa(JSON.stringify(locale))), url: baseURL }]);
}

async function checkErrorPage(page: Page, name: string, heading: string, text: string) {
  const h1 = page.getByRole("heading", { level: 1 });
  await expect(h1).toHaveText(heading);
  await expect(page.getByText(text)).toBeVisible();
  // Once hydrated, the heading has the focus: a screen reader starts with the news.
  await expect(h1).toBeFocused();
  expect(await axeViolations(page), `${name}: axe`).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, `staff-errors/${name}-375`, { fullPage: true });
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await scrollsSideways(page), `${name}: sideways at 320 px`).toBe(false);
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, `staff-errors/${name}-1280`, { fullPage: true });
}

test("a deleted article's page and a page the role does not open say what happened and what to do, in French and English", async ({
  page,
  browser,
  staff,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await logIn(page, staff);
  const article = await api<{ id: number }>(page, "add_article", { pathArray: [] });
  await api(page, "delete_item", { type: "article", id: article.id });
  const email = `viewer-${Date.now().toString(36)}@muselingo.test`;
  const { invitationUrl } = await api<{ invitationUrl: string }>(page, "invite_member", { email, role: "viewer" });

  for (const locale of ["fr", "en"] as const) {
    await useLanguage(page, baseURL!, locale);
    const response = await page.goto(`/article?id=${article.id}`);
    expect(response?.status()).toBe(404);
    await checkErrorPage(
      page,
      `trashed-article-${locale}`,
      locale === "fr" ? "Il n'y a rien par ici..." : "Nothing there...",
      locale === "fr" ? "Cet article a été supprimé : il est dans la corbeille" : "This article was deleted: it is in the trash",
    );
    await expect(page.getByRole("link", { name: locale === "fr" ? "Voir la corbeille" : "Open the trash" })).toHaveAttribute("href", "/trash");
  }

  // The viewer joins by the invitation (its JSON use sets the session in their own browser context).
  const viewer = await browser.newContext({ bypassCSP: true, baseURL, locale: "fr-FR" });
  const accepted = await viewer.request.post(new URL(invitationUrl).pathname, { data: { password: "a long enough password" } });
  expect(accepted.status()).toBe(200);
  const viewerPage = await viewer.newPage();
  for (const locale of ["fr", "en"] as const) {
    await useLanguage(viewerPage, baseURL!, locale);
    const response = await viewerPage.goto("/audit");
    expect(response?.status()).toBe(403);
    await checkErrorPage(
      viewerPage,
      `forbidden-${locale}`,
      locale === "fr" ? "Vous n'avez pas accès à cette page" : "You don't have access to this page",
      locale === "fr" ? "Votre rôle dans ce musée, Lecteur, ne permet pas de l'ouvrir." : "Your role in this museum, Viewer, does not open it.",
    );
  }
  await viewer.close();
});
