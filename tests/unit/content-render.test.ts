import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArticleContentView, ArticleSurface, type ContentLabels } from "~/content/render";
import { newElement, type ContentElement } from "~/content/schema";

const META: ContentElement = { type: "metadatas", url: "salle-1", backgroundColor: "#112233" };

function render(elements: unknown[], labels?: ContentLabels, lang?: string): string {
  // Stored data is not trusted by the renderer, so tests may hand it what the types would refuse.
  const content = [META, ...elements] as ContentElement[];
  return renderToStaticMarkup(createElement(ArticleContentView, { content, labels, lang }));
}

const inner = (html: string) => html.replace(/^<div class="ml-content">|<\/div>$/g, "");

describe("ArticleContentView", () => {
  it("renders nothing for metadatas and for empty new elements", () => {
    expect(render([])).toBe('<div class="ml-content"></div>');
    expect(inner(render([newElement("text"), newElement("image"), newElement("video"), newElement("link"), newElement("legendItem")]))).toBe("");
  });

  it("text: paragraphs, line breaks, styles, size, justify and align", () => {
    const html = render([
      {
        ...newElement("text"),
        content: "Ligne 1\nLigne 2\n\nParagraphe <b>2</b>",
        fontSize: 20,
        bold: true,
        italic: true,
        color: "#abc",
        size: 60,
        justify: "center",
        align: "right",
      },
    ]);
    expect(html).toContain('<div class="ml-row" style="justify-content:center"><div class="ml-item ml-fill" style="max-width:60%">');
    expect(html).toContain('<div class="ml-text" style="font-size:20px;font-weight:700;font-style:italic;color:#abc;text-align:end">');
    expect(html).toContain("<p>Ligne 1<br/>Ligne 2</p><p>Paragraphe &lt;b&gt;2&lt;/b&gt;</p>");
  });

  it("text: default style has no weight or style and a white colour", () => {
    expect(render([{ ...newElement("text"), content: "Bonjour" }])).toContain('style="font-size:16px;color:#ffffff;text-align:start"><p>Bonjour</p>');
  });

  it("image: alt, lazy loading, async decoding, size", () => {
    const html = render([{ ...newElement("image"), src: "/media/abc.jpg", alt: "La Joconde", size: 50, justify: "flex-end" }]);
    expect(html).toContain('style="justify-content:flex-end"');
    expect(html).toContain('style="max-width:50%"');
    expect(html).toContain('<img class="ml-media" src="/media/abc.jpg" alt="La Joconde" loading="lazy" decoding="async"/>');
  });

  it("video: controls, metadata preload, subtitles track when present", () => {
    const video = { ...newElement("video"), src: "/media/v.mp4" };
    const bare = render([video]);
    expect(bare).toContain('<video class="ml-media" src="/media/v.mp4" controls="" preload="metadata" playsinline="">');
    expect(bare).not.toContain("<track");
    const subtitled = render([{ ...video, subtitles: "/media/v.vtt" }], { subtitles: "Sous-titres", videoUnsupported: "Vidéo non lisible" }, "fr");
    expect(subtitled).toContain('<track kind="subtitles" src="/media/v.vtt" srcLang="fr" label="Sous-titres" default=""/>Vidéo non lisible</video>');
  });

  it("space: an empty aria-hidden block of the given height", () => {
    expect(inner(render([{ type: "space", size: 72 }]))).toBe('<div class="ml-space" aria-hidden="true" style="height:72px"></div>');
  });

  it("link: new tab, noopener noreferrer, optional image, hidden new-tab notice", () => {
    const html = render([{ ...newElement("link"), link: "https://musee.example/expo", content: "L'exposition", src: "/media/logo.png", color: "#ffcc00" }], {
      opensInNewTab: "s'ouvre dans un nouvel onglet",
    });
    expect(html).toContain('<a class="ml-link" href="https://musee.example/expo" target="_blank" rel="noopener noreferrer">');
    expect(html).toContain('<img class="ml-link-image" src="/media/logo.png" alt="" loading="lazy" decoding="async"/>');
    expect(html).toContain('<span style="font-size:16px;color:#ffcc00">L&#x27;exposition</span>');
    expect(html).toContain('<span class="ml-visually-hidden"> (s&#x27;ouvre dans un nouvel onglet)</span></a>');
  });

  it("link: without a label shows the address; mailto and tel open in place", () => {
    expect(render([{ ...newElement("link"), link: "https://musee.example/" }])).toContain(">musee.example</span></a>");
    const mail = render([{ ...newElement("link"), link: "mailto:accueil@musee.fr" }]);
    expect(mail).toContain('<a class="ml-link" href="mailto:accueil@musee.fr" rel="noopener noreferrer">');
    expect(mail).toContain(">accueil@musee.fr</span>");
  });

  it("link: bad stored addresses never become an href", () => {
    for (const link of ["javascript:alert(1)", " javascript:alert(1)", "java\nscript:alert(1)", "data:text/html,x", "vbscript:x", "/relative", 42]) {
      const html = render([{ ...newElement("link"), link, content: "Cliquez" }]);
      expect(html, String(link)).not.toContain("href");
      expect(html, String(link)).not.toMatch(/javascript|data:|vbscript/);
      expect(html, String(link)).toContain('<span class="ml-link"><span style="font-size:16px;color:#ffffff">Cliquez</span></span>');
    }
  });

  it("media: bad stored sources are not rendered", () => {
    const html = render([
      { ...newElement("image"), src: "javascript:alert(1)" },
      { ...newElement("image"), src: "http://insecure.example/a.png" },
      { ...newElement("video"), src: "data:video/mp4;base64,AAAA" },
      { ...newElement("video"), src: "/media/v.mp4", subtitles: "javascript:x" },
    ]);
    expect(html).not.toMatch(/javascript|data:|insecure/);
    expect(html).toContain('src="/media/v.mp4"');
    expect(html).not.toContain("<track");
  });

  it("legendItem: image then text, or text then image for flex-end", () => {
    const legend = { ...newElement("legendItem"), src: "/media/amphore.jpg", alt: "Amphore", content: "Amphore romaine", width: 40 };
    const first = render([legend]);
    expect(first).toContain(
      '<figure class="ml-legend"><div class="ml-legend-image" style="width:40%"><img class="ml-media" src="/media/amphore.jpg" alt="Amphore" loading="lazy" decoding="async"/></div><figcaption class="ml-text" style="font-size:16px;color:#ffffff"><p>Amphore romaine</p></figcaption></figure>',
    );
    const last = render([{ ...legend, justify: "flex-end" }]);
    expect(last.indexOf("<figcaption")).toBeLessThan(last.indexOf("<img"));
  });

  it("accordion: native details and summary holding its details", () => {
    const accordion = {
      ...newElement("accordion"),
      header: { content: "En savoir plus", fontSize: 18, bold: true, italic: false, color: "#eeeeee" },
      details: [
        { ...newElement("text"), content: "Caché" },
        { type: "space", size: 10 },
      ],
    };
    expect(inner(render([accordion]))).toBe(
      '<details class="ml-accordion"><summary style="font-size:18px;font-weight:700;color:#eeeeee">En savoir plus</summary><div class="ml-accordion-body">' +
        '<div class="ml-row" style="justify-content:flex-start"><div class="ml-item ml-fill" style="max-width:100%"><div class="ml-text" style="font-size:16px;color:#ffffff;text-align:start"><p>Caché</p></div></div></div>' +
        '<div class="ml-space" aria-hidden="true" style="height:10px"></div></div></details>',
    );
  });

  it("accordion: stored nested accordions and videos are skipped", () => {
    const html = render([{ ...newElement("accordion"), details: [newElement("accordion"), { ...newElement("video"), src: "/media/v.mp4" }] }]);
    expect(html.match(/<details/g)).toHaveLength(1);
    expect(html).not.toContain("<video");
  });

  it("stored nonsense in styles falls back to safe values", () => {
    const html = render(
      [
        {
          type: "text",
          content: "x",
          fontSize: 1e6,
          color: "red;background:url(https://evil.example)",
          size: -5,
          justify: "space-between;x",
          align: "justify",
        },
        { type: "space", size: "100px" },
        { type: "iframe", src: "https://evil.example" },
        null,
      ].filter(Boolean),
    );
    expect(html).not.toContain("evil");
    expect(html).toContain('style="justify-content:flex-start"');
    expect(html).toContain('style="max-width:1%"');
    expect(html).toContain("font-size:100px;color:#ffffff;text-align:start");
    expect(html).toContain("height:40px");
  });
});

describe("ArticleSurface", () => {
  const surface = (content: ContentElement[], extra: object = {}) =>
    renderToStaticMarkup(createElement(ArticleSurface, { content, ...extra, children: createElement("p", null, "x") }));

  it("takes the background colour from metadatas", () => {
    expect(surface([META])).toBe('<div class="ml-surface" style="background-color:#112233"><p>x</p></div>');
  });

  it("falls back to the default purple, and sets language and direction", () => {
    expect(surface([], { lang: "ar", dir: "rtl" })).toBe('<div class="ml-surface" style="background-color:#341539" lang="ar" dir="rtl"><p>x</p></div>');
    expect(surface([{ ...META, backgroundColor: "url(x)" }])).toContain("background-color:#341539");
  });
});
