import type { AppLoadContext } from "@remix-run/cloudflare";
import { tourByLink } from "~/tours/stops.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguage, chooseLanguageWithoutMuseum } from "./language.server";
import { OfflinePage } from "./pages/offline";
import { renderDocument } from "./pages/shell";
import { htmlPage, refusedMethod } from "./respond.server";
import { visitorStrings } from "./strings.server";

/** `GET /offline?tour={link}&lang=xx`: the offline page a saved tour keeps (decision 087). */
export async function offlinePageResponse(request: Request, context: AppLoadContext): Promise<Response> {
  const refused = refusedMethod(request);
  if (refused) return refused;
  const link = new URL(request.url).searchParams.get("tour") ?? "";
  const tour = link ? await tourByLink(context.db, link) : null;
  const choice = tour ? chooseLanguage(request, tour.museum.sourceLang) : chooseLanguageWithoutMuseum(request);
  const { strings, lang } = await visitorStrings(translationDeps(context), choice.lang);
  const page = (
    <OfflinePage strings={strings} lang={lang} museumName={tour?.museum.name ?? "Muselingo"} tour={tour ? { link: tour.link, name: tour.name } : null} />
  );
  return htmlPage(renderDocument(page), 200, { "X-Robots-Tag": "noindex" });
}
