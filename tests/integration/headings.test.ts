import { env, SELF } from "cloudflare:test";
import { exportMuseum, importMuseum } from "./builders";
import { describe, expect, it } from "vitest";
import { pseudoTranslate } from "~/translation/engines/pseudo";
import { BASE, get, publishArticle, staffSession, type StaffSession } from "./helpers";

// The heading element (issue 20 §1, decision 074) through the whole product: saved by the API (and refused
// with the field named), shown to visitors as <h2>/<h3> under the page's <h1> and translated, listed on the
// review page and in XLIFF with the kind "heading", carried by the museum archive and the spreadsheet import.

const ELEMENTS = [
  { type: "text", content: "Le Radeau de la Méduse\nGéricault, 1819." },
  { type: "heading", level: 2, content: "Le naufrage" },
  { type: "text", content: "En 1816, la frégate Méduse échoue." },
  { type: "heading", level: 3, content: "Les survivants", align: "center" },
  { type: "text", content: "Quinze hommes." },
];

const de = (text: string) => pseudoTranslate(text, "de");
/** The tags h1–h6 of some HTML, in document order. */
const outline = (html: string) => [...html.matchAll(/<(h[1-6])\b/g)].map((m) => m[1]);
/** The main part of a visitor page (the article), without the head's <title>. */
const main = (html: string) => html.slice(html.indexOf("<main"), html.indexOf("</main>"));

async function save(s: StaffSession, articleId: number, elements: unknown[]) {
  const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
  return s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], ...elements] });
}

