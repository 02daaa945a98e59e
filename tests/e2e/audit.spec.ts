import { readFile } from "node:fs/promises";
import { type Page } from "@playwright/test";
import { expect, logIn, logInByForm, test } from "./fixtures";
import { createArticle, createQrCode } from "./builders";
import { api, axeViolations, shot, SHOTS, switchToEnglish, unique } from "./helpers";

// The audit log (/audit, decision 043): an admin deletes an article, finds the entry by filtering, and
// downloads the same view as CSV.

function row(page: Page, name: string) {
  return page.locator(".tree-row").filter({ has: page.getByRole("link", { name }) });
}

test("an admin deletes an article, finds it in the audit log by action and exports the CSV", async ({ page, staff }) => {
  test.setTimeout(60_000);
  await logIn(page, staff);
  const name = unique("Salle 2 «Nymphéas»");
  const folder = unique("Aile");
  await api(page, "add_folder", { pathArray: [], id: folder });
  const added = { id: (await createArticle(page, { folder: [folder], name })).articleId };
  await createQrCode(page);

  await page.goto(`/articles/${encodeURIComponent(folder)}`);
  await row(page, name).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Supprimer" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByRole("link", { name })).toHaveCount(0);

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Journal d'activité" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Journal d'activité");
  const table = page.getByRole("table");
  // The fixture's own sign-in is an entry too (decision 045); the rows counted are the others.
  const rows = table.getByRole("row").filter({ hasNotText: /s'est connecté·e|signed in/ });
  await expect(rows).toHaveCount(6); // header, the folder, the article created and renamed, the QR code, the deletion (decision 124)

  await page.getByRole("combobox", { name: "Action" }).selectOption({ label: "Mis à la corbeille" });
  await page.getByRole("button", { name: "Filtrer" }).click();
  await expect(page).toHaveURL(/action=item\.delete/);
  await expect(table.getByRole("row")).toHaveCount(2);
  const entry = table.getByRole("row").nth(1);
  await expect(entry).toContainText(staff.email.toLowerCase());
  await expect(entry).toContainText(`a mis l'article « ${name} » à la corbeille`);
  // In the trash, the article is not linked.
  await expect(entry.getByRole("link")).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Action" })).toHaveValue("item.delete");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exporter en CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^muselingo-audit-.*\.csv$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString("utf8").slice(1).trim().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toBe("date (Europe/Paris),person,action,target,details");
  // The name holds no comma or quote, so its cell is not quoted.
  expect(lines[1]).toMatch(
    new RegExp(
      `^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2},${staff.email.toLowerCase().replace(/[.+]/g, "\\$&")},item\\.delete,article:${added.id},type: article; name: `,
    ),
  );
  expect(lines[1]!.endsWith(`name: ${name}`)).toBe(true);

  // Restored, the article is linked again from its entry.
  await api(page, "restore_item", { type: "article", id: added.id });
  await page.reload();
  await expect(
    table
      .getByRole("row")
      .nth(1)
      .getByRole("link", { name: `« ${name} »` }),
  ).toHaveAttribute("href", `/article?id=${added.id}`);
  // A refused filter is said next to the form, with the field marked.
  await page.goto("/audit?from=2026-02-30");
  await expect(page.getByRole("alert")).toHaveText("La date de début n'est pas une date valide, ou elle est après la date de fin.");
  await expect(page.getByLabel("Du", { exact: true })).toHaveAttribute("aria-invalid", "true");
});

test.describe("accessibility and layout", () => {
  test.use({ bypassCSP: true });

  test("/audit has no axe violations in French and English at 320 and 1280 px, and nothing scrolls sideways", async ({ page, staff }) => {
    test.setTimeout(60_000);
    await logIn(page, staff);
    const added = { id: (await createArticle(page, { name: "Galerie des peintures flamandes et hollandaises du XVIIᵉ siècle" })).articleId };
    await api(page, "add_glossary_term", { term: "Nymphéas", lang: "ar", translation: "زنابق الماء" });
    await createQrCode(page, { articleId: added.id });
    await api(page, "reset_translation", { articleId: added.id, lang: "de" });
    await api(page, "delete_item", { type: "article", id: added.id, pathArray: [] });
    for (const lang of ["fr", "en"] as const) {
      if (lang === "en") {
        await page.goto("/audit");
        await switchToEnglish(page);
      }
      // Decision 108: the table becomes blocks below 640 px (another DOM): axe at 320 and 1280 px; 375 px only
      // for screenshots (E2E_SHOTS).
      for (const width of SHOTS ? [320, 375, 1280] : [320, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/audit");
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang === "fr" ? "Journal d'activité" : "Audit log");
        const rows = page
          .getByRole("table")
          .getByRole("row")
          .filter({ hasNotText: /s'est connecté·e|signed in/ });
        await expect(rows).toHaveCount(8); // header, article created and renamed (decision 124), glossary, QR created and linked, reset, deletion (sign-ins aside)
        if (width !== 375) expect(await axeViolations(page), `${lang} ${width}`).toEqual([]);
        const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
        expect(widths[0], `${lang} ${width}`).toBeLessThanOrEqual(widths[1]!);
        if (width !== 320) await shot(page, `audit/audit-${lang}-${width}`, { fullPage: true });
      }
    }
    // Keyboard: the filters are reachable and submit with Enter; focus lands on the page again.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/audit");
    await page.getByRole("combobox", { name: "Person" }).focus();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("combobox", { name: "Action" })).toBeFocused();
    await page.getByRole("combobox", { name: "Action" }).selectOption("qrcode.*");
    // Enter in a field of the form submits it (a select does not: Tab on to the date).
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("From", { exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/action=qrcode\.\*/);
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(3);

    // Pages: following "Older entries" to the last page, where that link is gone, leaves focus on the heading.
    // The sign-ins of this test are entries too: counted first, so the last page's size is known.
    await page.goto("/audit");
    const total = (await page.getByRole("table").getByRole("row").count()) - 1;
    expect(total).toBeGreaterThan(4);
    expect(total).toBeLessThanOrEqual(8);
    await page.goto("/audit?limit=4");
    await page.getByRole("link", { name: "Older entries" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(total - 4 + 1);
    await expect(page.getByRole("link", { name: "Older entries" })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await page.getByRole("link", { name: "Newest entries" }).click();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(5);
  });

  // Other roles are refused the page and the call in the integration tests (role matrix, audit-log).
  test("the dashboard shows the audit tile to an admin; signed out, /audit asks to log in", async ({ page, staff }) => {
    await logInByForm(page, staff);
    await expect(page.getByRole("link", { name: "Journal d'activité" })).toBeVisible();
    await page.context().clearCookies();
    await page.goto("/audit");
    await expect(page).toHaveURL(/\/login/);
  });
});
