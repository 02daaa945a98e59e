// The steps of an article's visitor page that decide without I/O (issue 31 §2, decision 133): the text shown,
// the page model, the answer's headers; the page rendered from its model. The steps that read KV, D1, the
// engines or the queue are tested against the real local bindings (tests/integration/visitor-steps.test.ts).
import type { AppLoadContext } from "@remix-run/cloudflare";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { parseStoredContent, type ArticleContent } from "~/content/schema";
import type { VisitorArticle } from "~/models/visitor.server";
import { pageModel, type ArticlePageModel, type ModelAsk, type PageWords } from "~/visitor/article/model";
import { renderPage, respond } from "~/visitor/article/respond.server";
import { chooseText, type TextAsk } from "~/visitor/article/text";
import type { TranslatedText } from "~/visitor/article/translation.server";
import { ArticlePage } from "~/visitor/pages/article";
import { DEFAULT_DISPLAY } from "~/visitor/display/choices";
import { writtenStrings } from "~/visitor/strings.server";
import { RequestTiming } from "~/visitor-cache/timing";

const content = (lines: string[]): ArticleContent =>
  parseStoredContent(JSON.stringify([{ type: "metadatas" }, ...lines.map((line) => ({ type: "text", content: line }))]));
const ARTICLE: VisitorArticle = { id: 7, slug: "amphore", name: "amphore", content: content(["L'amphore", "Vers 530."]) };
const EASY = content(["L'amphore", "▸ Un vase."]);
const museum = { id: 3, name: "Musée des vases", slug: "vases", sourceLang: "fr", suspendedAt: null };

function ask(url: string, fields: Partial<TextAsk> & { cookie?: string } = {}): TextAsk {
  const request = new Request(url, { headers: fields.cookie ? { Cookie: fields.cookie } : {} });
  return { request, url: new URL(url), target: { museum, easyRead: EASY }, choice: { lang: "de" }, draftPreview: false, ...fields };
}

describe("chooseText: which text shows", () => {
  it("the article's, unless the visitor chose the approved easy-to-read version (query or cookie)", () => {
    expect(chooseText(ask("http://x/r/a"), ARTICLE)).toMatchObject({ easy: false, shown: { id: 7, museumId: 3, content: ARTICLE.content } });
    const asked = chooseText(ask("http://x/r/a?easy=1"), ARTICLE);
    expect(asked).toMatchObject({ easy: true, easyContent: EASY, shown: { content: EASY } });
    expect(asked.easyChoice.setCookie).toMatch(/^muselingo_easy=1;/);
    expect(chooseText(ask("http://x/r/a", { cookie: "muselingo_easy=1" }), ARTICLE)).toMatchObject({ easy: true, easyChoice: { on: true } });
    // Leaving it: the full text, and the cookie cleared.
    const left = chooseText(ask("http://x/r/a?easy=0", { cookie: "muselingo_easy=1" }), ARTICLE);
    expect(left).toMatchObject({ easy: false, shown: { content: ARTICLE.content } });
    expect(left.easyChoice.setCookie).toContain("Max-Age=0");
  });

  it("never the easy version in a draft preview, nor where none is approved; malformed choices are no choice", () => {
    expect(chooseText(ask("http://x/r/a?easy=1", { draftPreview: true }), ARTICLE)).toMatchObject({ easy: false, easyContent: null });
    expect(chooseText(ask("http://x/r/a?easy=1", { target: { museum } }), ARTICLE)).toMatchObject({ easy: false, easyContent: null });
    for (const odd of ["?easy=2", "?easy=", "?easy=%E0%A4%A", "?easy=1%00", "?easy=١"]) {
      expect(chooseText(ask(`http://x/r/a${odd}`), ARTICLE)).toMatchObject({ easy: false, easyChoice: { on: false } });
    }
    expect(chooseText(ask("http://x/r/a", { cookie: "muselingo_easy=%" }), ARTICLE).easy).toBe(false);
  });

  it("the original only when asked for (`original=1`) in a language other than the museum's", () => {
    expect(chooseText(ask("http://x/r/a?original=1"), ARTICLE).showingOriginal).toBe(true);
    expect(chooseText(ask("http://x/r/a?original=1", { choice: { lang: "fr" } }), ARTICLE).showingOriginal).toBe(false);
    expect(chooseText(ask("http://x/r/a?original=true"), ARTICLE).showingOriginal).toBe(false);
  });
});

const words: PageWords = { strings: writtenStrings("en")!, lang: "en" };

function modelAsk(url: string, fields: Partial<ModelAsk> = {}): ModelAsk {
  return {
    url: new URL(url),
    target: { museum, article: ARTICLE, qrcodeId: 1, glossary: [], images: {}, easyRead: EASY },
    place: { base: "/r/abcd", scannable: true },
    choice: { lang: "en", chosen: true },
    keep: "",
    draftPreview: false,
    context: { cspNonce: "n0nce" },
    ...fields,
  };
}

const translatedText = (status: TranslatedText["translated"]["status"], lang: string): TranslatedText => ({
  translated: { content: ARTICLE.content, status, engines: status === "machine" ? ["pseudo"] : [] },
  lang,
  media: {},
});

