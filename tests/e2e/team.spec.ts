import type { Browser, Page } from "@playwright/test";
import { expect, logIn, logInByForm, test } from "./fixtures";
import { createArticle } from "./builders";
import { api, axeViolations, scrollsSideways, SHOTS, shot, switchToEnglish } from "./helpers";

const PASSWORD = "un mot de passe assez long";

/** Staff make an article of two sentences and pretranslate it into German. */
async function germanArticle(page: Page) {
  const { articleId } = await createArticle(page, { elements: [{ type: "text", content: "La Victoire de Samothrace.\nMarbre de Paros." }] });
  await api(page, "pretranslate", { articleId, langs: ["de"] });
  return articleId;
}

/** Invites through /team's form and returns the link shown once (copied with the page's button). */
async function inviteByForm(page: Page, email: string, role: string, languages: string[] = []) {
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByRole("combobox", { name: "Rôle" }).last().selectOption({ label: role });
  if (languages.length > 0) {
    const picker = page.locator("form[data-intent=invite] details.language-picker");
    await picker.locator("summary").click();
    for (const name of languages) await picker.getByRole("checkbox", { name, exact: true }).check();
  }
  await page.getByRole("button", { name: "Créer le lien d'invitation" }).click();
  const heading = page.getByRole("heading", { name: `Invitation pour ${email}` });
  await expect(heading).toBeFocused();
  const url = await page.getByTestId("once-link-url").inputValue();
  expect(url).toMatch(/\/invite\/[1-9]\d*\.[A-Za-z0-9_-]{43}$/);
  await page.getByRole("button", { name: "Copier le lien" }).click();
  await expect(page.getByText("Lien copié")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __copied?: string }).__copied)).toBe(url);
  await page.getByRole("button", { name: "J'ai transmis le lien" }).click();
  await expect(page.getByTestId("once-link-url")).toHaveCount(0);
  return url;
}

/** Follows a link in a browser of its own (no session), chooses a password and lands on the dashboard. */
async function joinInNewBrowser(browser: Browser, url: string) {
  const context = await browser.newContext({ locale: "fr-FR" });
  const page = await context.newPage();
  await page.goto(url);
  await page.locator("input[name=password]").fill(PASSWORD);
  await page.getByLabel("Confirmer le mot de passe").fill(PASSWORD);
  await page.getByRole("button", { name: "Rejoindre l'équipe" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Bienvenue dans l'équipe")).toBeVisible();
  return { context, page };
}

const tiles = (page: Page) => page.locator("a.tile").allInnerTexts();

// Headless chromium's clipboard may never answer: the page's copy goes to a stand-in that keeps the text.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: (text: string) => (((window as unknown as { __copied?: string }).__copied = text), Promise.resolve()) },
      configurable: true,
    });
  });
});

