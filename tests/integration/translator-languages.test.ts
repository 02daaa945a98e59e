import { describe, expect, it } from "vitest";
import { get, memberSession, postJson, publishArticle, staffSession, texts } from "./helpers";

// A translator limited to some languages (decision 123): their languages are offered on a new article before any
// visitor asked, they may pretranslate into them (and only them), and a language outside them is refused in words.

type Languages = { languages: { lang: string; segments: number }[]; total: number };

describe("a translator's languages", () => {
  it("lists the translator's languages on a new article at once, and lets them pretranslate into them only", async () => {
    const admin = await staffSession();
    const { articleId } = await publishArticle(admin, texts(["Une amphore attique.", "Vers 530 avant notre ère."]));
    const translator = await memberSession(admin.user, { role: "translator", languages: ["de", "it"] });

    // Nobody asked for German or Italian yet: both rows are there, at 0 of 2.
    const listed = await get(`/api/read/translations?articleId=${articleId}`, translator.cookie);
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as Languages;
    expect(body.languages.map((l) => [l.lang, l.segments])).toEqual([
      ["de", 0],
      ["it", 0],
    ]);
    // The admin, limited to nothing, sees no invented rows.
    expect(((await admin.read(`/api/read/translations?articleId=${articleId}`)).body as Languages).languages).toEqual([]);

    const page = await get(`/translations?id=${articleId}`, translator.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-lang="de"');
    expect(html).toContain('data-lang="it"');
    expect(html).toContain(`href="/translations?id=${articleId}&amp;lang=de"`);
    expect(html).toContain("Vous relisez les traductions en allemand et italien.");
    // Pretranslation is offered, with their two languages only.
    expect(html).toContain('value="de"');
    expect(html).toContain('value="it"');
    expect(html).not.toContain('value="es"');

    // Pretranslate: their languages yes, another language no (and nothing is translated by a refused call).
    const refused = await translator.call("pretranslate", { articleId, langs: ["de", "es"] });
    expect([refused.status, (refused.body.error as { code: string; field: string }).code, (refused.body.error as { field: string }).field]).toEqual([
      403,
      "forbidden",
      "langs.1",
    ]);
    expect(((await admin.read(`/api/read/translations?articleId=${articleId}`)).body as Languages).languages).toEqual([]);
    const done = await translator.call("pretranslate", { articleId, langs: ["de"] });
    expect(done.status).toBe(200);
    expect(done.body.results).toEqual([{ lang: "de", status: "machine" }]);
    const after = ((await admin.read(`/api/read/translations?articleId=${articleId}`)).body as Languages).languages;
    expect(after.map((l) => [l.lang, l.segments])).toEqual([["de", 2]]);
  });

  it("says plainly which languages they may review when the address names another", async () => {
    const admin = await staffSession();
    const { articleId } = await publishArticle(admin, texts(["Une amphore attique."]));
    const translator = await memberSession(admin.user, { role: "translator", languages: ["de"] });
    for (const [locale, refusedText, yours] of [
      ["fr", "Vous ne pouvez pas relire la traduction en anglais.", "Votre langue : allemand."],
      ["en", "You cannot review the English translation.", "Your language is German."],
    ] as const) {
      const response = await get(`/translations?id=${articleId}&lang=en`, translator.cookie, { "Accept-Language": locale });
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(html, locale).toContain(refusedText);
      expect(html, locale).toContain(yours);
      expect(html).not.toContain("Erreur 403");
      expect(html).not.toContain("Error 403");
      // The German row is right there to open.
      expect(html).toContain(`href="/translations?id=${articleId}&amp;lang=de"`);
    }
    // A translator of every language has no such limit.
    const everyLanguage = await memberSession(admin.user, { role: "translator" });
    expect((await get(`/translations?id=${articleId}&lang=en`, everyLanguage.cookie)).status).toBe(200);
    expect((await postJson("/api/manage/pretranslate", { articleId, langs: ["en"] }, { Cookie: everyLanguage.cookie })).status).toBe(200);
  });

  it("lets a viewer neither list nor pretranslate", async () => {
    const admin = await staffSession();
    const { articleId } = await publishArticle(admin, texts(["Une amphore attique."]));
    const viewer = await memberSession(admin.user, { role: "viewer" });
    expect((await viewer.call("pretranslate", { articleId, langs: ["de"] })).status).toBe(403);
    expect((await get(`/api/read/translations?articleId=${articleId}`, viewer.cookie)).status).toBe(403);
  });
});
