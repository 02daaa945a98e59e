// The heading element (issue 20 §1, decision 074): its content model, its mending on read, its
// rendering in the document outline, its translation segments and its place in the history diff.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { HEADING_MAX_LENGTH } from "~/content/defaults";
import { ArticleContentView, headingIndex, headingTags } from "~/content/render";
import { articleContentSchema, contentElementSchema, newElement, parseStoredContent, type ArticleContent, type ContentElement } from "~/content/schema";
import { elementFields } from "~/publishing/diff";
import { articleCatalogue } from "~/translation/catalogue.server";
import { mapSegments, segmentEntries } from "~/translation/segments";
import { zodToDomainError } from "~/utils/zod-error";
import { articleTitle, ArticlePage } from "~/visitor/pages/article";
import type { ArticlePageModel } from "~/visitor/article/model";
import { writtenStrings } from "~/visitor/strings.server";

const META = { type: "metadatas", url: "salle-2", backgroundColor: "#341539" } as const;

function refusal(input: unknown[]) {
  const parsed = articleContentSchema.safeParse([META, ...input]);
  if (parsed.success) return null;
  const error = zodToDomainError(parsed.error);
  return { field: error.field, reason: error.reason };
}

const parse = (elements: unknown[]): ArticleContent => articleContentSchema.parse([META, ...elements]);

function view(elements: unknown[], heading = false): string {
  const content = [META, ...elements] as ContentElement[];
  return renderToStaticMarkup(createElement(ArticleContentView, { content, heading }));
}

/** The tags h1–h6 of some HTML, in document order. */
const outline = (html: string) => [...html.matchAll(/<(h[1-6])\b/g)].map((m) => m[1]);

describe("heading: content model", () => {
  it("a new heading is an empty level 2, left-aligned, in the text colour", () => {
    expect(newElement("heading")).toEqual({ type: "heading", level: 2, content: "", color: "#ffffff", align: "left" });
  });

  it("accepts levels 2 and 3, and fills the defaults of a bare heading", () => {
    const [, two, three, bare] = parse([
      { type: "heading", level: 2, content: "Les origines" },
      { type: "heading", level: 3, content: "Le chantier", color: "#abc", align: "right" },
      { type: "heading" },
    ]);
    expect(two).toEqual({ type: "heading", level: 2, content: "Les origines", color: "#ffffff", align: "left" });
    expect(three).toEqual({ type: "heading", level: 3, content: "Le chantier", color: "#abc", align: "right" });
    expect(bare).toEqual(newElement("heading"));
  });

  it.each([1, 4, 0, -2, 2.5, "2", null, true, Number.NaN])("refuses level %s with the field named", (level) => {
    expect(refusal([{ type: "heading", level, content: "x" }])).toEqual({ field: "1.level", reason: "invalid" });
  });

  it("refuses a heading longer than the limit, counted in UTF-16 code units like every text", () => {
    expect(refusal([{ type: "heading", content: "é".repeat(HEADING_MAX_LENGTH) }])).toBeNull();
    expect(refusal([{ type: "heading", content: "é".repeat(HEADING_MAX_LENGTH + 1) }])).toEqual({ field: "1.content", reason: "too_long" });
  });

  it.each(["Ligne\nDeux", "Ligne\r\nDeux", "Ligne\rDeux", "Ligne\u2028Deux", "Ligne\u2029Deux"])("refuses a line break in a heading (%j)", (content) => {
    expect(refusal([{ type: "heading", content }])).toEqual({ field: "1.content", reason: "invalid" });
  });

  it("refuses wrong types and colours, and keeps odd Unicode as it is", () => {
    expect(refusal([{ type: "heading", content: 42 }])).toEqual({ field: "1.content", reason: "wrong_type" });
    expect(refusal([{ type: "heading", content: "x", color: "red" }])).toEqual({ field: "1.color", reason: "invalid" });
    expect(refusal([{ type: "heading", content: "x", align: "justify" }])).toEqual({ field: "1.align", reason: "invalid" });
    const odd = "‮مرحبا 👩‍👩‍👧 e\u0301 \u200b<script>";
    expect(parse([{ type: "heading", content: odd }])[1]).toMatchObject({ content: odd });
  });

  it("is not allowed inside an accordion (its header is that part's title)", () => {
    expect(refusal([{ type: "accordion", details: [{ type: "heading", content: "x" }] }])).toMatchObject({ field: "1.details.0.type", reason: "invalid" });
  });

  it("stored headings are read back as they are, and damaged ones are mended rather than dropped", () => {
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const clean = [META, { type: "heading", level: 3, content: "Intact", color: "#ffffff", align: "center" }];
    expect(parseStoredContent(JSON.stringify(clean))).toEqual(clean);
    const damaged = parseStoredContent(
      JSON.stringify([
        META,
        { type: "heading", level: 7, content: "  Deux\r\n lignes  " },
        { type: "heading", level: "3", content: "x".repeat(HEADING_MAX_LENGTH + 50), color: "blue" },
        { type: "heading", level: 0, content: 5 },
        {
          type: "accordion",
          details: [
            { type: "heading", content: "caché" },
            { type: "text", content: "gardé" },
          ],
        },
      ]),
    );
    expect(damaged[1]).toEqual({ type: "heading", level: 3, content: "Deux lignes", color: "#ffffff", align: "left" });
    expect(damaged[2]).toMatchObject({ level: 3, content: "x".repeat(HEADING_MAX_LENGTH), color: "#ffffff" });
    expect(damaged[3]).toEqual(newElement("heading"));
    expect(damaged[4]).toMatchObject({ type: "accordion", details: [{ type: "text", content: "gardé" }] });
  });

  it("is accepted by the element schema alone (the archive and the API use the same)", () => {
    expect(contentElementSchema.safeParse({ type: "heading", level: 3, content: "Annexe" }).success).toBe(true);
  });
});

