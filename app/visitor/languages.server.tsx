import type { AppLoadContext } from "@remix-run/cloudflare";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguage, chooseLanguageWithoutMuseum, likelyLanguages } from "./language.server";
import { LanguagesPage } from "./pages/languages";
import { renderDocument } from "./pages/shell";
import type { Located } from "./place.server";
import { htmlPage, keptQuery, refusedMethod } from "./respond.server";
import { visitorStrings, type VisitorStrings } from "./strings.server";

const MAX_QUERY_CHARS = 60;

/**
 * The language picker of a visitor page. An address that leads nowhere gets the picker too (status 404):
 * the not-found page's language button leads here, and each choice back to that page in the language.
 */
export async function visitorLanguagesPage(
  request: Request,
  context: AppLoadContext,
  { target, place }: Pick<Located, "target" | "place">,
  backLabel?: (strings: VisitorStrings) => string,
  /** The query the picker's links keep, when the page keeps more than `keptQuery` (the keypad's `tour`). */
  keep?: string,
): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const url = new URL(request.url);
  const choice = target ? chooseLanguage(request, target.museum.sourceLang) : chooseLanguageWithoutMuseum(request);
  const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), choice.lang);
  const page = (
    <LanguagesPage
      museumName={target?.museum.name}
      strings={strings}
      stringsLang={stringsLang}
      lang={choice.lang}
      likely={likelyLanguages(request, choice.lang, target?.museum.sourceLang)}
      query={(url.searchParams.get("q") ?? "").slice(0, MAX_QUERY_CHARS)}
      base={place.base}
      keep={keep ?? keptQuery(url)}
      nonce={context.cspNonce}
      backLabel={backLabel?.(strings)}
    />
  );
  return htmlPage(renderDocument(page), target ? 200 : 404);
}
