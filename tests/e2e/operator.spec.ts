import { d1QueryAll } from "../../scripts/lib.mjs";
import { operatorCreateSteps } from "../../scripts/operator-command.mjs";
import { base32Decode, hotp, totpStep } from "../../app/operator/totp";
import { test, expect } from "./fixtures";
import { axeViolations, scrollsSideways, shot, switchToEnglish } from "./helpers";
import { e2eTarget, exclusively } from "./staff-pool.mjs";
import { zbarDecode } from "../support/zbar";
import { publishWithCode } from "./builders";
import type { Browser, Page } from "@playwright/test";

// The operator's first steps (issue 33 §1, decision 146): the link `npm run operator:create` prints, the
// authenticator enrolled from the page's QR code (its key typed here, as an app would read it), the recovery codes
// shown once, the console, signing out and in again with the next code. Keyboard only, axe-clean, both languages.

const PASSWORD = "Console opérateur 2026 ✓";
const ADMIN_PASSWORD = "Premier administrateur ✓ 2026";

/** The first admin of a museum the console created joins from the invitation link, in a browser of their own. */
async function joinFromInvitation(browser: Browser, invitation: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, bypassCSP: true });
  const admin = await context.newPage();
  await admin.goto(new URL(invitation).pathname);
  // The field's label carries its help ("Au moins 12 caractères"): found by its name.
  await admin.locator('input[name="password"]').fill(ADMIN_PASSWORD);
  await admin.getByLabel("Confirmer le mot de passe").fill(ADMIN_PASSWORD);
  await admin.getByRole("button", { name: "Rejoindre l'équipe" }).click();
  await expect(admin).toHaveURL(/\/dashboard$/);
  return admin;
}