describe("heading: rendering", () => {
  it("renders <h2>/<h3> with its classes, colour and logical alignment, the text escaped", () => {
    const html = view([
      { type: "heading", level: 2, content: "Les <b>origines</b>", color: "#ffffff", align: "center" },
      { type: "heading", level: 3, content: "Le chantier", color: "#f2b705", align: "right" },
    ]);
    expect(html).toContain('<h2 class="ml-heading ml-heading--2" style="color:#ffffff;text-align:center">Les &lt;b&gt;origines&lt;/b&gt;</h2>');
    expect(html).toContain('<h3 class="ml-heading ml-heading--3" style="color:#f2b705;text-align:end">Le chantier</h3>');
  });

  it("an empty or blank heading renders nothing, and a damaged one renders its text on one line", () => {
    expect(
      view([
        { type: "heading", level: 2, content: "" },
        { type: "heading", level: 3, content: " \u00a0 " },
      ]),
    ).toBe('<div class="ml-content"></div>');
    expect(view([{ type: "heading", level: 2, content: "A\n  B" }])).toContain(">A B</h2>");
  });

  it("an unreadable colour is replaced (the page's background is dark purple)", () => {
    expect(view([{ type: "heading", level: 2, content: "x", color: "#341539" }])).toContain('style="color:#ffffff;');
  });

  it("keeps the outline without skips: a level 3 with no level 2 before it is an <h2> styled as a 3", () => {
    const html = view([
      { type: "heading", level: 3, content: "Sous-partie orpheline" },
      { type: "heading", level: 2, content: "Partie" },
      { type: "heading", level: 3, content: "Sous-partie" },
      { type: "heading", level: 3, content: "" },
      { type: "heading", level: 3, content: "Autre sous-partie" },
    ]);
    expect(outline(html)).toEqual(["h2", "h2", "h3", "h3"]);
    expect(html).toContain('<h2 class="ml-heading ml-heading--3"');
    const content = parse([
      { type: "heading", level: 3, content: "a" },
      { type: "heading", level: 3, content: "b" },
    ]);
    expect([...headingTags(content)]).toEqual([
      [1, "h2"],
      [2, "h3"],
    ]);
  });

  it("the page's <h1> (first line of the first text) comes before every heading", () => {
    const titled = [
      { type: "text", content: "Le Radeau de la Méduse\nGéricault, 1819" },
      { type: "heading", level: 2, content: "Le naufrage" },
      { type: "text", content: "En 1816…" },
      { type: "heading", level: 3, content: "Les survivants" },
    ];
    expect(outline(view(titled, true))).toEqual(["h1", "h2", "h3"]);
    expect(articleTitle(parse(titled))).toBe("Le Radeau de la Méduse");
  });

  it("an article opening with a heading has no text title: the heading stays an h2 under the page's hidden h1", () => {
    const opening = [
      { type: "heading", level: 2, content: "Le naufrage" },
      { type: "text", content: "En 1816, la frégate…" },
    ];
    expect(headingIndex(parse(opening))).toBe(-1);
    expect(outline(view(opening, true))).toEqual(["h2"]);
    expect(articleTitle(parse(opening))).toBe("");
    // An empty heading before the text does not take the name away.
    expect(
      headingIndex(
        parse([
          { type: "heading", content: "" },
          { type: "text", content: "Titre" },
        ]),
      ),
    ).toBe(2);
  });

  it("the visitor page: hidden <h1> with the museum's name first, the heading as the tab's title", async () => {
    const content = parse([
      { type: "heading", level: 3, content: "Le naufrage" },
      { type: "text", content: "En 1816…" },
    ]);
    const strings = writtenStrings("fr")!;
    const model: ArticlePageModel = {
      museum: { name: "Musée de la Marine", sourceLang: "fr" },
      words: { strings, lang: "fr" },
      frame: { lang: "fr", visitorLang: "fr", base: "/r/abc", keep: "", asking: true },
      text: { content, status: "original", engines: [], showingOriginal: false, media: {} },
      narration: null,
    };
    const html = renderToStaticMarkup(createElement(ArticlePage, { model }));
    // The article's heading, then the form under it: "Ask a question about this work" (decision 151).
    expect(outline(html)).toEqual(["h1", "h2", "h2"]);
    expect(html).toContain('<h2 id="v-ask-title">Poser une question sur cette œuvre</h2>');
    expect(html).toContain('<h1 class="ml-visually-hidden">Musée de la Marine</h1>');
    expect(html).toContain("<title>Le naufrage – Musée de la Marine</title>");
  });
});