test("an admin invites an editor and a translator limited to German; each joins; the translator corrects German and cannot open the editor", async ({
  page,
  staff,
  browser,
}) => {
  await logInByForm(page, staff);
  const articleId = await germanArticle(page);
  await expect(page.locator("a.tile")).toHaveText([
    "Articles",
    "Importer des articles",
    "Codes QR",
    "Parcours",
    "Questions des visiteurs",
    "Statistiques",
    "Équipe",
    "Journal d'activité",
    "Fichiers pour les traducteurs",
    "Exporter et importer",
    "Réglages",
  ]);
  await page.getByRole("link", { name: "Équipe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Équipe" })).toBeVisible();

  const stamp = Date.now().toString(36);
  const editorEmail = `editor-${stamp}@muselingo.test`;
  const translatorEmail = `translator-${stamp}@muselingo.test`;
  const editorLink = await inviteByForm(page, editorEmail, "Éditeur");
  const translatorLink = await inviteByForm(page, translatorEmail, "Traducteur", ["Allemand"]);
  const pending = page.locator(".invitation-row");
  await expect(pending).toHaveCount(2);
  await expect(pending.filter({ hasText: translatorEmail })).toContainText("Traducteur — Allemand");

  const editor = await joinInNewBrowser(browser, editorLink);
  expect(await tiles(editor.page)).toEqual([
    "Articles",
    "Importer des articles",
    "Codes QR",
    "Parcours",
    "Questions des visiteurs",
    "Statistiques",
    "Fichiers pour les traducteurs",
    "Réglages",
  ]);
  expect((await editor.page.goto("/team"))?.status()).toBe(403);
  expect((await editor.page.goto(`/article?id=${articleId}`))?.status()).toBe(200);
  await editor.context.close();

  const translator = await joinInNewBrowser(browser, translatorLink);
  const t = translator.page;
  expect(await tiles(t)).toEqual(["Articles", "Questions des visiteurs", "Statistiques", "Fichiers pour les traducteurs", "Réglages"]);
  await t.getByRole("link", { name: "Articles" }).click();
  // The tree, read-only: no create, no actions menu; an article leads to its translations.
  await expect(t.getByRole("button", { name: "Nouvel article" })).toHaveCount(0);
  await expect(t.locator(".tree-row__more")).toHaveCount(0);
  await t.locator(`a[href="/translations?id=${articleId}"]`).click();
  await expect(t).toHaveURL(new RegExp(`/translations\\?id=${articleId}$`));
  await expect(t.getByRole("link", { name: /Retour aux articles/ })).toBeVisible();
  // Their language is said, and pretranslation offers it alone (decision 123); "reset all" is not theirs.
  await expect(t.getByText("Vous relisez les traductions en allemand.")).toBeVisible();
  await expect(t.locator(".tr-pretranslate input[type=checkbox]")).toHaveCount(1);
  await expect(t.getByRole("checkbox", { name: /Allemand/ })).toBeVisible();
  await expect(t.getByRole("button", { name: "Réinitialiser les traductions" })).toHaveCount(0);
  await t.locator("tr[data-lang=de]").getByRole("link").click();
  const first = t.locator("li.tr-segment").first();
  await first.getByRole("textbox").fill("Die Nike von Samothrake.");
  await first.getByRole("button", { name: /Enregistrer/ }).click();
  await expect(t.getByText("Traduction enregistrée")).toBeVisible();
  const stored = (await (await page.request.get(`/api/read/translation?articleId=${articleId}&lang=de`)).json()) as { segments: { text: string }[] };
  expect(stored.segments[0]!.text).toBe("Die Nike von Samothrake.");

  // The editor is refused, as are other languages.
  expect((await t.goto(`/article?id=${articleId}`))?.status()).toBe(403);
  await expect(t.getByRole("heading", { level: 1 })).toBeVisible();
  expect((await t.goto(`/translations?id=${articleId}&lang=es`))?.status()).toBe(403);
  expect((await t.request.post("/api/manage/update_article", { data: { articleId, version: 1, newContent: [] } })).status()).toBe(403);
  await translator.context.close();

  // Both joined: the admin's list shows them with their roles; no invitation is pending.
  await page.reload();
  await expect(page.locator(`.member-card[data-member="${translatorEmail}"]`)).toContainText("Allemand");
  await expect(page.locator(`.member-card[data-member="${editorEmail}"] .member-card__role`)).toHaveText("Éditeur");
  await expect(page.locator(".invitation-row")).toHaveCount(0);
});

