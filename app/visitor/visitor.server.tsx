import type { AppLoadContext } from "@remix-run/cloudflare";
import { isbot } from "isbot";
import type { ReactElement } from "react";
import type { MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { imageSizes, type VisitorTarget } from "~/models/visitor.server";
import { sendScanEvent } from "~/queue/scan-event";
import { translationDeps } from "~/translation/deps.server";
import { negotiateLanguage } from "~/translation/languages";
import { translateArticle, type TranslatedArticle } from "~/translation/translate.server";
import { ArticleContentView } from "~/content/render";
import { ArticlePage, contentLabels, LanguagesPage, NotLinkedPage, renderDocument, renderFragment, VisitorNotFoundPage } from "./document";
import { chooseLanguage, likelyLanguages } from "./language.server";
import { visitorStrings, writtenStrings } from "./strings.server";

/** Where the page lives and whether opening it counts (`/r/` scans, `/v/` previews). */
export interface VisitorPlace {
  /** The page's path, without query: `/r/{link}` or `/v/{museum}/{slug}`. */
  base: string;
  /** Opening it without `?lang=` is a scan of a printed code. */
  scannable: boolean;
}

function html(body: string, status: number, headers: Record<string, string | undefined> = {}): Response {
  const out = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    // Personal to the visitor's language choice; always revalidated so an edit shows at once.
    "Cache-Control": "private, no-cache",
    Vary: "Accept-Language, Cookie",
  });
  for (const [name, value] of Object.entries(headers)) if (value) out.set(name, value);
  return new Response(body, { status, headers: out });
}

/** Staff previews carry `ignoreStats=true` on every link of the page, so browsing them is never counted. */
function ignoresStats(url: URL): boolean {
  return url.searchParams.get("ignoreStats") === "true";
}

/** The 404 page for an address that leads nowhere, in French or English (no museum, no engine). */
export function visitorNotFound(request: Request): Response {
  const lang = negotiateLanguage(request.headers.get("Accept-Language"), ["fr", "en"]) ?? "fr";
  return html(renderDocument(<VisitorNotFoundPage strings={writtenStrings(lang)!} lang={lang} />), 404);
}

function collectSrcs(content: ArticleContent): string[] {
  const srcs: string[] = [];
  const visit = (element: { type: string; src?: string; details?: unknown }) => {
    if (typeof element.src === "string" && element.src !== "") srcs.push(element.src);
    if (Array.isArray(element.details)) element.details.forEach(visit);
  };
  content.forEach(visit);
  return srcs;
}

function render(element: ReactElement, setCookie?: string): Response {
  return html(renderDocument(element), 200, { "Set-Cookie": setCookie });
}

/** The visitor page of an article, a code that leads nowhere yet, or the 404 page. */
export async function visitorPage(request: Request, context: AppLoadContext, target: VisitorTarget | null, place: VisitorPlace): Promise<Response> {
  if (!target) return visitorNotFound(request);
  const url = new URL(request.url);
  const { museum, article } = target;
  const choice = chooseLanguage(request, museum.sourceLang);
  const deps = translationDeps(context);
  const keep = ignoresStats(url) ? "ignoreStats=true" : "";
  const nonce = context.cspNonce;

  if (!article) {
    const { strings, lang } = await visitorStrings(deps, museum.id, choice.lang);
    return render(<NotLinkedPage museumName={museum.name} strings={strings} lang={choice.lang} stringsLang={lang} base={place.base} nonce={nonce} />, choice.setCookie);
  }

  const showingOriginal = url.searchParams.get("original") === "1" && choice.lang !== museum.sourceLang;
  const uiPromise = visitorStrings(deps, museum.id, choice.lang);
  let sizes: Promise<MediaInfo["sizes"]> | undefined;
  const mediaFor = async (lang: string): Promise<MediaInfo> => ({
    sizes: await (sizes ??= imageSizes(context.db, museum.id, collectSrcs(article.content))),
    subtitles: lang === museum.sourceLang ? undefined : (src) => `/vtt?${new URLSearchParams({ src, lang })}`,
  });
  // A translation's rendering is cached with it, unless its labels fell back to English.
  const renderContent = async (content: ArticleContent) => {
    const ui = await uiPromise;
    if (ui.lang !== choice.lang) return undefined;
    return renderFragment(<ArticleContentView content={content} lang={choice.lang} media={await mediaFor(choice.lang)} labels={contentLabels(ui.strings)} />);
  };
  const translated: TranslatedArticle = showingOriginal
    ? { content: article.content, status: "original", engines: [] }
    : await translateArticle(deps, { id: article.id, museumId: museum.id, content: article.content }, museum.sourceLang, choice.lang, { render: renderContent });
  const ui = await uiPromise;
  const pageLang = translated.status === "machine" || translated.status === "reviewed" ? choice.lang : museum.sourceLang;
  const media = translated.html === undefined ? await mediaFor(pageLang) : {};

  const counted = request.method === "GET" && !ignoresStats(url) && !isbot(request.headers.get("User-Agent") ?? "");
  if (counted) {
    const event = {
      id: crypto.randomUUID(),
      type: place.scannable && !url.searchParams.has("lang") ? ("scan" as const) : ("view" as const),
      museumId: museum.id,
      articleId: article.id,
      qrcodeId: target.qrcodeId,
      // The language asked for (demand), even when the page fell back to the original.
      lang: choice.lang,
      at: Date.now(),
    };
    // After the response: a slow or failing queue never delays or breaks the page.
    context.cloudflare.ctx.waitUntil(sendScanEvent(context.scans, event).catch((error: unknown) => console.warn(`scan event not sent: ${String(error)}`)));
  }

  return render(
    <ArticlePage
      museumName={museum.name}
      lang={pageLang}
      visitorLang={choice.lang}
      sourceLang={museum.sourceLang}
      strings={ui.strings}
      stringsLang={ui.lang}
      content={translated.content}
      contentHtml={translated.html}
      status={translated.status}
      engines={translated.engines}
      base={place.base}
      keep={keep}
      showingOriginal={showingOriginal}
      media={media}
      canonical={`${url.origin}/v/${encodeURIComponent(museum.slug)}/${encodeURIComponent(article.slug)}${translated.status === "original" ? "" : `?lang=${pageLang}`}`}
      nonce={nonce}
    />,
    choice.setCookie,
  );
}

/** The language picker of a visitor page. */
export async function visitorLanguagesPage(request: Request, context: AppLoadContext, target: VisitorTarget | null, place: VisitorPlace): Promise<Response> {
  if (!target) return visitorNotFound(request);
  const url = new URL(request.url);
  const choice = chooseLanguage(request, target.museum.sourceLang);
  const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), target.museum.id, choice.lang);
  const query = (url.searchParams.get("q") ?? "").slice(0, 60);
  return html(
    renderDocument(
      <LanguagesPage
        museumName={target.museum.name}
        strings={strings}
        stringsLang={stringsLang}
        lang={choice.lang}
        likely={likelyLanguages(request, choice.lang, target.museum.sourceLang)}
        query={query}
        base={place.base}
        keep={ignoresStats(url) ? "ignoreStats=true" : ""}
        nonce={context.cspNonce}
      />,
    ),
    200,
  );
}
