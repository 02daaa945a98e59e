// The visitor pages as static HTML (DESIGN §6): rendered on the server, never hydrated, no bundle. One
// request gives a phone everything it needs to read: the CSS is inline and the only script is the small
// inline one of `script.ts`.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import contentCss from "~/content/content.css?raw";
import { ArticleContentView, articleBackground, type MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { findLanguage, LANGUAGES, type Language } from "~/translation/languages";
import type { TranslationStatus } from "~/translation/translate.server";
import { VISITOR_SCRIPT } from "./script";
import type { VisitorStrings } from "./strings.server";
import visitorCss from "./visitor.css?raw";

/** Comments and layout whitespace out: the stylesheet rides in every page. */
export function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\s+/g, " ")
    .replace(/\s*([{};,>])\s*/g, "$1")
    .replace(/;}/g, "}")
    .trim();
}

const STYLES = minifyCss(`${contentCss}\n${visitorCss}`);

export function direction(lang: string): "ltr" | "rtl" {
  return findLanguage(lang)?.dir ?? "ltr";
}

function endonym(lang: string): string {
  return findLanguage(lang)?.endonym ?? lang;
}

interface ShellProps {
  lang: string;
  /** Absolute address search engines should index for this page. */
  canonical?: string;
  title: string;
  description: string;
  nonce?: string;
  background?: string;
  bodyClass?: string;
  script?: boolean;
  children: ReactNode;
}

function Shell({ lang, canonical, title, description, nonce, background, bodyClass, script, children }: ShellProps) {
  return (
    <html lang={lang} dir={direction(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {canonical && <link rel="canonical" href={canonical} />}
        <meta name="theme-color" content={background ?? "#341539"} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <style dangerouslySetInnerHTML={{ __html: STYLES }} />
      </head>
      <body className={bodyClass} style={background ? { backgroundColor: background } : undefined}>
        {children}
        {script && <script nonce={nonce} dangerouslySetInnerHTML={{ __html: VISITOR_SCRIPT }} />}
      </body>
    </html>
  );
}

/** Drawn rather than an emoji: not every phone has an emoji font. */
function GlobeIcon() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="12" cy="12" r="10" />
      <path d="M2 12h20M12 2a15 15 0 0 1 0 20a15 15 0 0 1 0-20" />
    </svg>
  );
}

/** Static markup of a part of a page (the article's content, cached with its translation). */
export function renderFragment(element: ReactNode): string {
  return renderToStaticMarkup(element);
}

/** The renderer's interface words from the visitor strings. */
export function contentLabels(strings: VisitorStrings) {
  return { opensInNewTab: strings.opensInNewTab, videoUnsupported: strings.videoUnsupported, subtitles: strings.subtitles };
}

