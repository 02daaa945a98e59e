// A frozen copy of app/visitor/page.server.tsx before issue 31 §2 (decision 133), for the before/after HTML comparison only.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { ArticleContentView, type MediaInfo } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { translationDeps } from "~/utils/translation-deps.server";
import { readThrough } from "~/visitor-cache/snapshot.server";
import { glossaryFor } from "~/translation/glossary";
import { narrationText } from "~/narration/text";
import { narrationForVisitor } from "~/narration/narrations.server";
import { narrationDeps } from "~/utils/narration.server";
import { translateArticle, type TranslatedArticle } from "~/translation/translate.server";
import { displayFromRequest } from "~/visitor/display/choices";
import { chooseEasyRead } from "~/visitor/easy-read/choice";
import { chooseLanguage } from "~/visitor/language.server";
import { visitorNotFound } from "~/visitor/not-found.server";
import { ArticlePage, usableContentHtml } from "./article";
import { NotAvailablePage } from "~/visitor/pages/not-available";
import { NotLinkedPage } from "~/visitor/pages/not-linked";
import { contentLabels, href, renderDocument, renderFragment } from "~/visitor/pages/shell";
import type { Located } from "~/visitor/place.server";
import { htmlPage, keptQuery, refusedMethod } from "~/visitor/respond.server";
import { countOpen, scanEventFor } from "~/visitor/scan.server";
import { visitorStrings } from "~/visitor/strings.server";

/** The visitor page of an article, a code that leads nowhere yet, or the 404 page. */
export async function legacyVisitorPage(
  request: Request,
  context: AppLoadContext,
  { target, place, memo, draftPreview, tourStop }: Located,
): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  if (!target) return visitorNotFound(request, context, place);
  const url = new URL(request.url);
  const { museum, article } = target;
  const choice = chooseLanguage(request, museum.sourceLang);
  const fresh = translationDeps(context);
  // The rendered translation is read from KV once per snapshot in this isolate (decision 039).
  const deps = memo ? { ...fresh, kv: readThrough(fresh.kv, memo) } : fresh;
  const nonce = context.cspNonce;
  // Display choices apply to the whole document, never to the cached rendering of the content (decision 097).
  const display = displayFromRequest(request);

  if (!article && target.unpublished) {
    // Never published (decision 041): "not available yet", 404, nothing counted, kept out of search engines.
    const { strings, lang } = await visitorStrings(deps, choice.lang);
    const page = <NotAvailablePage museumName={museum.name} strings={strings} lang={choice.lang} stringsLang={lang} base={place.base} nonce={nonce} />;
    return htmlPage(
      context.timing.rendering(() => renderDocument(page, display)),
      404,
      { "Set-Cookie": choice.setCookie, "X-Robots-Tag": "noindex" },
    );
  }

  if (!article) {
    const { strings, lang } = await visitorStrings(deps, choice.lang);
    const page = <NotLinkedPage museumName={museum.name} strings={strings} lang={choice.lang} stringsLang={lang} base={place.base} nonce={nonce} />;
    return htmlPage(
      context.timing.rendering(() => renderDocument(page, display)),
      200,
      { "Set-Cookie": choice.setCookie },
    );
  }

  const showingOriginal = url.searchParams.get("original") === "1" && choice.lang !== museum.sourceLang;
  // The approved easy-to-read version (decision 096), when the visitor chose it; never in a draft preview.
  const easyChoice = chooseEasyRead(request);
  const easyContent = draftPreview ? null : (target.easyRead ?? null);
  const easy = easyChoice.on && easyContent !== null;
  const shown = { id: article.id, museumId: museum.id, content: easy ? easyContent : article.content };
  const uiPromise = visitorStrings(deps, choice.lang);
  const sizes: MediaInfo["sizes"] = new Map(Object.entries(target.images));
  const mediaFor = (lang: string): MediaInfo => ({
    sizes,
    subtitles: lang === museum.sourceLang ? undefined : (src) => `/vtt?${new URLSearchParams({ src, lang })}`,
  });
  // A translation's rendering is cached with it, unless its labels fell back to English.
  const renderContent = async (content: ArticleContent) => {
    const ui = await uiPromise;
    if (ui.lang !== choice.lang) return undefined;
    return context.timing.rendering(() =>
      renderFragment(<ArticleContentView content={content} lang={choice.lang} media={mediaFor(choice.lang)} labels={contentLabels(ui.strings)} heading />),
    );
  };
  const translated: TranslatedArticle = showingOriginal
    ? { content: shown.content, status: "original", engines: [] }
    : await translateArticle(deps, shown, museum.sourceLang, choice.lang, {
        variant: easy ? "easy" : undefined,
        // A draft preview's rendering is not cached (its translation is, by content, as pretranslation does).
        render: draftPreview ? undefined : renderContent,
        glossary: glossaryFor(target.glossary, choice.lang),
      });
  const ui = await uiPromise;
  const pageLang = translated.status === "machine" || translated.status === "reviewed" ? choice.lang : museum.sourceLang;
  const contentHtml = usableContentHtml(translated.html, translated.content);
  const media = contentHtml === undefined ? mediaFor(pageLang) : {};

  // The narration of what the page shows (never of a draft): ready, or scheduled after this answer (issue 22).
  const narration = draftPreview
    ? null
    : await narrationForVisitor(
        // Decided from the snapshot (decision 098): no D1; "tried recently" notes come through the page's KV memo.
        { ...narrationDeps(context), kv: deps.kv },
        { museumId: museum.id, articleId: article.id, lang: pageLang, text: narrationText(translated.content), narrations: target.narrations },
      ).catch((error: unknown) => {
        console.warn(`narration lookup failed: ${String(error)}`);
        return null;
      });

  if (!draftPreview) {
    const event = scanEventFor(request, { ...target, article }, place, choice.lang, tourStop);
    countOpen(context, request, event && easy ? { ...event, easyRead: true } : event);
  }

  const page = (
    <ArticlePage
      museumName={museum.name}
      lang={pageLang}
      visitorLang={choice.lang}
      sourceLang={museum.sourceLang}
      strings={ui.strings}
      stringsLang={ui.lang}
      content={translated.content}
      contentHtml={contentHtml}
      status={translated.status}
      engines={translated.engines}
      base={place.base}
      keep={keptQuery(url)}
      showingOriginal={showingOriginal}
      media={media}
      canonical={`${url.origin}/v/${encodeURIComponent(museum.slug)}/${encodeURIComponent(article.slug)}${translated.status === "original" ? "" : `?lang=${pageLang}`}`}
      nonce={nonce}
      draftPreview={draftPreview}
      narration={narration}
      tourStop={tourStop}
      easyRead={easyContent ? { on: easy, href: href(place.base, keptQuery(url), { lang: choice.lang, easy: easy ? "0" : "1" }) } : undefined}
      displayBack={`${place.base}${url.search}`}
    />
  );
  const privateHeaders = draftPreview ? { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } : {};
  return htmlPage(
    context.timing.rendering(() => renderDocument(page, display)),
    200,
    { "Set-Cookie": [choice.setCookie, easyChoice.setCookie], ...privateHeaders },
  );
}
