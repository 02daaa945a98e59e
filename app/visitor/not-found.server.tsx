import type { AppLoadContext } from "@remix-run/cloudflare";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguageWithoutMuseum } from "./language.server";
import { NotFoundPage } from "./pages/not-found";
import { renderDocument } from "./pages/shell";
import type { VisitorPlace } from "./place.server";
import { htmlPage } from "./respond.server";
import { visitorStrings } from "./strings.server";

/**
 * The 404 page of an address that leads nowhere, in the visitor's language by the same rules as every
 * visitor page (`?lang=`, cookie, Accept-Language), with the language button.
 */
export async function visitorNotFound(request: Request, context: AppLoadContext, place: VisitorPlace): Promise<Response> {
  const choice = chooseLanguageWithoutMuseum(request);
  const { strings, lang: stringsLang } = await visitorStrings(translationDeps(context), choice.lang);
  return htmlPage(renderDocument(<NotFoundPage strings={strings} lang={choice.lang} stringsLang={stringsLang} base={place.base} />), 404, {
    "Set-Cookie": choice.setCookie,
  });
}
