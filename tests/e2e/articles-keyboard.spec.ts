import { type Page } from "@playwright/test";
import { test, expect, logIn } from "./fixtures";
import { createArticle } from "./builders";
import { unique, api, axeViolations, switchToEnglish } from "./helpers";

// The articles screen by keyboard, on a small phone and through axe. Each test works in folders of its
// own, named uniquely, so it never depends on what else the museum holds.
async function addArticle(page: Page, pathArray: string[], name: string) {
  return (await createArticle(page, { folder: pathArray, name })).articleId;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// A row's link reads "Dossier <name>" or "Article <name>" (the kind is visually hidden).
const link = (page: Page, name: string) => page.locator(".tree").getByRole("link", { name: new RegExp(`^(Dossier|Article) ${escape(name)}$`) });
const more = (page: Page, name: string) => page.getByRole("button", { name: `Actions pour ${name}`, exact: true });
const menuItem = (page: Page, name: string | RegExp) => page.getByRole("menuitem", { name });

test("the articles screen works with the keyboard alone, and focus always lands on a row", async ({ page, staff }) => {
  await logIn(page, staff);
  const room = unique("Clavier");
  await api(page, "add_folder", { pathArray: [], id: room });
  for (const name of ["Alpha", "Bravo", "Charlie"]) await api(page, "add_folder", { pathArray: [room], id: name });
  await addArticle(page, [room], "Delta");
  await page.goto(`/articles/${encodeURIComponent(room)}`);

  // Tab from a row's link to its "⋯" button; Enter opens the menu on its first item.
  await link(page, "Alpha").focus();
  await page.keyboard.press("Tab");
  await expect(more(page, "Alpha")).toBeFocused();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menuItem(page, "Renommer")).toBeFocused();
  await page.keyboard.press("End");
  await expect(menuItem(page, "Supprimer")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(menuItem(page, "Renommer")).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(menuItem(page, "Supprimer")).toBeFocused();

  // Tab leaves the menu and closes it, on to the next stop; Shift+Tab comes back to the "⋯" button.
  await page.keyboard.press("Tab");
  await expect(menu).toHaveCount(0);
  await expect(link(page, "Bravo")).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(more(page, "Alpha")).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Shift+Tab");
  await expect(menu).toHaveCount(0);
  await expect(more(page, "Alpha")).toBeFocused();

  // Escape closes the menu back to its "⋯" button.
  await page.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(more(page, "Alpha")).toBeFocused();

  // Escape from an inline rename returns to the row's link, unchanged.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  const input = page.getByLabel("Nouveau nom de Alpha");
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute("maxlength", "100");
  await page.keyboard.type("Ne reste pas");
  await page.keyboard.press("Escape");
  await expect(link(page, "Alpha")).toBeFocused();

  // Rename: focus ends on the renamed row's link once the list has reloaded.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await page.keyboard.type("Alpha renommé");
  await page.keyboard.press("Enter");
  await expect(link(page, "Alpha renommé")).toBeFocused();

  // Escape from the delete confirmation returns to the "⋯" button.
  await more(page, "Bravo").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Êtes-vous sûr de vouloir supprimer le dossier « Bravo » ?" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(more(page, "Bravo")).toBeFocused();

  // Delete: the row goes and its neighbour (now at its place) takes focus.
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "Annuler" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(link(page, "Bravo")).toHaveCount(0);
  await expect(link(page, "Charlie")).toBeFocused();

  // Move: Charlie goes into a sibling folder; focus lands on the row now at its place.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(menuItem(page, /Déplacer vers/)).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(menuItem(page, "↑ Dossier parent (Racine)")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(menuItem(page, "Alpha renommé")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(link(page, "Charlie")).toHaveCount(0);
  await expect(link(page, "Delta")).toBeFocused();

  // The last row deleted: focus goes to the row above it, never to <body>.
  await more(page, "Delta").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Êtes-vous sûr de vouloir supprimer l'article « Delta » ?" })).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(link(page, "Delta")).toHaveCount(0);
  await expect(link(page, "Alpha renommé")).toBeFocused();

  await link(page, "Alpha renommé").press("Enter");
  await expect(link(page, "Charlie")).toBeVisible();
});

test("the heading is a breadcrumb, and Move to offers every folder of the museum by its path", async ({ page, staff }) => {
  await logIn(page, staff);
  const room = unique("Aile é");
  await api(page, "add_folder", { pathArray: [], id: room });
  await api(page, "add_folder", { pathArray: [room], id: "Salle 1" });
  await api(page, "add_folder", { pathArray: [room, "Salle 1"], id: "Vitrine 2" });
  await api(page, "add_folder", { pathArray: [room], id: "Salle 2" });
  await addArticle(page, [room, "Salle 2"], "Vase");

  // An address written in NFD finds the folder stored in NFC.
  await page.goto(`/articles/${encodeURIComponent(room.normalize("NFD"))}/Salle%202`);
  const crumbs = page.getByRole("navigation", { name: "Fil d'Ariane" }).getByRole("listitem");
  await expect(crumbs).toHaveText(["Articles", room, "Salle 2"]);
  await expect(crumbs.last().getByRole("link")).toHaveAttribute("aria-current", "page");
  await expect(crumbs.first().getByRole("link")).not.toHaveAttribute("aria-current", /.*/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Salle 2");

  await more(page, "Vase").click();
  await menuItem(page, /Déplacer vers/).click();
  const destinations = page.getByRole("group", { name: "Déplacer vers" }).getByRole("menuitem");
  await expect(destinations.first()).toHaveText(`↑ Dossier parent (${room})`);
  await expect(menuItem(page, `${room} / Salle 2`)).toHaveCount(0);
  await menuItem(page, `${room} / Salle 1 / Vitrine 2`).click();
  await expect(page.getByText("Ce dossier est vide.")).toBeVisible();

  await crumbs.nth(1).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/articles/${encodeURIComponent(room)}$`));
  await link(page, "Salle 1").click();
  await link(page, "Vitrine 2").click();
  await expect(link(page, "Vase")).toBeVisible();
  await expect(crumbs).toHaveText(["Articles", room, "Salle 1", "Vitrine 2"]);
});

test.describe("on a 320 px phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test("nothing scrolls sideways, long names wrap and the ⋯ menu stays reachable inside the window", async ({ page, staff }) => {
    await logIn(page, staff);
    const room = unique("Étroit");
    const longName = `Une-salle-au-nom-interminable-${"x".repeat(60)}`.slice(0, 100);
    await api(page, "add_folder", { pathArray: [], id: room });
    await api(page, "add_folder", { pathArray: [room], id: longName });
    const doomed = await addArticle(page, [room], `Article-au-nom-très-long-${"y".repeat(70)}`);
    await api(page, "delete_item", { type: "article", id: doomed, pathArray: [room] });

    for (const path of ["/articles", `/articles/${encodeURIComponent(room)}`, "/trash"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
    }

    await page.goto(`/articles/${encodeURIComponent(room)}`);
    const button = more(page, longName);
    await expect(button).toBeInViewport({ ratio: 1 });
    await button.click();
    const box = await page.getByRole("menu").boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    expect(box!.y + box!.height).toBeLessThanOrEqual(640);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  });
});

test.describe("accessibility", () => {
  // The app's nonce CSP would block the injected axe script.
  test.use({ bypassCSP: true });

  test("/articles and /trash have no axe violations, in French and in English", async ({ page, staff }) => {
    await logIn(page, staff);
    const room = unique("Axe");
    await api(page, "add_folder", { pathArray: [], id: room });
    await api(page, "add_folder", { pathArray: [room], id: "Salle" });
    await addArticle(page, [room], "Amphore");
    const gone = await addArticle(page, [room], "Lampe à huile");
    await api(page, "delete_item", { type: "article", id: gone, pathArray: [room] });

    for (const lang of ["fr", "en"]) {
      if (lang === "en") await switchToEnglish(page);
      for (const path of ["/articles", `/articles/${encodeURIComponent(room)}`, "/trash"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        expect(await axeViolations(page), `${lang} ${path}`).toEqual([]);
      }
    }
  });
});

test("a refused rename keeps what was typed, says why, and keeps focus in the field; ArrowRight opens Move to", async ({ page, staff }) => {
  await logIn(page, staff);
  const room = unique("Refus");
  await api(page, "add_folder", { pathArray: [], id: room });
  for (const name of ["Alpha", "Bravo"]) await api(page, "add_folder", { pathArray: [room], id: name });
  await page.goto(`/articles/${encodeURIComponent(room)}`);

  await more(page, "Alpha").click();
  await menuItem(page, "Renommer").click();
  const field = page.getByRole("textbox", { name: /Alpha/ });
  await field.fill("a/b");
  await field.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Un nom ne peut pas contenir « / »." })).toBeVisible();
  await expect(field).toHaveValue("a/b");
  await expect(field).toBeFocused();
  await field.fill("Bravo");
  await field.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Un élément de ce nom existe déjà ici." })).toBeVisible();
  await expect(field).toHaveValue("Bravo");
  await field.fill("Alpha 2");
  await field.press("Enter");
  await expect(link(page, "Alpha 2")).toBeFocused();

  await more(page, "Bravo").focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(menuItem(page, /Déplacer vers/)).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.locator(".item-menu__sub [role=menuitem]").first()).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(menuItem(page, /Déplacer vers/)).toBeFocused();
  await page.keyboard.press("Escape");
});