describe("heading: translation", () => {
  const content = parse([
    { type: "text", content: "Titre" },
    { type: "heading", level: 2, content: "  Le naufrage  " },
    { type: "accordion", header: { content: "Plus" }, details: [{ type: "text", content: "Détail" }] },
  ]);

  it("its text is one segment with the id e{index}.content.0, spaces outside", () => {
    expect(segmentEntries(content)).toEqual([
      { id: "e1.content.0", source: "Titre" },
      { id: "e2.content.0", source: "Le naufrage" },
      { id: "e3.header.0", source: "Plus" },
      { id: "e3.d0.content.0", source: "Détail" },
    ]);
    const translated = mapSegments(content, (segment) => `[${segment}]`);
    expect(translated[2]).toEqual({ ...content[2], content: "  [Le naufrage]  " });
  });

  it("the catalogue says its kind is heading (XLIFF notes and the review page read it)", async () => {
    const entries = await articleCatalogue(content, async () => null);
    expect(entries.map((entry) => [entry.id, entry.kind])).toEqual([
      ["e1.content.0", "text"],
      ["e2.content.0", "heading"],
      ["e3.header.0", "accordion-header"],
      ["e3.d0.content.0", "text"],
    ]);
  });

  it("the history shows its text, its level, colour and alignment", () => {
    expect(elementFields(content[2]!)).toEqual([
      { name: "content", kind: "text", value: "  Le naufrage  " },
      { name: "level", kind: "value", value: "2" },
      { name: "color", kind: "value", value: "#ffffff" },
      { name: "align", kind: "value", value: "left" },
    ]);
  });
});
