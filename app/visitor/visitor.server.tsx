import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isbot } from "isbot";
import type { ReactElement } from "react";
import type { MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { linkSchema } from "~/models/qrcode-input";
import { imageSizes, targetForLink, targetForSlug, type VisitorTarget } from "~/models/visitor.server";
import { sendScanEvent } from "~/queue/scan-event";
import { countedUserAgent, visitorFingerprint } from "~/queue/visitor-fingerprint.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { glossaryFor } from "~/translation/glossary";
import { translateArticle, type TranslatedArticle } from "~/translation/translate.server";
import { ArticleContentView } from "~/content/render";
import { addReport } from "~/models/translation-review.server";
import { reportFormSchema } from "~/models/translation-input";
import { reserveAttempt } from "~/models/rate-limit.server";
import { findLanguage, negotiateLanguage } from "~/translation/languages";
import { hmacSha256Hex } from "~/lib/crypto";
import { clientAddress, discardBody, readFormBody } from "~/utils/http.server";
import { ArticlePage, contentLabels, LanguagesPage, NotLinkedPage, renderDocument, renderFragment, ReportPage, VisitorNotFoundPage, type ReportPageProps } from "./document";
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

/** `/r/{link}`: what the printed code leads to (null for a malformed or unknown link), and the page's place. */
export async function atLink(context: AppLoadContext, params: LoaderFunctionArgs["params"]): Promise<{ target: VisitorTarget | null; place: VisitorPlace }> {
  const link = linkSchema.safeParse(params.link);
  const target = link.success ? await targetForLink(context.db, link.data) : null;
  return { target, place: { base: `/r/${link.success ? link.data : ""}`, scannable: true } };
}

/** `/v/{museum}/{slug}`: the live article at that address (null otherwise), and the page's place. */
export async function atAddress(context: AppLoadContext, params: LoaderFunctionArgs["params"]): Promise<{ target: VisitorTarget | null; place: VisitorPlace }> {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  const target = await targetForSlug(context.db, museum, slug);
  return { target, place: { base: `/v/${encodeURIComponent(museum)}/${encodeURIComponent(slug)}`, scannable: false } };
}

/** The 404 page for an address that leads nowhere, in French or English (no museum, no engine). */
export function visitorNotFound(request: Request): Response {
  // French or English as the browser prefers; a browser that asks for neither is a foreign visitor: English.
  const accept = request.headers.get("Accept-Language");
  const lang = negotiateLanguage(accept, ["fr", "en"]) ?? (accept ? "en" : "fr");
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
    : await translateArticle(deps, { id: article.id, museumId: museum.id, content: article.content }, museum.sourceLang, choice.lang, {
        render: renderContent,
        glossary: glossaryFor(target.glossary, choice.lang),
      });
  const ui = await uiPromise;
  const pageLang = translated.status === "machine" || translated.status === "reviewed" ? choice.lang : museum.sourceLang;
  const media = translated.html === undefined ? await mediaFor(pageLang) : {};

  // No User-Agent, no count (decision 032): a phone's browser always sends one.
  const userAgent = countedUserAgent(request.headers.get("User-Agent"));
  const counted = request.method === "GET" && !ignoresStats(url) && userAgent !== null && !isbot(userAgent);
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
    // After the response: a slow or failing queue never delays or breaks the page. Only the visitor's
    // salted daily hash is queued, never the address or the User-Agent.
    const sent = visitorFingerprint(context.config.SESSION_SECRET, clientAddress(request), userAgent, event.at).then((fingerprint) =>
      sendScanEvent(context.scans, { ...event, fingerprint: fingerprint ?? undefined }),
    );
    context.cloudflare.ctx.waitUntil(sent.catch((error: unknown) => console.warn(`scan event not sent: ${String(error)}`)));
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

const REPORTS_PER_WINDOW = 5;

/**
 * `GET|POST {page}/report`: a visitor's report on a translation, without login. The form posts here; a
 * refused message comes back in the form with its reason, a sent one gets a thank-you, both in the
 * visitor's language. Five reports per address per 15 minutes.
 */
export async function visitorReportPage(request: Request, context: AppLoadContext, target: VisitorTarget | null, place: VisitorPlace): Promise<Response> {
  if (!target?.article) {
    await discardBody(request);
    return visitorNotFound(request);
  }
  const { museum, article } = target;
  const url = new URL(request.url);
  const keep = ignoresStats(url) ? "ignoreStats=true" : "";
  let lang = chooseLanguage(request, museum.sourceLang).lang;
  const page = async (state: ReportPageProps["state"], status = 200, headers: Record<string, string> = {}) => {
    const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), museum.id, lang);
    return html(
      renderDocument(<ReportPage museumName={museum.name} strings={strings} stringsLang={stringsLang} lang={lang} base={place.base} keep={keep} state={state} />),
      status,
      headers,
    );
  };
  if (request.method !== "POST") return page({ kind: "form" });

  const body = await readFormBody(request, 8 * 1024);
  if (!body.ok) return body.response;
  lang = findLanguage(String(body.form.get("lang") ?? ""))?.code ?? lang;
  const parsed = reportFormSchema.safeParse({ message: body.form.get("message") ?? undefined });
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message;
    const message = typeof body.form.get("message") === "string" ? String(body.form.get("message")).slice(0, 1000) : "";
    const { strings } = await visitorStrings(translationDeps(context), museum.id, lang);
    return page({ kind: "form", message, error: reason === "too_long" ? strings.reportTooLong : strings.reportEmpty }, 400);
  }
  const key = `report:${await hmacSha256Hex(context.config.SESSION_SECRET, `addr:${clientAddress(request)}`)}`;
  const reservation = await reserveAttempt(context.db, [key], Date.now(), REPORTS_PER_WINDOW);
  if (!reservation.allowed) {
    const { strings } = await visitorStrings(translationDeps(context), museum.id, lang);
    return page({ kind: "form", message: parsed.data.message, error: strings.reportTooMany }, 429, { "Retry-After": String(reservation.retryAfter) });
  }
  await addReport(context.db, { museumId: museum.id, articleId: article.id, lang, message: parsed.data.message });
  return page({ kind: "thanks" });
}
