import { ArticleContentView, type MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { glossaryFor } from "~/translation/glossary";
import { translateArticle, type TranslatedArticle } from "~/translation/translate.server";
import { usableContentHtml } from "../pages/article";
import { contentLabels, renderFragment } from "../pages/shell";
import { visitorStrings } from "../strings.server";
import type { PageWords } from "./model";
import type { ShownText } from "./text";
import type { Visit } from "./visit.server";

/** The shown text in the page's language, and what rendering it needs. */
export interface TranslatedText {
  translated: TranslatedArticle;
  /** The page's language: the visitor's when the text is translated (machine or reviewed), else the museum's. */
  lang: string;
  /** The content's rendering cached with its translation, when usable; else the page renders `content`. */
  html?: string;
  /** What rendering the content now needs (image sizes, translated subtitles); nothing when `html` is used. */
  media: MediaInfo;
}

/** The interface's words in the visitor's language (decision 033): started first, awaited by those that need them. */
export function interfaceWords(visit: Pick<Visit, "deps" | "choice">): Promise<PageWords> {
  return visitorStrings(visit.deps, visit.choice.lang);
}

/**
 * The shown text in the visitor's language: as written when the visitor asked for the original, else through
 * the translation cache, memory and engines. A translation's rendering is cached with it, unless its labels
 * fell back to English or the page is a draft preview (whose translation is cached by content all the same).
 */
export async function translateText(visit: Visit, text: ShownText, words: Promise<PageWords>): Promise<TranslatedText> {
  const { museum } = visit.target;
  const lang = visit.choice.lang;
  const sizes: MediaInfo["sizes"] = new Map(Object.entries(visit.target.images));
  const mediaFor = (to: string): MediaInfo => ({
    sizes,
    subtitles: to === museum.sourceLang ? undefined : (src) => `/vtt?${new URLSearchParams({ src, lang: to })}`,
  });
  const render = async (content: ArticleContent) => {
    const ui = await words;
    if (ui.lang !== lang) return undefined;
    return visit.context.timing.rendering(() =>
      renderFragment(<ArticleContentView content={content} lang={lang} media={mediaFor(lang)} labels={contentLabels(ui.strings)} heading />),
    );
  };
  const translated: TranslatedArticle = text.showingOriginal
    ? { content: text.shown.content, status: "original", engines: [] }
    : await translateArticle(visit.deps, text.shown, museum.sourceLang, lang, {
        variant: text.easy ? "easy" : undefined,
        render: visit.draftPreview ? undefined : render,
        glossary: glossaryFor(visit.target.glossary, lang),
      });
  const pageLang = translated.status === "machine" || translated.status === "reviewed" ? lang : museum.sourceLang;
  const html = usableContentHtml(translated.html, translated.content);
  return { translated, lang: pageLang, html, media: html === undefined ? mediaFor(pageLang) : {} };
}
