import { test, expect, logIn } from "./fixtures";
import { api, axeViolations, switchToEnglish } from "./helpers";

// The glossary of a staff member's museum (/glossary): add never-translated terms and fixed translations,
// see the refusals worded in the interface language, delete with the keyboard without losing focus.

test("from the settings, add a never-translated term and a fixed translation, see refusals, delete by keyboard", async ({ page, staff }) => {
  // Eight round trips on a shared 2-core machine: more than the default 30 s at times.
  test.setTimeout(60_000);
  await logIn(page, staff);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Ouvrir le glossaire" }).click();
  await expect(page).toHaveURL(/\/glossary$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Glossaire");
  await expect(page.getByText("Aucun terme pour l’instant")).toBeVisible();

  const term = page.getByRole("textbox", { name: /^Terme / });
  const addButton = page.getByRole("button", { name: "Ajouter le terme" });
  // The language and translation fields only show for a fixed translation.
  await expect(page.getByRole("combobox", { name: "Langue", exact: true })).toBeHidden();
  await expect(page.locator('select[name="lang"]')).toBeAttached();

  await term.fill("  Claude Monet ");
  await term.press("Enter");
  await expect(page.getByText("Terme ajouté.")).toBeVisible();
  const list = page.getByRole("list", { name: /terme/ });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem").first()).toContainText("Claude Monet");
  await expect(list.getByRole("listitem").first()).toContainText("Jamais traduit");
  // The form is empty again and ready for the next term.
  await expect(term).toBeFocused();
  await expect(term).toHaveValue("");

  await term.fill("Nymphéas");
  await page.getByLabel("Toujours le traduire de la même façon dans une langue").check();
  await page.getByRole("combobox", { name: "Langue", exact: true }).selectOption({ label: "Allemand — Deutsch" });
  await page.getByLabel("Sa traduction dans cette langue").fill("Seerosen");
  await addButton.click();
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("heading", { name: "2 termes" })).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: "Nymphéas" })).toContainText("Traduction imposée (Allemand) : Seerosen");

  // Refused right after a success: the chosen mode and its errors stay on screen, focus goes to them.
  await term.fill("Lyon");
  await page.getByLabel("Toujours le traduire de la même façon dans une langue").check();
  await addButton.click();
  await expect(page.getByText("Choisissez une langue dans la liste.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Langue", exact: true })).toBeFocused();
  await expect(page.getByLabel("Toujours le traduire de la même façon dans une langue")).toBeChecked();

  // Refusals, worded for the field, focus on the field in error.
  await page.getByLabel("Ne jamais le traduire").check();
  await term.fill("Claude Monet");
  await addButton.click();
  await expect(page.getByText("Ce terme figure déjà dans le glossaire pour ce choix.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: /^Terme / })).toBeFocused();
  await expect(page.getByRole("textbox", { name: /^Terme / })).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("textbox", { name: /^Terme / }).fill("Giverny");
  await page.getByLabel("Toujours le traduire de la même façon dans une langue").check();
  await addButton.click();
  await expect(page.getByText("Choisissez une langue dans la liste.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Langue", exact: true })).toBeFocused();

  await page.getByRole("textbox", { name: /^Terme / }).fill("   ");
  await page.getByLabel("Ne jamais le traduire").check();
  await addButton.click();
  await expect(page.getByText("Saisissez le terme.")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(2);

  // Delete with the keyboard: focus moves to the delete button that took the row's place, then to the form.
  const first = page.getByRole("button", { name: "Supprimer le terme « Claude Monet »" });
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Terme supprimé")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  const second = page.getByRole("button", { name: "Supprimer le terme « Nymphéas » (Allemand)" });
  await expect(second).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Aucun terme pour l’instant")).toBeVisible();
  await expect(page.getByRole("textbox", { name: /^Terme / })).toBeFocused();
});

test.describe("accessibility and layout", () => {
  test.use({ bypassCSP: true });

  test("/glossary has no axe violations in French and English, and nothing scrolls sideways at 320 px", async ({ page, staff }) => {
    await logIn(page, staff);
    await api(page, "add_glossary_term", { term: "Musée des Beaux-Arts de Lyon, salle des antiquités égyptiennes" });
    await api(page, "add_glossary_term", { term: "Nymphéas", lang: "ar", translation: "زنابق الماء" });
    for (const lang of ["fr", "en"]) {
      if (lang === "en") await switchToEnglish(page);
      await page.goto("/glossary");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(lang === "fr" ? "Glossaire" : "Glossary");
      expect(await axeViolations(page), `${lang} never`).toEqual([]);
      // With the fixed-translation fields shown, and with an error displayed.
      await page
        .getByRole("radio", {
          name: lang === "fr" ? "Toujours le traduire de la même façon dans une langue" : "Always translate it the same way in one language",
        })
        .check();
      await page.getByRole("button", { name: lang === "fr" ? "Ajouter le terme" : "Add the term" }).click();
      await expect(page.getByRole("alert").first()).toBeVisible();
      expect(await axeViolations(page), `${lang} fixed, with errors`).toEqual([]);
    }
    const translation = page.locator(".glossary-row__translation");
    await expect(translation).toHaveAttribute("lang", "ar");
    await expect(translation).toHaveAttribute("dir", "rtl");

    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto("/glossary");
    await page.getByRole("radio", { name: "Always translate it the same way in one language" }).check();
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    expect(widths[0]).toBeLessThanOrEqual(widths[1]!);
  });
});
