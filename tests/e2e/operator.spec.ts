import { d1QueryAll } from "../../scripts/lib.mjs";
import { operatorCreateSteps } from "../../scripts/operator-command.mjs";
import { base32Decode, hotp, totpStep } from "../../app/operator/totp";
import { test, expect } from "./fixtures";
import { axeViolations, scrollsSideways, shot, switchToEnglish } from "./helpers";
import { e2eTarget, exclusively } from "./staff-pool.mjs";
import { zbarDecode } from "../support/zbar";

// The operator's first steps (issue 33 §1, decision 146): the link `npm run operator:create` prints, the
// authenticator enrolled from the page's QR code (its key typed here, as an app would read it), the recovery codes
// shown once, the console, signing out and in again with the next code. Keyboard only, axe-clean, both languages.

const PASSWORD = "Console opérateur 2026 ✓";

// axe is injected as a script tag (tests/e2e/helpers.ts axeViolations).
test.use({ bypassCSP: true });

test("an operator follows the setup link, keeps the recovery codes, reaches the console, signs out and in with a code", async ({ page }) => {
  test.setTimeout(60_000);
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
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole("link", { name: "Retour à la console" }).click();
  await page.getByLabel("Trouver un musée (nom ou adresse)").fill(slug);
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(/^1 musée sur \d+$/);
  await expect(page.getByRole("rowheader")).toContainText("Musée créé par la console");

  // Suspend it from its page: its visitors' pages (here its keypad) say the guide is paused, in their language.
  await page.getByRole("link", { name: "Musée créé par la console" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Musée créé par la console");
  expect(await axeViolations(page)).toEqual([]);
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