describe("pageModel: the page's parts from what the steps decided", () => {
  it("the canonical address names the language of a translation, never of the original", () => {
    const text = chooseText(ask("http://x/r/abcd"), ARTICLE);
    const translated = pageModel(modelAsk("http://x/r/abcd?lang=en"), ARTICLE, text, words, translatedText("machine", "en"), null);
    expect(translated.frame).toMatchObject({ lang: "en", visitorLang: "en", base: "/r/abcd", canonical: "http://x/v/vases/amphore?lang=en", nonce: "n0nce" });
    expect(translated.frame.displayBack).toBe("/r/abcd?lang=en");
    const original = pageModel(modelAsk("http://x/r/abcd"), ARTICLE, text, words, translatedText("original", "fr"), null);
    expect(original.frame.canonical).toBe("http://x/v/vases/amphore");
    // Addresses that need escaping stay one path segment each.
    const odd = pageModel(
      modelAsk("http://x/r/abcd", { target: { ...modelAsk("http://x").target, museum: { ...museum, slug: "a/b ?é" } } }),
      { slug: "x#y" },
      text,
      words,
      translatedText("original", "fr"),
      null,
    );
    expect(odd.frame.canonical).toBe("http://x/v/a%2Fb%20%3F%C3%A9/x%23y");
  });

  it("the easy-to-read switch leads to the other version, keeping a staff preview's query; absent without a version", () => {
    const on = chooseText(ask("http://x/r/abcd?easy=1"), ARTICLE);
    const model = pageModel(modelAsk("http://x/r/abcd?easy=1", { keep: "ignoreStats=true" }), ARTICLE, on, words, translatedText("machine", "en"), null);
    expect(model.easyRead).toEqual({ on: true, href: "/r/abcd?lang=en&easy=0&ignoreStats=true" });
    const none = chooseText(ask("http://x/r/abcd?easy=1", { target: { museum } }), ARTICLE);
    expect(pageModel(modelAsk("http://x/r/abcd"), ARTICLE, none, words, translatedText("machine", "en"), null).easyRead).toBeUndefined();
  });
});

describe("respond: the answer", () => {
  const visit = (fields: { draftPreview?: boolean; setCookie?: string } = {}) => ({
    context: { timing: new RequestTiming(), cspNonce: "n0nce" } as unknown as AppLoadContext,
    display: { ...DEFAULT_DISPLAY, contrast: true },
    choice: { lang: "en", chosen: true, setCookie: fields.setCookie },
    draftPreview: fields.draftPreview ?? false,
  });

  function model(): ArticlePageModel {
    const text = chooseText(ask("http://x/r/abcd"), ARTICLE);
    return pageModel(modelAsk("http://x/r/abcd?lang=en"), ARTICLE, text, words, translatedText("machine", "en"), null);
  }

  it("HTML with the display choices, the cookies of choices made now, revalidated; render time counted", async () => {
    const v = visit({ setCookie: "muselingo_lang=en; Path=/" });
    const response = respond(v, { easyChoice: { on: true, setCookie: "muselingo_easy=1; Path=/" } }, renderPage(v, model()));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(response.headers.getSetCookie()).toEqual(["muselingo_lang=en; Path=/", "muselingo_easy=1; Path=/"]);
    expect(response.headers.get("X-Robots-Tag")).toBeNull();
    const html = await response.text();
    expect(html.startsWith('<!DOCTYPE html><html lang="en" dir="ltr" class="v-contrast"')).toBe(true);
    expect(html).toContain('<link rel="canonical" href="http://x/v/vases/amphore?lang=en"/>');
    expect(v.context.timing.render.ms).toBeGreaterThanOrEqual(0);
  });

  it("a draft preview: private, never stored, out of search engines; no cookie when nothing was chosen", () => {
    const v = visit({ draftPreview: true });
    const response = respond(v, { easyChoice: { on: false } }, renderPage(v, model()));
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(response.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe("ArticlePage renders its model", () => {
  it("right to left for Arabic, the report form only under a translation, the original's toggle", () => {
    const text = chooseText(ask("http://x/r/abcd"), ARTICLE);
    const arabic = pageModel(
      modelAsk("http://x/r/abcd?lang=ar", { choice: { lang: "ar", chosen: true } }),
      ARTICLE,
      text,
      words,
      translatedText("machine", "ar"),
      null,
    );
    const html = renderToStaticMarkup(createElement(ArticlePage, { model: arabic }));
    expect(html).toMatch(/^<html lang="ar" dir="rtl">/);
    // The interface fell back to English: its elements say so.
    expect(html).toContain('<header class="v-bar" lang="en" dir="ltr">');
    expect(html).toContain('class="v-report"');
    expect(html).toContain('href="/r/abcd?lang=ar&amp;original=1"');
    const original = { ...arabic, text: { ...arabic.text, showingOriginal: true } };
    const shown = renderToStaticMarkup(createElement(ArticlePage, { model: original }));
    expect(shown).not.toContain('class="v-report"');
    expect(shown).toContain('href="/r/abcd?lang=ar"');
  });
});
