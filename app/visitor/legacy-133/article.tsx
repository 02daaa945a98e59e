// A frozen copy of app/visitor/pages/article.tsx before issue 31 §2 (decision 133), for the before/after HTML comparison only.
import { ArticleContentView, articleBackground, headingIndex, headingText, type MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import type { TranslationStatus } from "~/translation/translate.server";
import type { PlayableNarration } from "~/narration/narrations.server";
import { NarrationPlayer } from "~/visitor/narration/player";
import type { VisitorStrings } from "~/visitor/strings.server";
import type { TourStopPlace } from "~/visitor/place.server";
import { TourStopBar, TourStopLinks } from "~/visitor/tour/nav";
import { DisplayLink } from "~/visitor/display/link";
import { EasyReadSwitch } from "~/visitor/easy-read/switch";
import { ReportForm } from "~/visitor/pages/report";
import { contentLabels, endonym, href, LanguageButton, MuseumBar, Shell, uiLang } from "~/visitor/pages/shell";

/** The article's name as visitors know it: the first line of its first text (its `<h1>`), or "". */
export function articleTitle(content: ArticleContent): string {
  const element = content[headingIndex(content)];
  if (element?.type !== "text") return "";
  return (
    element.content
      .replace(/\r\n?/g, "\n")
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? ""
  );
}

/** The first line of text anywhere (a heading or a legend too), for the description of an article without a name. */
function firstText(content: ArticleContent): string {
  for (const element of content) {
    if (headingText(element) !== "") return headingText(element);
    if (element.type === "text" || element.type === "legendItem") {
      const line = element.content.split(/\n/).find((l) => l.trim() !== "");
      if (line) return line.trim();
    }
  }
  return "";
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The rendered content (cached with a translation) is used only if it carries the page's heading: a
 * rendering cached before the heading existed is made again from the cached content.
 */
export function usableContentHtml(html: string | undefined, content: ArticleContent): string | undefined {
  if (html === undefined) return undefined;
  return headingIndex(content) === -1 || html.includes('class="ml-title"') ? html : undefined;
}

export interface ArticlePageProps {
  museumName: string;
  /** The page's language: the translation's, or the source's when showing the original. */
  lang: string;
  /** The language the visitor reads in (the translation's, even while the original shows). */
  visitorLang: string;
  sourceLang: string;
  strings: VisitorStrings;
  stringsLang: string;
  content: ArticleContent;
  /** The content already rendered (from the cache); else `content` is rendered now. */
  contentHtml?: string;
  status: TranslationStatus;
  engines: readonly string[];
  /** The page's own path (`/r/{link}` or `/v/{museum}/{slug}`), without query. */
  base: string;
  /** Extra query kept on every link (`ignoreStats=true` for staff previews). */
  keep: string;
  showingOriginal: boolean;
  media: MediaInfo;
  canonical?: string;
  nonce?: string;
  /** A staff preview of the draft (decision 041): a banner says so and search engines are kept out. */
  draftPreview?: boolean;
  /** The narration in the page's language (issue 22), if one is ready; else the read-aloud button stays. */
  narration?: PlayableNarration | null;
  /** Opened as a stop of a tour: "Stop 3 of 12", the tour's name, previous and next (issue 21). */
  tourStop?: TourStopPlace;
  /** The article has an approved easy-to-read version (decision 096): whether it shows, and the link to the other. */
  easyRead?: { on: boolean; href: string };
  /** The address the display choices page comes back to (decision 097); no link when absent. */
  displayBack?: string;
}

function statusLabel(props: ArticlePageProps): string {
  const { strings, status, engines } = props;
  if (props.showingOriginal || status === "original" || status === "failed") return strings.original;
  if (status === "reviewed") return strings.reviewed;
  return engines.includes("pseudo") ? strings.pseudo : strings.machine;
}

/** The visitor page of an article: its content (its first line the `<h1>`), status, language, report. */
export function ArticlePage(props: ArticlePageProps) {
  const { strings, content, lang, visitorLang, sourceLang, base, keep, status } = props;
  const background = articleBackground(content);
  const title = articleTitle(content);
  // An article opening with a heading element has no name of its own (decision 074): its tab shows that heading.
  const tabTitle = title || content.map(headingText).find((line) => line !== "") || "";
  const ui = uiLang(props.stringsLang, lang);
  const translated = status === "machine" || status === "reviewed";
  const canToggle = visitorLang !== sourceLang && status !== "failed";
  return (
    <Shell
      lang={lang}
      canonical={props.canonical}
      title={tabTitle ? `${clip(tabTitle, 60)} – ${props.museumName}` : props.museumName}
      description={clip(title || firstText(content) || props.museumName, 155)}
      nonce={props.nonce}
      background={background}
      script
      robots={props.draftPreview ? "noindex, nofollow" : undefined}
    >
      {props.draftPreview && (
        <p className="v-draft" role="note" {...ui}>
          {strings.draftPreview}
        </p>
      )}
      <MuseumBar name={props.museumName} {...ui} />
      {props.tourStop && <TourStopBar stop={props.tourStop} strings={strings} keep={keep} ui={ui} pageLang={lang} />}
      <main id="article" className="v-main ml-surface" style={{ backgroundColor: background }}>
        <p className="v-status" {...ui}>
          <span className="v-label">{statusLabel(props)}</span>
          {canToggle && (
            <a href={props.showingOriginal || !translated ? href(base, keep, { lang: visitorLang }) : href(base, keep, { lang: visitorLang, original: "1" })}>
              {props.showingOriginal ? strings.showTranslation : `${strings.showOriginal} (${endonym(sourceLang)})`}
            </a>
          )}
        </p>
        {props.easyRead && <EasyReadSwitch on={props.easyRead.on} href={props.easyRead.href} strings={strings} ui={ui} />}
        {status === "failed" && (
          <p className="v-notice" role="status" {...ui}>
            {strings.failed}
          </p>
        )}
        {props.narration ? <NarrationPlayer narration={props.narration} label={strings.listen} ui={ui} /> : null}
        {/* An article without text still has a heading, for screen readers: the museum's name. */}
        {!title && <h1 className="ml-visually-hidden">{props.museumName}</h1>}
        {props.contentHtml !== undefined ? (
          <div id="v-text" dangerouslySetInnerHTML={{ __html: props.contentHtml }} />
        ) : (
          <div id="v-text">
            <ArticleContentView content={content} lang={lang} media={props.media} labels={contentLabels(strings)} heading />
          </div>
        )}
      </main>
      {props.tourStop && <TourStopLinks stop={props.tourStop} strings={strings} keep={keep} ui={ui} />}
      <footer className="v-footer" {...ui}>
        <LanguageButton strings={strings} stringsLang={props.stringsLang} lang={visitorLang} base={base} keep={keep} />
        {props.displayBack && <DisplayLink strings={strings} back={props.displayBack} />}
        {/* Hidden until the script finds a voice, and, beside a narration, only when this browser cannot play it (decision 119). */}
        <button
          type="button"
          id="v-read"
          className="v-button v-button--light"
          hidden
          data-lang={lang}
          data-read={strings.readAloud}
          data-stop={strings.stopReading}
          aria-pressed="false"
        >
          {strings.readAloud}
        </button>
        {translated && !props.showingOriginal && (
          <details className="v-report">
            <summary>{strings.reportProblem}</summary>
            <ReportForm strings={strings} base={base} keep={keep} lang={visitorLang} />
          </details>
        )}
      </footer>
    </Shell>
  );
}
