import { ArticleContentView, articleBackground, headingIndex, headingText } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import type { ArticlePageModel } from "../article/model";
import { NarrationPlayer } from "../narration/player";
import { TourStopBar, TourStopLinks } from "../tour/nav";
import { DisplayLink } from "../display/link";
import { EasyReadSwitch } from "../easy-read/switch";
import { ReportForm } from "./report";
import { AskForm } from "~/questions/pages";
import { contentLabels, endonym, href, LanguageButton, MuseumBar, Shell, uiLang } from "./shell";

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

function statusLabel({ words, text }: ArticlePageModel): string {
  const { strings } = words;
  const { status, engines } = text;
  if (text.showingOriginal || status === "original" || status === "failed") return strings.original;
  if (status === "reviewed") return strings.reviewed;
  return engines.includes("pseudo") ? strings.pseudo : strings.machine;
}

/** The visitor page of an article from its page model: its content (its first line the `<h1>`), status, language, report. */
export function ArticlePage({ model }: { model: ArticlePageModel }) {
  const { museum, words, frame, text } = model;
  const { strings } = words;
  const { content, status } = text;
  const { lang, visitorLang, base, keep } = frame;
  const background = articleBackground(content);
  const title = articleTitle(content);
  // An article opening with a heading element has no name of its own (decision 074): its tab shows that heading.
  const tabTitle = title || content.map(headingText).find((line) => line !== "") || "";
  const ui = uiLang(words.lang, lang);
  const translated = status === "machine" || status === "reviewed";
  const canToggle = visitorLang !== museum.sourceLang && status !== "failed";
  return (
    <Shell
      lang={lang}
      canonical={frame.canonical}
      title={tabTitle ? `${clip(tabTitle, 60)} – ${museum.name}` : museum.name}
      description={clip(title || firstText(content) || museum.name, 155)}
      nonce={frame.nonce}
      background={background}
      script
      robots={frame.draftPreview ? "noindex, nofollow" : undefined}
    >
      {frame.draftPreview && (
        <p className="v-draft" role="note" {...ui}>
          {strings.draftPreview}
        </p>
      )}
      <MuseumBar name={museum.name} {...ui} />
      {model.tourStop && <TourStopBar stop={model.tourStop} strings={strings} keep={keep} ui={ui} pageLang={lang} />}
      <main id="article" className="v-main ml-surface" style={{ backgroundColor: background }}>
        <p className="v-status" {...ui}>
          <span className="v-label">{statusLabel(model)}</span>
          {canToggle && (
            <a href={text.showingOriginal || !translated ? href(base, keep, { lang: visitorLang }) : href(base, keep, { lang: visitorLang, original: "1" })}>
              {text.showingOriginal ? strings.showTranslation : `${strings.showOriginal} (${endonym(museum.sourceLang)})`}
            </a>
          )}
        </p>
        {model.easyRead && <EasyReadSwitch on={model.easyRead.on} href={model.easyRead.href} strings={strings} ui={ui} />}
        {status === "failed" && (
          <p className="v-notice" role="status" {...ui}>
            {strings.failed}
          </p>
        )}
        {model.narration ? <NarrationPlayer narration={model.narration} label={strings.listen} ui={ui} /> : null}
        {/* An article without text still has a heading, for screen readers: the museum's name. */}
        {!title && <h1 className="ml-visually-hidden">{museum.name}</h1>}
        {text.html !== undefined ? (
          <div id="v-text" dangerouslySetInnerHTML={{ __html: text.html }} />
        ) : (
          <div id="v-text">
            <ArticleContentView content={content} lang={lang} media={text.media} labels={contentLabels(strings)} heading />
          </div>
        )}
      </main>
      {/* Asking is for the published text: no form in a staff preview of a draft, nor where questions are off (decision 151). */}
      {frame.asking && <AskForm strings={strings} base={base} keep={keep} lang={visitorLang} ui={ui} />}
      {model.tourStop && <TourStopLinks stop={model.tourStop} strings={strings} keep={keep} ui={ui} />}
      <footer className="v-footer" {...ui}>
        <LanguageButton strings={strings} stringsLang={words.lang} lang={visitorLang} base={base} keep={keep} />
        {frame.displayBack && <DisplayLink strings={strings} back={frame.displayBack} />}
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
        {translated && !text.showingOriginal && (
          <details className="v-report">
            <summary>{strings.reportProblem}</summary>
            <ReportForm strings={strings} base={base} keep={keep} lang={visitorLang} />
          </details>
        )}
      </footer>
    </Shell>
  );
}
