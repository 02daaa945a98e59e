import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { offlineManifest } from "~/offline/manifest.server";
import { tourByLink } from "~/tours/stops.server";
import { getOnly, run } from "~/utils/api.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguage } from "~/visitor/language.server";
import { visitorStrings } from "~/visitor/strings.server";

export const action = getOnly;

/**
 * `GET /t/{link}/offline.json?lang=xx`: what the service worker saves for this tour in this language (the
 * tour page, its shown stops, their images and subtitles, the keypad and its numbers, the offline page),
 * sizes and a version (decision 087). Public like the tour page; 404 for an unknown tour.
 */
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  run(async () => {
    const tour = await tourByLink(context.db, params.link ?? "");
    const lang = chooseLanguage(request, tour?.museum.sourceLang ?? "fr").lang;
    const { strings } = await visitorStrings(translationDeps(context), lang);
    return offlineManifest(context.db, params.link ?? "", lang, { video: strings.offlineVideo, narration: strings.offlineNarration });
  });
