import { mkdirSync } from "node:fs";
import { type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { api, axeViolations, elementCard, openCard, switchToEnglish, unique } from "./helpers";

// Issue 20's last items: uploaded files by their own names, toasts that never cover Save, the drag handle
// with the keyboard alone (decision 078), and kept drafts per tab (decision 079).

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const MP4 = Buffer.from([...u32(24), ...Buffer.from("ftypisom"), ...u32(512), ...Buffer.from("isommp41"), ...new Array(1_200_000).fill(5)]);
const SHOTS = process.env.POLISH_SHOTS;

async function articleWith(page: Page, elements: unknown[]) {
  const { articleId: id, slug } = await createArticle(page, { name: unique("Lécythe"), metadata: { backgroundColor: "#341539" }, elements });
  return { id, slug };
}

test("a video's file is shown by its own name and size, after a reload too; a card names it", async ({ page, staff }) => {
  test.setTimeout(90_000);
  await logIn(page, staff);
  const { id } = await articleWith(page, []);
  const sent = await page.request.post("/api/upload/video", {
    multipart: { video: { name: "Visite salle 3 — تمثال 🏛.mp4", mimeType: "video/mp4", buffer: MP4 }, videoId: "abc123", articleId: String(id) },
  });
  expect(sent.status()).toBe(200);
  const { mediaUrl, originalName } = (await sent.json()) as { mediaUrl: string; originalName: string };
  expect(originalName).toBe("Visite salle 3 — تمثال 🏛.mp4");
  const current = (await (await page.request.get(`/api/read/article?articleId=${id}`)).json()) as { version: number; content: unknown[] };
  await api(page, "update_article", {
    articleId: id,
    version: current.version,
    newContent: [current.content[0], { type: "video", src: mediaUrl, videoId: "abc123" }],
  });

  await page.goto(`/article?id=${id}`);
  // The closed card names the file; the open form says its name and size, never the /media/… path.
  await expect(elementCard(page, "Vidéo", 1, 1)).toContainText("Visite salle 3 — تمثال 🏛.mp4");
  await openCard(page, "Vidéo", 1, 1);
  const label = elementCard(page, "Vidéo", 1, 1).locator(".ef-upload__url").first();
  await expect(label).toHaveText(/^Visite salle 3 — تمثال 🏛\.mp4 \(1,2\s?Mo\)$/);
  await expect(elementCard(page, "Vidéo", 1, 1)).not.toContainText("/media/");

  // A new file through the form: its name at once, and after a reload (the server kept it).
  await elementCard(page, "Vidéo", 1, 1)
    .getByLabel("Fichier vidéo")
    .setInputFiles({ name: "Nouveau montage.mp4", mimeType: "video/mp4", buffer: MP4.subarray(0, 900_000) });
  await expect(label).toHaveText(/^Nouveau montage\.mp4 \(900\s?ko\)$/);
  await page.getByRole("button", { name: "Enregistrer" }).click();
  await expect(page.getByText("Tout est enregistré", { exact: true })).toBeVisible();
  await page.reload();
  await openCard(page, "Vidéo", 1, 1);
  await expect(label).toHaveText(/^Nouveau montage\.mp4 \(900\s?ko\)$/);
});

test("at 375 px a toast shows under the sticky action bar: Save stays clickable while it shows", async ({ page, staff }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  await logIn(page, staff);
  const { id } = await articleWith(
    page,
    ["Un", "Deux", "Trois", "Quatre", "Cinq", "Six"].map((content) => ({ type: "text", content })),
  );
  await page.goto(`/article?id=${id}`);
  await openCard(page, "Texte", 6, 6);
  await elementCard(page, "Texte", 6, 6).getByLabel("Texte", { exact: true }).fill("Six, corrigé");
  const save = page.locator("#editor-save");
  await save.click();
  const toast = page.locator("[data-rht-toaster]").getByText("Article enregistré");
  await expect(toast).toBeVisible();
  // Measured once it has slid in: mid-animation it is still half a pixel under the bar's edge (a flake, once).
  await page.waitForFunction(() =>
    (document.querySelector("[data-rht-toaster]")?.getAnimations({ subtree: true }) ?? []).every(
      (a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity,
    ),
  );
  const bar = (await page.locator(".editor-bar").boundingBox())!;
  const box = (await toast.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(bar.y + bar.height);
  // What is under Save's middle is Save itself, while the toast shows.
  const onSave = await save.evaluate((button) => {
    const r = button.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && button.contains(hit);
  });
  expect(onSave).toBe(true);
  await expect(toast).toBeVisible();
  // Scrolled down (the bar pinned at the top): the toast of a second save follows the bar.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await elementCard(page, "Texte", 6, 6).getByLabel("Texte", { exact: true }).fill("Six, corrigé deux fois");
  await save.click();
  await expect(toast).toBeVisible();
  const pinned = (await page.locator(".editor-bar").boundingBox())!;
  expect((await toast.boundingBox())!.y).toBeGreaterThanOrEqual(pinned.y + pinned.height);
  expect(
    await save.evaluate((b) => {
      const r = b.getBoundingClientRect();
      return b.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    }),
  ).toBe(true);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/toast-375.png` });
  }
});

test("the drag handle with the keyboard alone: pick up, move, drop, cancel, each step announced, focus kept", async ({ page, staff }) => {
  await logIn(page, staff);
  const { id } = await articleWith(
    page,
    ["Un", "Deux", "Trois", "Quatre"].map((content) => ({ type: "text", content })),
  );
  await page.goto(`/article?id=${id}`);
  const order = () => page.locator(".editor-element__summary");
  const said = page.getByRole("status").filter({ hasText: /Élément « Texte »|Déplacement annulé/ });
  const handle = (position: number) => page.getByRole("button", { name: `Déplacer Texte, élément ${position} sur 4`, exact: true });

  // Tab reaches the first handle from the card before: it is a button with a name and instructions.
  await page.getByRole("button", { name: /^Texte, élément 1 sur 4/ }).focus();
  await page.keyboard.press("Shift+Tab");
  await expect(handle(1)).toBeFocused();
  await expect(handle(1)).toHaveAccessibleDescription(/Espace ou Entrée saisit l’élément/);

  await page.keyboard.press("Space");
  await expect(said).toHaveText(/^Élément « Texte » en position 1 sur 4 saisi\./);
  await page.keyboard.press("ArrowDown");
  await expect(said).toHaveText(/^Élément « Texte » : position 2 sur 4\./);
  await page.keyboard.press("ArrowDown");
  await expect(said).toHaveText(/^Élément « Texte » : position 3 sur 4\./);
  await expect(elementCard(page, "Texte", 3, 4)).toHaveClass(/editor-element--drop-after/);
  // Nothing moved yet: the preview still shows the saved order.
  await expect(order()).toHaveText(["Un", "Deux", "Trois", "Quatre"]);
  await page.keyboard.press("Space");
  await expect(order()).toHaveText(["Deux", "Trois", "Un", "Quatre"]);
  await expect(said).toHaveText(/^Élément « Texte » déplacé en position 3 sur 4\./);
  await expect(handle(3)).toBeFocused();

  // End, then Escape: nothing moves, it is said, focus stays.
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await expect(said).toHaveText(/position 4 sur 4/);
  await page.keyboard.press("Escape");
  await expect(said).toHaveText(/^Déplacement annulé : l’élément « Texte » reste en position 3 sur 4\./);
  await expect(order()).toHaveText(["Deux", "Trois", "Un", "Quatre"]);
  await expect(handle(3)).toBeFocused();

  // Home moves to the top; Tab away while picked up cancels.
  await page.keyboard.press("Space");
  await page.keyboard.press("Home");
  await page.keyboard.press("Enter");
  await expect(order()).toHaveText(["Un", "Deux", "Trois", "Quatre"]);
  await expect(handle(1)).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  await expect(said).toHaveText(/^Déplacement annulé/);
  await expect(order()).toHaveText(["Un", "Deux", "Trois", "Quatre"]);

  // One keyboard move is one undo step.
  await handle(4).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Space");
  await expect(order()).toHaveText(["Un", "Deux", "Quatre", "Trois"]);
  await page.getByRole("button", { name: "Annuler", exact: true }).click();
  await expect(order()).toHaveText(["Un", "Deux", "Trois", "Quatre"]);
});

const KEPT_PREFIX = "muselingo:kept-draft:v1:";
const keptEntries = (page: Page, id: number) =>
  page.evaluate(
    ([prefix, articleId]) =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith(prefix) && k.slice(prefix.length).split(":")[1] === articleId)
        .map((k) => JSON.parse(localStorage.getItem(k)!) as { name: string }),
    [KEPT_PREFIX, String(id)] as const,
  );

test("two tabs on one article keep their own drafts; a new tab is offered the newest of the closed ones", async ({ page, context, staff }) => {
  await logIn(page, staff);
  const { id } = await articleWith(page, [{ type: "text", content: "Premier" }]);
  const second = await context.newPage();
  await page.goto(`/article?id=${id}`);
  await second.goto(`/article?id=${id}`);
  await page.getByLabel("Nom privé").fill("Nom de l'onglet A");
  await expect.poll(async () => (await keptEntries(page, id)).map((e) => e.name)).toEqual(["Nom de l'onglet A"]);
  // The other tab learns that this article has unsaved changes elsewhere; it offers nothing of tab A's.
  await expect(second.getByRole("status").filter({ hasText: "aussi ouvert avec des modifications non enregistrées" })).toBeVisible();
  await expect(second.getByRole("dialog")).toHaveCount(0);
  await second.getByLabel("Nom privé").fill("Nom de l'onglet B");
  await expect.poll(async () => (await keptEntries(page, id)).map((e) => e.name).sort()).toEqual(["Nom de l'onglet A", "Nom de l'onglet B"]);
  // Tab A types again: its own entry changes, B's stays.
  await page.getByLabel("Nom privé").fill("Nom de l'onglet A, repris");
  await expect.poll(async () => (await keptEntries(page, id)).map((e) => e.name).sort()).toEqual(["Nom de l'onglet A, repris", "Nom de l'onglet B"]);

  // A third tab opened while both are open offers neither (they are still being edited).
  const third = await context.newPage();
  await third.goto(`/article?id=${id}`);
  // "Also open elsewhere" and the offer are decided in one step on opening and shown in one render
  // (use-kept-draft.ts): with the status shown, an offer would be too (no fixed pause, decision 125).
  await expect(third.getByRole("status").filter({ hasText: "aussi ouvert" })).toBeVisible();
  await expect(third.getByRole("dialog")).toHaveCount(0);
  await third.close();

  // Both close; a new tab is offered the newest (A's), told one more waits; restoring it keeps B's for later.
  await page.close({ runBeforeUnload: false });
  await second.close({ runBeforeUnload: false });
  const next = await context.newPage();
  await next.goto(`/article?id=${id}`);
  const offer = next.getByRole("dialog", { name: /^Restaurer vos modifications non enregistrées de \d\d:\d\d \?$/ });
  await expect(offer).toContainText("Un autre brouillon de cet article");
  await offer.getByRole("button", { name: "Restaurer" }).click();
  await expect(next.getByLabel("Nom privé")).toHaveValue("Nom de l'onglet A, repris");
  await expect.poll(async () => (await keptEntries(next, id)).map((e) => e.name).sort()).toEqual(["Nom de l'onglet A, repris", "Nom de l'onglet B"]);
  await next.close({ runBeforeUnload: false });
  const last = await context.newPage();
  await last.goto(`/article?id=${id}`);
  const again = last.getByRole("dialog", { name: /^Restaurer vos modifications/ });
  await again.getByRole("button", { name: "Restaurer" }).click();
  await expect(last.getByLabel("Nom privé")).toHaveValue("Nom de l'onglet A, repris");
});

test.describe("editor polish pages", () => {
  test.use({ bypassCSP: true });
  test("no axe violations with a handle picked up and a file named, in French and English at 375 and 1280 px", async ({ page, staff }) => {
    test.setTimeout(120_000);
    await logIn(page, staff);
    const { id } = await articleWith(
      page,
      ["Un", "Deux"].map((content) => ({ type: "text", content })),
    );
    const sent = await page.request.post("/api/upload/video", {
      multipart: { video: { name: "visite.mp4", mimeType: "video/mp4", buffer: MP4.subarray(0, 5000) }, videoId: "abc123", articleId: String(id) },
    });
    const { mediaUrl } = (await sent.json()) as { mediaUrl: string };
    const current = (await (await page.request.get(`/api/read/article?articleId=${id}`)).json()) as { version: number; content: unknown[] };
    await api(page, "update_article", {
      articleId: id,
      version: current.version,
      newContent: [...current.content, { type: "video", src: mediaUrl, videoId: "abc123" }],
    });
    for (const lang of ["fr", "en"] as const) {
      await page.goto(`/article?id=${id}`);
      if (lang === "en") await switchToEnglish(page);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        await page.locator(".editor-element__toggle").nth(2).click();
        await page.locator("[data-drag-handle]").first().focus();
        await page.keyboard.press("Space");
        await page.keyboard.press("ArrowDown");
        // axe's target-size rule counts a button scrolled under the sticky bars (the stop number's "Set") as too
        // small; checked with the page at its top, where nothing lies under them (the handle stays picked up).
        await page.evaluate(() => window.scrollTo(0, 0));
        // Decision 108: the picked-up handle and the named file are the same DOM at every width (the editor's
        // phone layout is axe-checked in editor-cards.spec.ts): axe at 1280 px, the sideways check at 375 px.
        if (width === 1280) expect(await axeViolations(page), `${lang} ${width}`).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang} ${width}`).toBeLessThanOrEqual(width);
        if (SHOTS) await page.screenshot({ path: `${SHOTS}/editor-${lang}-${width}.png` });
        await page.keyboard.press("Escape");
        await page.locator(".editor-element__toggle").nth(2).click();
      }
    }
  });
});