/** Creates a museum from the console's form; the first admin's invitation link it shows once. */
async function createFromConsole(page: Page, name: string, slug: string): Promise<string> {
  await page.goto("/operator/museums/new");
  await page.getByLabel("Nom du musée").fill(name);
  await page.getByLabel("Adresse (slug)").fill(slug);
  await page.getByLabel("Adresse e-mail du premier administrateur").fill(`admin-${slug}@example.org`);
  await page.getByRole("button", { name: "Créer le musée" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Le musée ${slug} est créé`);
  return (await page.locator("code").first().textContent())!.trim();
}

// axe is injected as a script tag (tests/e2e/helpers.ts axeViolations).
test.use({ bypassCSP: true });

test("an operator follows the setup link, creates a museum whose admin publishes, sees its figures, lowers its bound, suspends, resumes, closes another", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const email = `e2e-operator-${Date.now().toString(36)}@example.org`;
  const steps = operatorCreateSteps({ email });
  exclusively(() => d1QueryAll(steps.sql, e2eTarget, "DIRECTORY"));

  await page.goto(steps.path);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Configurer votre compte opérateur");
  await expect(page.getByRole("img", { name: "QR code contenant la clé secrète de votre compte" })).toBeVisible();
  const shown = (await page.locator(".operator-setup__secret").textContent())!.replace(/\s/g, "");
  expect(shown).toBe(steps.secret);
  // The QR code is the otpauth URI authenticator apps read, read here by zbar as a phone would.
  const [uri] = zbarDecode(await page.getByRole("img", { name: "QR code contenant la clé secrète de votre compte" }).screenshot());
  expect(uri).toBe(`otpauth://totp/Muselingo:${encodeURIComponent(email)}?secret=${steps.secret}&issuer=Muselingo&algorithm=SHA1&digits=6&period=30`);
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/setup-fr-1280", { fullPage: true });

  // By keyboard: the password, then the code the app shows now.
  const setupStep = totpStep(Date.now());
  await page.getByLabel("Nouveau mot de passe").fill(PASSWORD);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Le code à six chiffres affiché par votre application")).toBeFocused();
  await page.keyboard.type(await hotp(base32Decode(steps.secret)!, setupStep));
  await page.keyboard.press("Enter");
  const done = page.getByRole("heading", { level: 1, name: "Votre compte est prêt" });
  await expect(done).toBeFocused();
  await expect(page.locator(".operator-setup__codes li")).toHaveCount(10);
  const recovery = (await page.locator(".operator-setup__codes code").allTextContents())[0]!;
  expect(recovery).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/codes-fr-1280", { fullPage: true });

  await page.getByRole("link", { name: "Aller à la console" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Console opérateur");
  await expect(page.getByText(`Connecté en tant que ${email}.`)).toBeVisible();
  // The museums of the deployment (the e2e pool's among them), in a table that scrolls on its own.
  await expect(page.getByRole("region", { name: /^\d+ musées? sur \d+$/ })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/console-fr-1280");
  await page.setViewportSize({ width: 320, height: 700 });
  expect(await scrollsSideways(page)).toBe(false);
  await shot(page, "operator/console-fr-320");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A new museum and its first admin's invitation, from the console's form.
  await page.getByRole("link", { name: "Créer un musée" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Créer un musée");
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/create-fr-1280", { fullPage: true });
  const slug = `e2e-created-${Date.now().toString(36)}`;
  await page.getByLabel("Nom du musée").fill("Musée créé par la console");
  await page.getByLabel("Adresse (slug)").fill("Pas Un Slug");
  await page.getByLabel("Adresse e-mail du premier administrateur").fill(`admin-${slug}@example.org`);
  await page.getByRole("button", { name: "Créer le musée" }).click();
  await expect(page.getByRole("alert")).toContainText("Utilisez des lettres minuscules");
  await page.getByLabel("Adresse (slug)").fill(slug);
  await page.getByRole("button", { name: "Créer le musée" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Le musée ${slug} est créé`);
  await expect(page.locator("code")).toContainText("/invite/");
  const invitation = (await page.locator("code").first().textContent())!.trim();
  expect(await axeViolations(page)).toEqual([]);
  // Its first admin joins from the link and publishes an article; a visitor reads it in German.
  const admin = await joinFromInvitation(browser, invitation);
  const text = "Une amphore attique à figures noires, peinte vers 540 av. J.-C.";
  const { link } = await publishWithCode(admin, [{ type: "text", content: text }]);
  expect((await admin.request.get(`/r/${link}?lang=de`)).status()).toBe(200);
  await page.getByRole("link", { name: "Retour à la console" }).click();
  await page.getByLabel("Trouver un musée (nom ou adresse)").fill(slug);
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(/^1 musée sur \d+$/);
  await expect(page.getByRole("rowheader")).toContainText("Musée créé par la console");

  // Suspend it from its page: its visitors' pages (here its keypad) say the guide is paused, in their language.
  await page.getByRole("link", { name: "Musée créé par la console" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Musée créé par la console");
  expect(await axeViolations(page)).toEqual([]);
  // Its figures: the admin, the article, the German translation the engine made, and what it costs.
  const figure = (label: string) => page.locator(".operator-figures dt", { hasText: label }).locator("xpath=following-sibling::dd[1]");
  await expect(figure("Membres")).toHaveText("1");
  await expect(figure("Articles")).toHaveText("1");
  await expect(page.getByRole("region", { name: "Usage des moteurs ce mois-ci (UTC)" })).toContainText("Traduction");
  await expect(page.getByText("Coût estimé ce mois-ci")).toBeVisible();
  await shot(page, "operator/museum-fr-1280", { fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await scrollsSideways(page)).toBe(false);
  await shot(page, "operator/museum-fr-375", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  // A bound of 0 translation characters a month: the next new language is the original text, and staff are told.
  await page.getByLabel("Caractères traduits par mois").fill("abc");
  await page.getByRole("button", { name: "Enregistrer les plafonds" }).click();
  await expect(page.getByLabel("Caractères traduits par mois")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#translationBound-error")).toContainText("nombre entier");
  await page.getByLabel("Caractères traduits par mois").fill("0");
  await page.getByRole("button", { name: "Enregistrer les plafonds" }).click();
  await expect(page.getByRole("status")).toHaveText("Les plafonds sont enregistrés.");
  await expect(page.getByText("Plafond propre à ce musée.")).toBeVisible();
  const italian = await admin.request.get(`/r/${link}?lang=it`);
  expect(italian.status()).toBe(200);
  expect(await italian.text()).toContain(text);
  await admin.goto("/dashboard");
  await expect(admin.getByRole("heading", { level: 2, name: "Quotas mensuels" })).toBeVisible();
  await expect(admin.getByText("Le quota de traduction du musée est épuisé pour ce mois.")).toBeVisible();
  expect(await axeViolations(admin)).toEqual([]);
  await shot(admin, "operator/dashboard-bound-fr-1280");
  await page.getByRole("button", { name: "Suspendre ce musée" }).click();
  await expect(page.getByRole("status")).toHaveText("Le musée est suspendu.");
  await expect(page.getByRole("button", { name: "Rétablir ce musée" })).toBeVisible();
  await shot(page, "operator/museum-suspended-fr-1280");
  const visitor = await page.context().newPage();
  for (const [lang, width, title] of [
    ["fr", 375, "Le guide de ce musée est momentanément indisponible"],
    ["en", 1280, "This museum's guide is temporarily unavailable"],
  ] as const) {
    await visitor.setViewportSize({ width, height: 800 });
    const answer = await visitor.goto(`/v/${slug}/n?lang=${lang}`);
    expect(answer?.status()).toBe(503);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(title);
    expect(await axeViolations(visitor)).toEqual([]);
    expect(await scrollsSideways(visitor)).toBe(false);
    await shot(visitor, `operator/visitor-suspended-${lang}-${width}`);
  }
  await visitor.close();
  await page.getByRole("button", { name: "Rétablir ce musée" }).click();
  await expect(page.getByRole("status")).toHaveText("Le musée est rétabli.");
  expect((await admin.request.get(`/r/${link}?lang=fr`)).status()).toBe(200);
  await admin.context().close();

  // Another museum closes: its visitors hear it is gone, its archive stays downloadable (30 days) from the console and
  // by its admin at sign-in.
  const closingSlug = `e2e-closing-${Date.now().toString(36)}`;
  const closingAdmin = await joinFromInvitation(browser, await createFromConsole(page, "Musée qui ferme", closingSlug));
  await publishWithCode(closingAdmin, [{ type: "text", content: "Une stèle funéraire." }]);
  await closingAdmin.context().clearCookies();
  await page.goto("/operator");
  await page.getByLabel("Trouver un musée (nom ou adresse)").fill(closingSlug);
  await page.getByRole("button", { name: "Filtrer" }).click();
  await page.getByRole("link", { name: "Musée qui ferme" }).click();
  await page.getByLabel(`Tapez ${closingSlug} pour confirmer`).fill("pas-le-bon");
  await page.getByRole("button", { name: "Fermer ce musée" }).click();
  await expect(page.locator("#confirm-error")).toBeVisible();
  await page.getByLabel(`Tapez ${closingSlug} pour confirmer`).fill(closingSlug);
  await page.getByRole("button", { name: "Fermer ce musée" }).click();
  await expect(page.getByRole("status")).toHaveText("Le musée est fermé ; son archive est conservée 30 jours.");
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/museum-closed-fr-1280", { fullPage: true });
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /^Télécharger son archive/ }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^muselingo-${closingSlug}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const closedVisit = await closingAdmin.request.get(`/v/${closingSlug}/n?lang=en`);
  expect(closedVisit.status()).toBe(410);
  expect(await closedVisit.text()).toContain("no longer available");
  // Its admin, signing in, is told and given the archive.
  await closingAdmin.goto("/login");
  await closingAdmin.getByLabel("Adresse e-mail").fill(`admin-${closingSlug}@example.org`);
  await closingAdmin.getByLabel("Mot de passe").fill(ADMIN_PASSWORD);
  await closingAdmin.getByRole("button", { name: "Se connecter" }).click();
  await expect(closingAdmin.locator(".form__error")).toHaveText("Ce musée a été fermé par l’opérateur du service.");
  const [archive] = await Promise.all([
    closingAdmin.waitForEvent("download"),
    closingAdmin.getByRole("link", { name: "Télécharger l’archive du musée (ZIP)" }).click(),
  ]);
  expect(archive.suggestedFilename()).toBe(download.suggestedFilename());
  expect(await axeViolations(closingAdmin)).toEqual([]);
  await closingAdmin.setViewportSize({ width: 375, height: 800 });
  expect(await scrollsSideways(closingAdmin)).toBe(false);
  await shot(closingAdmin, "operator/login-closed-fr-375");
  await closingAdmin.context().close();
  await page.getByRole("link", { name: "Retour à la console" }).click();

  // Sign out, then in again with the password and the next step's code.
  await page.getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page).toHaveURL(/\/operator\/login$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connexion opérateur");
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe").fill(PASSWORD);
  // The code already spent by the setup is refused, and said so without naming which part was wrong.
  const code = page.getByLabel("Code de votre application d’authentification, ou un code de secours");
  await code.fill(await hotp(base32Decode(steps.secret)!, setupStep));
  await code.press("Enter");
  await expect(page.getByRole("alert")).toHaveText("Adresse e-mail, mot de passe ou code incorrect.");
  await page.getByLabel("Adresse e-mail").fill(email);
  await page.getByLabel("Mot de passe").fill(PASSWORD);
  await code.fill(await hotp(base32Decode(steps.secret)!, setupStep + 1));
  await code.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Console opérateur");

  // In English, the console says the same.
  await switchToEnglish(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operator console");
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/console-en-1280");
  // The closed museum's page in English, by keyboard: the archive link is reachable and named.
  await page.goto(`/operator?q=${closingSlug}`);
  await page.getByRole("link", { name: "Musée qui ferme" }).click();
  await expect(page.getByText(/^Closed on .* Its archive is kept/)).toBeVisible();
  await page.getByRole("link", { name: "Back to the console" }).focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = (await page.evaluate(() => document.activeElement?.textContent ?? "")).startsWith("Download its archive");
  }
  expect(reached).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await shot(page, "operator/museum-closed-en-1280", { fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await scrollsSideways(page)).toBe(false);
  await shot(page, "operator/museum-closed-en-375", { fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/operator");
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await scrollsSideways(page)).toBe(false);
  await shot(page, "operator/console-en-375");
  // A recovery code works too, once: sign out and in with one.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operator sign-in");
  await shot(page, "operator/login-en-375");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Code from your authenticator app, or a recovery code").fill(recovery);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Operator console");
});
