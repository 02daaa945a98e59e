import { type BrowserContext, type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { api, axeViolations, openCard, SHOTS, shot, switchToEnglish, unique } from "./helpers";

// Nothing lost (issue 20, decisions 071 and 072): unsaved changes kept in the browser per user and article
// and offered back, undo and redo by buttons and keys, and a login dialog when the session ends mid-edit.

const KEPT_PREFIX = "muselingo:kept-draft:v1:";

async function addArticle(page: Page, texts: string[]) {
  const name = unique("Cratère");
  const elements = texts.map((content) => ({ type: "text", content }));
  const { articleId: id, slug } = await createArticle(page, { name, metadata: { backgroundColor: "#341539" }, elements });
  return { id, name, slug };
}

async function readArticle(page: Page, id: number) {
  const response = await page.request.get(`/api/read/article?articleId=${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as { unformatted_name: string; version: number; content: { type: string; content?: string }[] };
}

/** Waits until the browser has kept a draft of the article holding `text` (the write follows a 500 ms pause). */
async function keptHolds(page: Page, id: number, text: string) {
  await page.waitForFunction(
    // "<prefix><user>:<article>:<tab>" (decision 079: one entry per tab).
    ([prefix, articleId, expected]) =>
      Object.keys(localStorage).some(
        (k) => k.startsWith(prefix) && k.slice(prefix.length).split(":")[1] === articleId && localStorage.getItem(k)!.includes(expected),
      ),
    [KEPT_PREFIX, String(id), text] as const,
  );
}

const keptKeys = (page: Page) => page.evaluate((prefix) => Object.keys(localStorage).filter((k) => k.startsWith(prefix)), KEPT_PREFIX);

/** Opens the editor in a fresh tab of the same browser (the one before closed without saving). */
async function reopen(context: BrowserContext, page: Page, id: number) {
  await page.close({ runBeforeUnload: false });
  const next = await context.newPage();
  await next.goto(`/article?id=${id}`);
  return next;
}

const textField = (page: Page, position: number, count: number) =>
  page.getByRole("group", { name: `Texte, élément ${position} sur ${count}` }).getByLabel("Texte", { exact: true });

test("crash recovery: type, close the tab without saving, reopen, restore, save; discard drops it for good", async ({ page, context, staff }) => {
  await logIn(page, staff);
  const { id, name } = await addArticle(page, ["Premier", "Second"]);
  await page.goto(`/article?id=${id}`);
  const newName = unique("Cratère en calice");
  await page.getByLabel("Nom privé").fill(newName);
  await openCard(page, "Texte", 2, 2);
  await textField(page, 2, 2).fill("Second, corrigé 🏺");
  await keptHolds(page, id, "corrigé");

  page = await reopen(context, page, id);
  const offer = page.getByRole("dialog", { name: /^Restaurer vos modifications non enregistrées de \d\d:\d\d \?$/ });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText("Ce navigateur a gardé des modifications");
  await expect(offer).not.toContainText("plus ancienne");
  await expect(offer.getByRole("button", { name: "Restaurer" })).toBeFocused();
  // Behind the offer the saved version shows, untouched.
  await expect(page.getByLabel("Nom privé")).toHaveValue(name);
  await offer.getByRole("button", { name: "Restaurer" }).click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByLabel("Nom privé")).toHaveValue(newName);
  await expect(textField(page, 2, 2)).toHaveValue("Second, corrigé 🏺");
  await expect(page.getByText("Modifications non enregistrées", { exact: true })).toBeVisible();
  // Focus on Undo, which takes the restore back.
  await expect(page.getByRole("button", { name: "Annuler", exact: true })).toBeFocused();

  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Article enregistré")).toBeVisible();
  expect((await readArticle(page, id)).unformatted_name).toBe(newName);
  await expect.poll(() => keptKeys(page)).toEqual([]);
  await page.reload();
  await expect(page.getByLabel("Nom privé")).toHaveValue(newName);

  // Discard: the kept draft goes, the saved version stays, and reopening offers nothing.
  await openCard(page, "Texte", 1, 2);
  await textField(page, 1, 2).fill("À jeter");
  await keptHolds(page, id, "À jeter");
  // The reload offered nothing: an open offer keeps the editor from writing a draft (use-kept-draft.ts), and it
  // just wrote one, so the opening's check has run and found nothing (no fixed pause, decision 125).
  await expect(page.getByRole("dialog")).toHaveCount(0);
  page = await reopen(context, page, id);
  await page.getByRole("dialog").getByRole("button", { name: "Abandonner" }).click();
  await expect(page.getByLabel("Nom privé")).toBeFocused();
  await expect(textField(page, 1, 2)).toHaveValue("Premier");
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  expect(await keptKeys(page)).toEqual([]);
  await page.reload();
  // Nothing offered once reloaded: the editor writes a draft again, which it never does while an offer is open.
  await openCard(page, "Texte", 1, 2);
  await textField(page, 1, 2).fill("Après l'abandon");
  await keptHolds(page, id, "Après l'abandon");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("a kept draft older than the saved version says so, and saving it meets the stale-version refusal", async ({ page, context, staff }) => {
  await logIn(page, staff);
  const { id, slug } = await addArticle(page, ["Premier"]);
  await page.goto(`/article?id=${id}`);
  await openCard(page, "Texte", 1, 1);
  await textField(page, 1, 1).fill("Ma version");
  await keptHolds(page, id, "Ma version");
  // A colleague saves meanwhile.
  const before = await readArticle(page, id);
  await api(page, "update_article", {
    articleId: id,
    version: before.version,
    newContent: [
      { type: "metadatas", url: slug, backgroundColor: "#341539" },
      { type: "text", content: "Leur version" },
    ],
  });

  page = await reopen(context, page, id);
  const offer = page.getByRole("dialog", { name: /^Restaurer vos modifications/ });
  await expect(offer).toContainText("Elles partent d'une version plus ancienne");
  // Escape is the choice that loses nothing: it restores (undo would bring the saved version back).
  await page.keyboard.press("Escape");
  await expect(offer).toHaveCount(0);
  await expect(textField(page, 1, 1)).toHaveValue("Ma version");
  await page.getByRole("button", { name: "Enregistrer" }).click();
  // Refused as stale: theirs stays on the server, mine stays on the page and in the browser.
  await expect(page.getByText("Modifications non enregistrées", { exact: true })).toBeVisible();
  await expect(page.getByText("Article enregistré")).toHaveCount(0);
  expect((await readArticle(page, id)).content[1]?.content).toBe("Leur version");
  await expect(textField(page, 1, 1)).toHaveValue("Ma version");
  expect(await keptKeys(page)).toHaveLength(1);
});

test("another person on the same browser never sees someone else's kept draft", async ({ page, staff }) => {
  await logIn(page, staff);
  const { id } = await addArticle(page, ["Premier"]);
  const colleague = { email: `colleague-${Date.now().toString(36)}@muselingo.test`, password: "un mot de passe sûr" };
  const invited = await api<{ invitationUrl: string }>(page, "invite_member", { email: colleague.email, role: "editor" });

  await page.goto(`/article?id=${id}`);
  await openCard(page, "Texte", 1, 1);
  await textField(page, 1, 1).fill("Brouillon privé");
  await keptHolds(page, id, "Brouillon privé");
  page.on("dialog", (dialog) => void dialog.accept());
  expect((await page.request.post("/logout")).status()).toBe(200);

  // The colleague joins and logs in on this browser: same museum, same article, no offer.
  expect((await page.request.post(new URL(invited.invitationUrl).pathname, { data: { password: colleague.password } })).status()).toBe(200);
  await page.goto(`/article?id=${id}`);
  await expect(textField(page, 1, 1)).toHaveValue("Premier");
  // They edit and leave: their own entry, beside the first one.
  await openCard(page, "Texte", 1, 1);
  await textField(page, 1, 1).fill("Brouillon du collègue");
  await keptHolds(page, id, "Brouillon du collègue");
  // Nothing was offered to them: the editor wrote their draft, which it never does while an offer is open.
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await keptKeys(page)).toHaveLength(2);
  expect((await page.request.post("/logout")).status()).toBe(200);

  // Back as the first person: their own draft is offered, not the colleague's.
  await logIn(page, staff);
  await page.goto(`/article?id=${id}`);
  await page
    .getByRole("dialog", { name: /^Restaurer vos modifications/ })
    .getByRole("button", { name: "Restaurer" })
    .click();
  await expect(textField(page, 1, 1)).toHaveValue("Brouillon privé");
});

test("undo and redo typing, a move and a delete, by buttons and by keys; text fields keep the browser's undo", async ({ page, staff }) => {
  await logIn(page, staff);
  const { id, name } = await addArticle(page, ["Un", "Deux", "Trois"]);
  await page.goto(`/article?id=${id}`);
  const undo = page.getByRole("button", { name: "Annuler", exact: true });
  const redo = page.getByRole("button", { name: "Rétablir", exact: true });
  await expect(undo).toHaveAttribute("aria-disabled", "true");
  await expect(redo).toHaveAttribute("aria-disabled", "true");
  const order = () => page.locator(".editor-elements textarea").evaluateAll((fields) => fields.map((f) => (f as HTMLTextAreaElement).value));

  // In a text field, Ctrl+Z is the browser's: the editor's history does not move.
  await page.getByRole("button", { name: "Monter — Texte, élément 2 sur 3" }).click();
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await page.getByLabel("Adresse de l'article").focus();
  await page.keyboard.press("Control+z");
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await undo.click();
  expect(await order()).toEqual(["Un", "Deux", "Trois"]);
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await redo.click();
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await undo.click();

  // Typing is one step: one undo takes the whole word back, redo brings it again.
  const nameField = page.getByLabel("Nom privé");
  await nameField.click();
  await nameField.press("End");
  await page.keyboard.type(" rouge", { delay: 40 });
  await expect(nameField).toHaveValue(`${name} rouge`);
  await undo.click();
  await expect(nameField).toHaveValue(name);
  await expect(undo).toHaveAttribute("aria-disabled", "true");
  await expect(undo).toBeFocused();
  await expect(page.getByRole("status").filter({ hasText: "Modification annulée." })).toHaveCount(1);
  await redo.click();
  await expect(nameField).toHaveValue(`${name} rouge`);
  await expect(page.getByRole("status").filter({ hasText: "Modification rétablie." })).toHaveCount(1);
  await undo.click();
  await expect(nameField).toHaveValue(name);

  // A move by button, undone and redone by keys (focus on a button, not in a text field).
  await page.getByRole("button", { name: "Descendre — Texte, élément 1 sur 3" }).click();
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await page.keyboard.press("Control+z");
  expect(await order()).toEqual(["Un", "Deux", "Trois"]);
  await page.keyboard.press("Control+Shift+Z");
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await page.keyboard.press("Control+z");
  await page.keyboard.press("Control+y");
  expect(await order()).toEqual(["Deux", "Un", "Trois"]);
  await page.keyboard.press("Meta+z");
  expect(await order()).toEqual(["Un", "Deux", "Trois"]);

  // A delete, undone by keys with focus where the delete put it; the element comes back with its text.
  await page.getByRole("button", { name: "Supprimer — Texte, élément 2 sur 3" }).click();
  expect(await order()).toEqual(["Un", "Trois"]);
  await expect(page.getByRole("button", { name: "Annuler la suppression" })).toBeVisible();
  await page.keyboard.press("Control+z");
  expect(await order()).toEqual(["Un", "Deux", "Trois"]);
  // The message's own "undo" shows only while the delete is the last step.
  await expect(page.getByRole("button", { name: "Annuler la suppression" })).toHaveCount(0);

  // Redo the delete by keys from the deleted element's own button: focus is not lost with it.
  await page.getByRole("button", { name: "Supprimer — Texte, élément 2 sur 3" }).focus();
  await page.keyboard.press("Control+y");
  expect(await order()).toEqual(["Un", "Trois"]);
  await expect(redo).toBeFocused();
  await expect(page.getByText("Modifications non enregistrées", { exact: true })).toBeVisible();
  await keptHolds(page, id, "Trois");

  // Undo all the way back: nothing unsaved, nothing kept.
  await undo.click();
  expect(await order()).toEqual(["Un", "Deux", "Trois"]);
  await expect(undo).toHaveAttribute("aria-disabled", "true");
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await expect.poll(() => keptKeys(page)).toEqual([]);
});

test("an expired session while editing: the save opens a login dialog, log in, the save is made", async ({ page, context, staff }) => {
  await logIn(page, staff);
  const { id } = await addArticle(page, ["Premier"]);
  await page.goto(`/article?id=${id}`);
  await openCard(page, "Texte", 1, 1);
  await textField(page, 1, 1).fill("Écrit pendant que la session expirait");

  // The session row is deleted server-side while the browser still holds its cookie.
  const cookies = await context.cookies();
  expect((await page.request.post("/logout")).status()).toBe(200);
  await context.addCookies(cookies);
  expect((await page.request.get(`/api/read/article?articleId=${id}`)).status()).toBe(401);

  await page.getByRole("button", { name: "Enregistrer" }).click();
  const dialog = page.getByRole("dialog", { name: "Votre session a pris fin" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Adresse e-mail")).toHaveValue(staff.email);
  await expect(dialog.getByLabel("Mot de passe")).toBeFocused();
  await dialog.getByLabel("Mot de passe").fill("pas le bon mot de passe");
  await dialog.getByRole("button", { name: "Se reconnecter" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Email ou mot de passe invalide");
  await expect(dialog.getByLabel("Mot de passe")).toBeFocused();
  // The draft is still on the page (and kept in the browser) behind the dialog.
  await expect(textField(page, 1, 1)).toHaveValue("Écrit pendant que la session expirait");

  await dialog.getByLabel("Mot de passe").fill(staff.password);
  await dialog.getByRole("button", { name: "Se reconnecter" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Article enregistré")).toBeVisible();
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  expect((await readArticle(page, id)).content[1]?.content).toBe("Écrit pendant que la session expirait");
  await expect(page.getByRole("button", { name: "Enregistrer" })).toBeFocused();
});

test.describe("accessibility", () => {
  // The app's nonce CSP would block the injected axe script.
  test.use({ bypassCSP: true });

  // Decision 108: the dialogs' DOM is the same at every width (editor-keep.css only changes padding below 400 px),
  // so axe checks them once per language, at 1280 px, the refused password's alert shown; at 320 px the same
  // steps check only that nothing scrolls sideways. The editor behind them at 320 px is axe-checked in
  // editor-cards.spec.ts. A 375 px pass takes the screenshots when E2E_SHOTS is set.
  test("the restore offer and the login dialog have no axe violations in French and English, and do not scroll sideways at 320 px", async ({
    page,
    context,
    staff,
  }) => {
    test.setTimeout(90_000);
    await logIn(page, staff);
    const { id } = await addArticle(page, ["Premier"]);
    page.on("dialog", (dialog) => void dialog.accept());
    for (const lang of ["fr", "en"] as const) {
      if (lang === "en") await switchToEnglish(page);
      for (const width of SHOTS ? [320, 375, 1280] : [320, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        // Until the editor has hydrated, typing reaches only the server's HTML and no draft is kept: since logging
        // in loads no page (decision 125), this is the first load, with nothing cached (it hung here once in 20).
        await page.goto(`/article?id=${id}`, { waitUntil: "networkidle" });
        const text = `Version ${lang} ${width}`;
        const toggle = page.locator(".editor-element [aria-expanded]").first();
        if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
        await page.locator(".editor-elements textarea").first().fill(text);
        await keptHolds(page, id, text);
        await page.reload();
        const offer = page.getByRole("dialog");
        await expect(offer).toBeVisible();
        if (width === 320) expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang} ${width}`).toBeLessThanOrEqual(320);
        if (width === 1280) expect(await axeViolations(page), `offer ${lang} ${width}`).toEqual([]);
        if (width !== 320) await shot(page, `keep/offer-${lang}-${width}`);
        await offer.getByRole("button", { name: lang === "fr" ? "Restaurer" : "Restore" }).click();

        const cookies = await context.cookies();
        expect((await page.request.post("/logout")).status()).toBe(200);
        await context.addCookies(cookies);
        await page.getByRole("button", { name: lang === "fr" ? "Enregistrer" : "Save" }).click();
        const login = page.getByRole("dialog");
        await expect(login).toBeVisible();
        // A refused password once per language (the login rate limit counts failures per client address), at
        // the width where axe checks the dialog with its alert.
        if (width === 1280) {
          await login.getByLabel(lang === "fr" ? "Mot de passe" : "Password").fill("wrong password");
          await login.getByRole("button", { name: lang === "fr" ? "Se reconnecter" : "Log in again" }).click();
          await expect(login.getByRole("alert")).toBeVisible();
          expect(await axeViolations(page), `login ${lang} ${width}`).toEqual([]);
        }
        if (width !== 320) await shot(page, `keep/login-${lang}-${width}`);
        if (width === 320) expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang} ${width}`).toBeLessThanOrEqual(320);
        await login.getByLabel(lang === "fr" ? "Mot de passe" : "Password").fill(staff.password);
        await login.getByRole("button", { name: lang === "fr" ? "Se reconnecter" : "Log in again" }).click();
        await expect(login).toHaveCount(0);
        await expect(page.getByText(lang === "fr" ? "Tout est enregistré" : "All changes saved", { exact: true })).toBeVisible();
        if (width === 1280 && SHOTS) {
          await page.getByLabel(lang === "fr" ? "Nom privé" : "Private name").pressSequentially("!");
          await shot(page, `keep/editor-${lang}-${width}`);
          await page.getByRole("button", { name: lang === "fr" ? "Annuler" : "Undo", exact: true }).click();
        }
      }
    }
  });
});
