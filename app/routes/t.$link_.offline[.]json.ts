import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { hmacSha256Hex } from "~/lib/crypto";
import { clientNetwork } from "~/lib/network";
import { reserveAttempt } from "~/models/rate-limit.server";
import { offlineManifest } from "~/offline/manifest.server";
import { issueOfflinePass } from "~/offline/pass";
import { OFFLINE_PASSES_PER_WINDOW } from "~/offline/views";
import { tourByLink } from "~/tours/stops.server";
import { getOnly, run } from "~/utils/api.server";
import { clientAddress } from "~/utils/http.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { chooseLanguage } from "~/visitor/language.server";
import { visitorStrings } from "~/visitor/strings.server";

export const action = getOnly;

/**
 * `GET /t/{link}/offline.json?lang=xx`: what the service worker saves for this tour in this language (the
 * tour page, its shown stops, their images and subtitles, the keypad and its numbers, the offline page),
 * sizes and a version (decision 087). Public like the tour page; 404 for an unknown tour.
 *
 * With `&pass=1` (the service worker saving the tour) it also gives the saved copy's `pass` (decision 118):
 * the offline views of that copy count only with it. At most 30 passes per network in 15 minutes; past that
 * `pass` is null and the copy works offline all the same, its views uncounted.
 */
export const loader = ({ request, context, params }: LoaderFunctionArgs) =>
  run(async () => {
    const tour = await tourByLink(context.db, params.link ?? "");
    const lang = chooseLanguage(request, tour?.museum.sourceLang ?? "fr").lang;
    const { strings } = await visitorStrings(translationDeps(context), lang);
    const manifest = await offlineManifest(context.db, params.link ?? "", lang, { video: strings.offlineVideo, narration: strings.offlineNarration });
    if (!tour || new URL(request.url).searchParams.get("pass") !== "1") return manifest;
    const now = Date.now();
    const key = `offline-pass:${await hmacSha256Hex(context.config.SESSION_SECRET, `net:${clientNetwork(clientAddress(request))}`)}`;
    const reservation = await reserveAttempt(context.db, [key], now, OFFLINE_PASSES_PER_WINDOW);
    return { ...manifest, pass: reservation.allowed ? await issueOfflinePass(context.config.SESSION_SECRET, tour.id, now) : null };
  });