// Decision 108: one journey where the editor made a viewer (Lecteur) then sees only statistics (it was a
// journey of its own, with its own invitation and join); each route's refusal per role is
// tests/integration/role-matrix.test.ts's.
test("change a role, the member now a viewer sees only statistics; make a reset link, remove a member with confirmation; focus is never lost", async ({
  page,
  staff,
  browser,
}) => {
  await logIn(page, staff);
  const email = `member-${Date.now().toString(36)}@muselingo.test`;
  const invited = await api<{ invitationUrl: string }>(page, "invite_member", { email, role: "editor" });
  const member = await joinInNewBrowser(browser, invited.invitationUrl);
  await page.goto("/team");
  const card = page.locator(`.member-card[data-member="${email}"]`);

  await card.getByRole("combobox", { name: "Rôle" }).selectOption({ label: "Lecteur" });
  const save = card.getByRole("button", { name: "Enregistrer le rôle" });
  await save.click();
  await expect(page.getByText(`Rôle de ${email} enregistré`)).toBeVisible();
  await expect(card.locator(".member-card__role")).toHaveText("Lecteur");
  await expect(save).toBeFocused();

  // The member, now a viewer: statistics and their own account's settings (password, sessions), nothing else.
  const v = member.page;
  await v.goto("/dashboard");
  expect(await tiles(v)).toEqual(["Statistiques", "Réglages"]);
  await expect(v.locator(".activity a[href^='/article'], .activity a[href^='/qrcode'], .activity a[href^='/translations']")).toHaveCount(0);
  for (const path of ["/articles", "/team"]) expect((await v.goto(path))?.status(), path).toBe(403);
  expect((await v.goto("/stats"))?.status()).toBe(200);
  expect((await v.goto("/settings"))?.status()).toBe(200);
  await expect(v.getByRole("heading", { name: "Musée" })).toHaveCount(0);
  await expect(v.getByRole("heading", { name: "Sessions" })).toBeVisible();

  // The last admin cannot step down: said beside the field.
  const mine = page.locator(`.member-card[data-member="${staff.email}"]`);
  await mine.getByRole("combobox", { name: "Rôle" }).selectOption({ label: "Éditeur" });
  await mine.getByRole("button", { name: "Enregistrer le rôle" }).click();
  await expect(mine.getByRole("alert")).toHaveText("C'est le dernier administrateur du musée : nommez d'abord un autre administrateur.");
  await expect(mine.getByRole("combobox", { name: "Rôle" })).toBeFocused();

  await card.getByRole("button", { name: `Lien de nouveau mot de passe pour ${email}` }).click();
  await expect(card.getByRole("heading", { name: `Lien de nouveau mot de passe pour ${email}` })).toBeFocused();
  const resetUrl = await card.getByTestId("once-link-url").inputValue();
  expect(resetUrl).toMatch(/\/reset\/[1-9]\d*\.[A-Za-z0-9_-]{43}$/);

  const remove = card.getByRole("button", { name: `Retirer ${email}` });
  await remove.click();
  const dialog = page.getByRole("dialog", { name: `Retirer ${email} de l'équipe ?` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await remove.click();
  await dialog.getByRole("button", { name: "Retirer le membre" }).click();
  await expect(page.getByText(`${email} a été retiré de l'équipe`)).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByRole("heading", { name: /^Membres/ })).toBeFocused();

  // Their session ended at once; their reset link went with them.
  expect((await member.page.goto("/dashboard"))?.url()).toMatch(/\/login/);
  await member.page.goto(resetUrl);
  await expect(member.page.getByRole("heading", { name: "Ce lien n'est plus valable" })).toBeVisible();
  await member.context.close();
});

test("a reset link signs in with the new password; sessions are listed and ended in /settings", async ({ page, staff, browser }) => {
  await logIn(page, staff);
  const members = (await (await page.request.get("/api/read/members")).json()) as { members: { id: number; email: string }[] };
  const me = members.members.find((m) => m.email === staff.email)!;
  const link = await api<{ url: string }>(page, "password_reset_link", { userId: me.id });

  const other = await browser.newContext({ locale: "fr-FR" });
  const o = await other.newPage();
  await o.goto(link.url);
  await expect(o.getByRole("heading", { level: 1, name: "Nouveau mot de passe" })).toBeVisible();
  await o.locator("input[name=password]").fill("nouveau mot de passe solide");
  await o.getByLabel("Confirmer le mot de passe").fill("nouveau mot de passe solide");
  await o.getByRole("button", { name: "Enregistrer et se connecter" }).click();
  await expect(o).toHaveURL(/\/dashboard$/);
  // The other sessions (the admin's first browser) ended.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  await logIn(page, { email: staff.email, password: "nouveau mot de passe solide" });

  await o.goto("/settings");
  const rows = o.locator(".session-row");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Cet appareil");
  // Playwright's desktop Chrome profile says Windows.
  await expect(rows.first()).toContainText("Chrome sur Windows");
  await rows
    .nth(1)
    .getByRole("button", { name: /^Terminer la session/ })
    .click();
  await expect(o.getByText("Session terminée")).toBeVisible();
  await expect(o.getByRole("heading", { name: "Sessions" })).toBeFocused();
  await expect(rows).toHaveCount(1);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
  await other.close();
});

test.describe("accessibility", () => {
  // The app's nonce CSP would block the injected axe script.
  test.use({ bypassCSP: true });

  // Decision 108: these pages have the same DOM at every width but for the header (its links become a menu
  // below 720 px), so axe checks each once per language at 1280 px, and /team also at 320 px (the header's
  // phone menu, logged in); at 320 px every page is checked for sideways scroll.
  test("/team, /invite, /reset and /settings have no axe violations in French and English, and do not scroll sideways at 320 px", async ({ page, staff }) => {
    test.setTimeout(90_000);
    await logIn(page, staff);
    const members = (await (await page.request.get("/api/read/members")).json()) as { members: { id: number; email: string }[] };
    const me = members.members.find((m) => m.email === staff.email)!;
    const invitation = await api<{ invitationUrl: string }>(page, "invite_member", {
      email: `axe-${Date.now().toString(36)}@muselingo.test`,
      role: "translator",
      languages: ["de", "it"],
    });
    const reset = await api<{ url: string }>(page, "password_reset_link", { userId: me.id });

    for (const lang of ["fr", "en"]) {
      if (lang === "en") {
        // The header's language switcher is in the menu on a phone: switch at desktop width.
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto("/dashboard");
        await switchToEnglish(page);
      }
      for (const width of SHOTS ? [1280, 375, 320] : [1280, 320]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [name, path] of [
          ["team", "/team"],
          ["invite", new URL(invitation.invitationUrl).pathname],
          ["reset", new URL(reset.url).pathname],
          ["settings", "/settings"],
        ] as const) {
          await page.goto(path);
          await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
          if (name === "team") {
            // With a translator's language list open and a link shown, as an admin sees it.
            await page.locator("form[data-intent=invite]").getByRole("combobox").selectOption("translator");
            await page.locator("form[data-intent=invite] details.language-picker summary").click();
          }
          if (width === 1280 || (width === 320 && name === "team")) expect(await axeViolations(page), `${lang} ${width} ${name}`).toEqual([]);
          expect(await scrollsSideways(page), `${lang} ${width} ${name} scrolls sideways`).toBe(false);
          if (width !== 320) await shot(page, `team/${name}-${lang}-${width}`, { fullPage: true });
        }
      }
    }
  });
});
