// The frame every visitor page shares (DESIGN §6): static HTML rendered on the server, never hydrated, no
// bundle. One request gives a phone everything it needs to read: the CSS is inline (Vite's `?inline`
// import, minified by the build) and the only script is the small inline one of `script.ts`.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import contentCss from "~/content/content.css?inline";
import { findLanguage } from "~/translation/languages";
import { displayClasses, type DisplayChoices } from "../display/choices";
import displayCss from "../display/display.css?inline";
import { VISITOR_SCRIPT } from "../script";
import type { VisitorStrings } from "../strings.server";
import { withColon } from "../typography";
import visitorCss from "../visitor.css?inline";

const STYLES = `${contentCss}${visitorCss}${displayCss}`;

export function direction(lang: string): "ltr" | "rtl" {
  return findLanguage(lang)?.dir ?? "ltr";
}

export function endonym(lang: string): string {
  return findLanguage(lang)?.endonym ?? lang;
}

/** A link to `base` with `params`, keeping the extra query of staff previews (`keep`). */
export function href(base: string, keep: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params);
  if (keep) for (const [k, v] of new URLSearchParams(keep)) query.set(k, v);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

/** The interface's language on an element, when it differs from the page's (strings fell back to English). */
export function uiLang(stringsLang: string, pageLang: string) {
  return stringsLang === pageLang ? {} : { lang: stringsLang, dir: direction(stringsLang) };
}

/** The renderer's interface words from the visitor strings. */
export function contentLabels(strings: VisitorStrings) {
  return { opensInNewTab: strings.opensInNewTab, videoUnsupported: strings.videoUnsupported, subtitles: strings.subtitles };
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
  /** `noindex` for pages search engines must not keep (a draft preview, an article not available yet). */
  robots?: string;
  children: ReactNode;
}

export function Shell({ lang, canonical, title, description, nonce, background, bodyClass, script, robots, children }: ShellProps) {
  // The visitor's display choices (decision 097) go on <html> in renderDocument, outside any cached rendering
  // of the content, and without a hook: the page is rendered with React's static renderer only.
  return (
    <html lang={lang} dir={direction(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={description} />
        {canonical && <link rel="canonical" href={canonical} />}
        {robots && <meta name="robots" content={robots} />}
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

/** The bar above a page: the museum's name, or the product's on a page that belongs to no museum. */
export function MuseumBar({ name, ...ui }: { name: string; lang?: string; dir?: "ltr" | "rtl" }) {
  return (
    <header className="v-bar" {...ui}>
      <p className="v-museum">{name}</p>
    </header>
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

/** "Language: Deutsch", leading to the picker; the same button on every visitor page. */
export function LanguageButton({
  strings,
  stringsLang,
  lang,
  base,
  keep = "",
}: {
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  base: string;
  keep?: string;
}) {
  return (
    <a className="v-button" href={href(`${base}/languages`, keep, { lang })}>
      <GlobeIcon />
      <span>
        {withColon(strings.language, stringsLang)} <span lang={lang}>{endonym(lang)}</span>
      </span>
    </a>
  );
}

/** Static markup of a part of a page (the article's content, cached with its translation). */
export function renderFragment(element: ReactNode): string {
  return renderToStaticMarkup(element);
}

/** A complete HTML document from a visitor page element, with the visitor's display choices when given. */
export function renderDocument(element: ReactNode, display?: DisplayChoices): string {
  const html = renderToStaticMarkup(element);
  const classes = display ? displayClasses(display) : "";
  // The classes are fixed words (v-text-1, v-contrast, …), never visitor text: nothing to escape.
  const end = classes && html.startsWith("<html ") ? html.indexOf(">") : -1;
  return `<!DOCTYPE html>${end > 0 ? `${html.slice(0, end)} class="${classes}"${html.slice(end)}` : html}`;
}
