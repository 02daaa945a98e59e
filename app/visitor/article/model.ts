// The typed page model of an article's visitor page (issue 31 §2, decision 133): what the steps of
// `page.server.tsx` decide, in named parts, and all that `ArticlePage` renders. A new capability adds its
// own part here (and its step), instead of another optional prop in a flat list.
import type { MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import type { PlayableNarration } from "~/narration/narrations.server";
import type { TranslationStatus } from "~/translation/translate.server";
import type { VisitorArticle } from "~/models/visitor.server";
import { href } from "../pages/shell";
import type { TourStopPlace } from "../place.server";
import type { VisitorStrings } from "../strings.server";
import type { ShownText } from "./text";
import type { TranslatedText } from "./translation.server";
import type { Visit } from "./visit.server";

/** The interface's words and the language they are in (English when the visitor's could not be had). */
export interface PageWords {
  strings: VisitorStrings;
  lang: string;
}

/** Where the page lives and what frames it. */
export interface PageFrame {
  /** The page's language: the translation's, or the source's when showing the original. */
  lang: string;
  /** The language the visitor reads in (the translation's, even while the original shows). */
  visitorLang: string;
  /** The page's own path (`/r/{link}`, `/v/{museum}/{slug}`, `/t/{link}/{n}`), without query. */
  base: string;
  /** Extra query kept on every link (`ignoreStats=true` for staff previews). */
  keep: string;
  /** Absolute address search engines should index for this page. */
  canonical?: string;
  nonce?: string;
  /** A staff preview of the draft (decision 041): a banner says so and search engines are kept out. */
  draftPreview?: boolean;
  /** The address the display choices page comes back to (decision 097); no link when absent. */
  displayBack?: string;
  /** The form for visitors' questions shows (decision 151): not in a draft preview, nor where questions are off. */
  asking?: boolean;
}

/** The text the page shows: the article (or its easy-to-read version) as translated, or as written. */
export interface PageText {
  content: ArticleContent;
  /** The content already rendered (from the cache); else `content` is rendered now. */
  html?: string;
  media: MediaInfo;
  status: TranslationStatus;
  engines: readonly string[];
  /** The visitor asked for the original (`?original=1`) while reading another language. */
  showingOriginal: boolean;
}

export interface ArticlePageModel {
  museum: { name: string; sourceLang: string };
  words: PageWords;
  frame: PageFrame;
  text: PageText;
  /** The narration in the page's language (issue 22), if one is ready; else the read-aloud button stays. */
  narration: PlayableNarration | null;
  /** Opened as a stop of a tour: "Stop 3 of 12", the tour's name, previous and next (issue 21). */
  tourStop?: TourStopPlace;
  /** The article has an approved easy-to-read version (decision 096): whether it shows, and the link to the other. */
  easyRead?: { on: boolean; href: string };
}

/** What the model step reads of the visit. */
export type ModelAsk = Pick<Visit, "url" | "target" | "place" | "choice" | "keep" | "draftPreview" | "tourStop"> & {
  context: { cspNonce?: string };
  /** The deployment's monthly bound on answers (QUESTIONS_MONTHLY); 0 turns questions off everywhere. */
  questionsMonthly?: number;
};

/** The last step before rendering: the page model from what the steps decided. */
export function pageModel(
  visit: ModelAsk,
  article: Pick<VisitorArticle, "slug">,
  text: ShownText,
  words: PageWords,
  translated: TranslatedText,
  narration: PlayableNarration | null,
): ArticlePageModel {
  const { museum } = visit.target;
  const { url, place, keep, choice } = visit;
  const { status } = translated.translated;
  return {
    museum: { name: museum.name, sourceLang: museum.sourceLang },
    words,
    frame: {
      lang: translated.lang,
      visitorLang: choice.lang,
      base: place.base,
      keep,
      canonical: `${url.origin}/v/${encodeURIComponent(museum.slug)}/${encodeURIComponent(article.slug)}${status === "original" ? "" : `?lang=${translated.lang}`}`,
      nonce: visit.context.cspNonce,
      draftPreview: visit.draftPreview,
      displayBack: `${place.base}${url.search}`,
      asking: !visit.draftPreview && museum.questionsMonthly !== 0 && visit.questionsMonthly !== 0,
    },
    text: {
      content: translated.translated.content,
      html: translated.html,
      media: translated.media,
      status,
      engines: translated.translated.engines,
      showingOriginal: text.showingOriginal,
    },
    narration,
    tourStop: visit.tourStop,
    easyRead: text.easyContent ? { on: text.easy, href: href(place.base, keep, { lang: choice.lang, easy: text.easy ? "0" : "1" }) } : undefined,
  };
}