describe("the heading element", () => {
  it("is saved with its defaults, and a bad one is refused with its field (400), never a 500", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    const saved = await save(s, articleId, [
      { type: "heading", content: "Annexe" },
      { type: "heading", level: 3, content: "Détail ‮ 👩‍👩‍👧" },
    ]);
    expect(saved.status).toBe(200);
    const stored = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[] };
    expect(stored.content.slice(1)).toEqual([
      { type: "heading", level: 2, content: "Annexe", color: "#ffffff", align: "left" },
      { type: "heading", level: 3, content: "Détail ‮ 👩‍👩‍👧", color: "#ffffff", align: "left" },
    ]);

    const cases: [unknown, string, string][] = [
      [{ type: "heading", level: 4, content: "x" }, "newContent.1.level", "invalid"],
      [{ type: "heading", level: "2", content: "x" }, "newContent.1.level", "invalid"],
      [{ type: "heading", content: "x".repeat(301) }, "newContent.1.content", "too_long"],
      [{ type: "heading", content: "deux\nlignes" }, "newContent.1.content", "invalid"],
      [{ type: "heading", content: ["x"] }, "newContent.1.content", "wrong_type"],
      [{ type: "accordion", details: [{ type: "heading", content: "x" }] }, "newContent.1.details.0.type", "invalid"],
    ];
    for (const [element, field, reason] of cases) {
      const refused = await save(s, articleId, [element]);
      expect(refused.status, JSON.stringify(element)).toBe(400);
      expect(refused.body.error).toMatchObject({ field, reason });
    }
    // Nothing refused was stored.
    expect(((await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[] }).content).toEqual(stored.content);
  });

  it("reaches the visitor page as <h2>/<h3> under the <h1>, translated into German, in the document's order", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, ELEMENTS);

    const original = main(await (await get(`/r/${link}?lang=fr`)).text());
    expect(outline(original)).toEqual(["h1", "h2", "h3"]);
    expect(original).toContain('<h2 class="ml-heading ml-heading--2" style="color:#ffffff;text-align:start">Le naufrage</h2>');
    expect(original).toContain('<h3 class="ml-heading ml-heading--3" style="color:#ffffff;text-align:center">Les survivants</h3>');

    const german = await (await get(`/r/${link}?lang=de`)).text();
    expect(german).toMatch(/<html lang="de" dir="ltr">/);
    const body = main(german);
    expect(outline(body)).toEqual(["h1", "h2", "h3"]);
    expect(body).toContain(`<h1 class="ml-title">${de("Le Radeau de la Méduse")}</h1>`);
    expect(body).toContain(`>${de("Le naufrage")}</h2>`);
    expect(body).toContain(`>${de("Les survivants")}</h3>`);
    expect(body.indexOf(de("Le naufrage"))).toBeLessThan(body.indexOf(de("En 1816, la frégate Méduse échoue.")));
    expect(body.indexOf(de("En 1816, la frégate Méduse échoue."))).toBeLessThan(body.indexOf(de("Les survivants")));

    // Served again from the cached rendering: the same headings.
    const again = main(await (await get(`/r/${link}?lang=de`)).text());
    expect(again).toBe(body);

    // Right to left: the alignment is logical, the page's direction flips.
    const arabic = await (await get(`/r/${link}?lang=ar`)).text();
    expect(arabic).toMatch(/<html lang="ar" dir="rtl">/);
    expect(main(arabic)).toContain('text-align:center">');
    expect(outline(main(arabic))).toEqual(["h1", "h2", "h3"]);
  });

  it("an article opening with a heading: a hidden <h1> (the museum), then the heading as <h2>, its text the tab's title", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, [
      { type: "heading", level: 3, content: "Salle des marines" },
      { type: "text", content: "Quatre tableaux." },
    ]);
    const html = await (await get(`/r/${link}?lang=fr`)).text();
    expect(outline(main(html))).toEqual(["h1", "h2"]);
    expect(main(html)).toContain(`<h1 class="ml-visually-hidden">Museum ${s.user.museumSlug}</h1>`);
    expect(main(html)).toContain('<h2 class="ml-heading ml-heading--3"');
    expect(html).toContain(`<title>Salle des marines – Museum ${s.user.museumSlug}</title>`);
  });

  it("is one segment of kind heading on the review page and in the XLIFF export (2.0 and 1.2)", async () => {
    const s = await staffSession();
    const { articleId, link } = await publishArticle(s, ELEMENTS);
    await get(`/r/${link}?lang=de`);

    const review = await s.read(`/api/read/translation?articleId=${articleId}&lang=de`);
    expect(review.status).toBe(200);
    const segments = (review.body as { segments: { id: string; kind: string; source: string; text: string | null }[] }).segments;
    expect(segments.map((x) => [x.id, x.kind, x.source])).toEqual([
      ["e1.content.0", "text", "Le Radeau de la Méduse"],
      ["e1.content.1", "text", "Géricault, 1819."],
      ["e2.content.0", "heading", "Le naufrage"],
      ["e3.content.0", "text", "En 1816, la frégate Méduse échoue."],
      ["e4.content.0", "heading", "Les survivants"],
      ["e5.content.0", "text", "Quinze hommes."],
    ]);
    expect(segments[2]!.text).toBe(de("Le naufrage"));

    // A correction of the heading reaches visitors.
    const fixed = await s.call("update_translation", { articleId, lang: "de", segmentId: "e2.content.0", text: "Der Schiffbruch" });
    expect(fixed.status).toBe(200);
    expect(fixed.body.segment).toMatchObject({ id: "e2.content.0", kind: "heading", origin: "edited" });
    expect(main(await (await get(`/r/${link}?lang=de`)).text())).toContain(">Der Schiffbruch</h2>");

    const v2 = await (await get(`/api/read/xliff?articleId=${articleId}&lang=de`, s.cookie)).text();
    const unit = v2.slice(v2.search(/<unit id="a\d+\.e2\.content\.0"/), v2.indexOf("</unit>", v2.search(/<unit id="a\d+\.e2\.content\.0"/)));
    // Notes in the museum's language (decision 109).
    expect(unit).toContain(`<note category="kind">titre</note>`);
    expect(unit).toContain("<source>Le naufrage</source>");
    expect(unit).toContain("<target>Der Schiffbruch</target>");
    expect(v2.match(/<note category="kind">titre<\/note>/g)).toHaveLength(2);
    const v1 = await (await get(`/api/read/xliff?articleId=${articleId}&lang=de&version=1.2`, s.cookie)).text();
    expect(v1.match(/<note from="muselingo" annotates="general">type: titre<\/note>/g)).toHaveLength(2);
  });

  it("another museum cannot read or save the article (404 as for any article)", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const { articleId } = await publishArticle(s, ELEMENTS);
    expect((await other.read(`/api/read/translation?articleId=${articleId}&lang=de`)).status).toBe(404);
    expect((await other.call("update_article", { articleId, version: 1, newContent: [{ type: "metadatas", url: "x" }, ELEMENTS[1]] })).status).toBe(404);
    expect((await get(`/api/read/xliff?articleId=${articleId}&lang=de`, other.cookie)).status).toBe(404);
  });

  it("50 identical saves at once: one wins, the others are told the version is stale; the heading is stored once", async () => {
    const s = await staffSession();
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
    const body = { articleId, version: current.version, newContent: [current.content[0], { type: "heading", content: "Une fois" }] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => s.call("update_article", body)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(49);
    const stored = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
    expect(stored.version).toBe(current.version + 1);
    expect(stored.content).toHaveLength(2);
  });

  it("the museum archive carries headings into another museum, which shows them", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, ELEMENTS);
    const bytes = await exportMuseum(s.cookie);

    const b = await staffSession();
    const imported = await importMuseum(b.cookie, bytes);
    expect(imported.status, await imported.clone().text()).toBe(200);
    const row = await env.DB.prepare("SELECT content, published_content FROM articles WHERE museum_id = ?")
      .bind(b.user.museumId)
      .first<{ content: string; published_content: string }>();
    const content = JSON.parse(row!.published_content) as { type: string; level?: number; content?: string }[];
    expect(content.filter((e) => e.type === "heading").map((e) => [e.level, e.content])).toEqual([
      [2, "Le naufrage"],
      [3, "Les survivants"],
    ]);
    const codes = (await b.read("/api/read/qrcodes")).body as { qrcodes?: { link: string }[] } | { link: string }[];
    const list = Array.isArray(codes) ? codes : (codes.qrcodes ?? []);
    const newLink = list[0]?.link ?? link;
    const page = main(await (await get(`/r/${newLink}?lang=fr`)).text());
    expect(outline(page)).toEqual(["h1", "h2", "h3"]);
    expect(page).toContain(">Le naufrage</h2>");
  });

  it("the spreadsheet import reads an article holding headings (dry run and apply by its address), no 500", async () => {
    const s = await staffSession();
    const { articleId } = await publishArticle(s, ELEMENTS);
    const slug = ((await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: { url: string }[] }).content[0]!.url;
    const sheet = new File([`Nom;Adresse;Texte\r\nRadeau;${slug};Nouveau texte`], "cartels.csv", { type: "text/csv" });
    const send = async (dryRun: boolean) => {
      const form = new FormData();
      form.append("file", sheet, "cartels.csv");
      const response = await SELF.fetch(`${BASE}/api/manage/import_articles?dryRun=${dryRun}`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
      return { status: response.status, body: (await response.json()) as { rows: { action: string; articleId?: number }[] } };
    };
    const dry = await send(true);
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.rows).toMatchObject([{ action: "update", articleId }]);
    const applied = await send(false);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.rows).toMatchObject([{ action: "update", articleId }]);
  });
});