/** A complete HTML document from a visitor page element. */
export function renderDocument(element: ReactNode): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(element)}`;
}

/** The interface's language on an element, when it differs from the page's (strings fell back to English). */
function uiLang(stringsLang: string, pageLang: string) {
  return stringsLang === pageLang ? {} : { lang: stringsLang, dir: direction(stringsLang) };
}

function firstText(content: ArticleContent): string {
  for (const element of content) {
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
}

function statusLabel(props: ArticlePageProps): string {
  const { strings, status, engines } = props;
  if (props.showingOriginal || status === "original") return strings.original;
  if (status === "failed") return strings.original;
  if (status === "reviewed") return strings.reviewed;
  return engines.includes("pseudo") ? strings.pseudo : strings.machine;
}

function href(base: string, keep: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params);
  if (keep) for (const [k, v] of new URLSearchParams(keep)) query.set(k, v);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

export function ArticlePage(props: ArticlePageProps) {
  const { strings, content, lang, visitorLang, sourceLang, base, keep, status } = props;
  const background = articleBackground(content);
  const first = firstText(content);
  const ui = uiLang(props.stringsLang, lang);
  const translated = status === "machine" || status === "reviewed";
  const canToggle = visitorLang !== sourceLang && status !== "failed";
  return (
    <Shell
      lang={lang}
      canonical={props.canonical}
      title={first ? `${clip(first, 60)} – ${props.museumName}` : props.museumName}
      description={clip(first || props.museumName, 155)}
      nonce={props.nonce}
      background={background}
      script
    >
      <header className="v-bar" {...ui}>
        <p className="v-museum">{props.museumName}</p>
      </header>
      <main id="article" className="v-main ml-surface" style={{ backgroundColor: background }}>
        <p className="v-status" {...ui}>
          <span className="v-label">{statusLabel(props)}</span>
          {canToggle && (
            <a href={props.showingOriginal || !translated ? href(base, keep, { lang: visitorLang }) : href(base, keep, { lang: visitorLang, original: "1" })}>
              {props.showingOriginal ? strings.showTranslation : `${strings.showOriginal} (${endonym(sourceLang)})`}
            </a>
          )}
        </p>
        {status === "failed" && (
          <p className="v-notice" role="status" {...ui}>
            {props.strings.failed}
          </p>
        )}
        {props.contentHtml !== undefined ? (
          <div id="v-text" dangerouslySetInnerHTML={{ __html: props.contentHtml }} />
        ) : (
          <div id="v-text">
            <ArticleContentView content={content} lang={lang} media={props.media} labels={contentLabels(strings)} />
          </div>
        )}
      </main>
      <footer className="v-footer" {...ui}>
        <a className="v-button" href={href(`${base}/languages`, keep, { lang: visitorLang })}>
          <GlobeIcon />
          <span>
            {strings.language}: <span lang={visitorLang}>{endonym(visitorLang)}</span>
          </span>
        </a>
        <button type="button" id="v-read" className="v-button v-button--light" hidden data-lang={lang} data-read={strings.readAloud} data-stop={strings.stopReading} aria-pressed="false">
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

export function NotLinkedPage({ museumName, strings, lang, stringsLang, base, nonce }: { museumName: string; strings: VisitorStrings; lang: string; stringsLang: string; base: string; nonce?: string }) {
  return (
    <Shell lang={stringsLang} title={`${strings.notLinkedTitle} – ${museumName}`} description={strings.notLinkedBody} nonce={nonce} bodyClass="v-page">
      <header className="v-bar">
        <p className="v-museum">{museumName}</p>
      </header>
      <main className="v-main">
        <h1>{strings.notLinkedTitle}</h1>
        <p>{strings.notLinkedBody}</p>
      </main>
      <footer className="v-footer">
        <a className="v-button" href={href(`${base}/languages`, "", { lang })}>
          <GlobeIcon />
          <span>
            {strings.language}: <span lang={lang}>{endonym(lang)}</span>
          </span>
        </a>
      </footer>
    </Shell>
  );
}

export function VisitorNotFoundPage({ strings, lang }: { strings: VisitorStrings; lang: string }) {
  return (
    <Shell lang={lang} title={strings.notFoundTitle} description={strings.notFoundBody} bodyClass="v-page">
      <main className="v-main">
        <h1>{strings.notFoundTitle}</h1>
        <p>{strings.notFoundBody}</p>
        <p>
          <a href="/">{strings.home}</a>
        </p>
      </main>
    </Shell>
  );
}

/** Lowercase, accents removed: what the language search compares (the inline script does the same). */
export function searchKey(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
}

function languageNames(language: Language): string {
  return searchKey([language.endonym, language.en, language.fr, language.code].join(" "));
}

export interface LanguagesPageProps {
  museumName: string;
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  likely: readonly string[];
  query: string;
  base: string;
  keep: string;
  nonce?: string;
}

function LanguageItem({ language, current, base, keep }: { language: Language; current: string; base: string; keep: string }) {
  const other = language.en !== language.endonym ? language.en : "";
  return (
    <li data-names={languageNames(language)}>
      <a href={href(base, keep, { lang: language.code })} aria-current={language.code === current ? "true" : undefined}>
        <span className="v-endonym" lang={language.code} dir={language.dir}>
          {language.endonym}
        </span>
        {other && (
          <span className="v-exonym" lang="en" dir="ltr">
            {other}
          </span>
        )}
      </a>
    </li>
  );
}

/** Every catalogue language by its own name, the likely ones first; a GET search works without JavaScript. */
export function LanguagesPage(props: LanguagesPageProps) {
  const { strings, lang, base, keep } = props;
  const key = searchKey(props.query);
  const matches = (language: Language) => key === "" || languageNames(language).includes(key);
  const likely = props.likely.map((code) => findLanguage(code)).filter((l): l is Language => l !== undefined && matches(l));
  const all = [...LANGUAGES].filter(matches).sort((a, b) => a.endonym.localeCompare(b.endonym, "en"));
  return (
    <Shell lang={props.stringsLang} title={`${strings.chooseLanguage} – ${props.museumName}`} description={strings.chooseLanguage} nonce={props.nonce} bodyClass="v-page" script>
      <header className="v-bar">
        <p className="v-museum">{props.museumName}</p>
      </header>
      <main className="v-main">
        <p>
          <a href={href(base, keep, { lang })}>{strings.backToArticle}</a>
        </p>
        <h1>{strings.chooseLanguage}</h1>
        <form className="v-search" method="get" action={`${base}/languages`} role="search">
          <label htmlFor="v-q">{strings.search}</label>
          <input type="hidden" name="lang" value={lang} />
          {keep && [...new URLSearchParams(keep)].map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
          <input id="v-q" type="search" name="q" defaultValue={props.query} autoComplete="off" />
          <button type="submit" className="v-button">
            {strings.searchButton}
          </button>
        </form>
        {likely.length > 0 && key === "" && (
          <>
            <h2>{strings.suggested}</h2>
            <ul className="v-langs">
              {likely.map((language) => (
                <LanguageItem key={language.code} language={language} current={lang} base={base} keep={keep} />
              ))}
            </ul>
          </>
        )}
        <h2>{key === "" ? strings.allLanguages : strings.searchResults}</h2>
        <p id="v-none" className="v-none" role="status" hidden={all.length > 0}>
          {strings.noMatch}
        </p>
        <ul className="v-langs">
          {all.map((language) => (
            <LanguageItem key={language.code} language={language} current={lang} base={base} keep={keep} />
          ))}
        </ul>
      </main>
    </Shell>
  );
}

function ReportForm({ strings, base, keep, lang, message = "", error }: { strings: VisitorStrings; base: string; keep: string; lang: string; message?: string; error?: string }) {
  return (
    <form className="v-form" method="post" action={href(`${base}/report`, keep, {})}>
      <input type="hidden" name="lang" value={lang} />
      <label htmlFor="v-message">{strings.reportLabel}</label>
      <p id="v-message-help" className="v-help">
        {strings.reportHelp}
      </p>
      {error && (
        <p id="v-message-error" className="v-error" role="alert">
          {error}
        </p>
      )}
      <textarea
        id="v-message"
        name="message"
        maxLength={500}
        required
        defaultValue={message}
        aria-describedby={error ? "v-message-help v-message-error" : "v-message-help"}
        aria-invalid={error ? "true" : undefined}
      />
      <button type="submit" className="v-button">
        {strings.reportSend}
      </button>
    </form>
  );
}

export interface ReportPageProps {
  museumName: string;
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  base: string;
  keep: string;
  state: { kind: "form"; message?: string; error?: string } | { kind: "thanks" };
}

/** The report form on its own page (with the error that sent the visitor back), or the thank-you. */
export function ReportPage({ museumName, strings, stringsLang, lang, base, keep, state }: ReportPageProps) {
  const title = state.kind === "thanks" ? strings.reportThanksTitle : strings.reportProblem;
  return (
    <Shell lang={stringsLang} title={`${title} – ${museumName}`} description={strings.reportProblem} bodyClass="v-page">
      <header className="v-bar">
        <p className="v-museum">{museumName}</p>
      </header>
      <main className="v-main">
        <h1>{title}</h1>
        {state.kind === "thanks" ? (
          <p role="status">{strings.reportThanksBody}</p>
        ) : (
          <ReportForm strings={strings} base={base} keep={keep} lang={lang} message={state.message} error={state.error} />
        )}
        <p>
          <a href={href(base, keep, { lang })}>{strings.backToArticle}</a>
        </p>
      </main>
    </Shell>
  );
}
