import type { AppLoadContext } from "@remix-run/cloudflare";
import { isbot } from "isbot";
import type { VisitorTarget } from "~/models/visitor.server";
import { sendScanEvent, type QueuedEvent, type ScanEvent } from "~/queue/scan-event";
import { countedUserAgent, visitorFingerprint } from "~/queue/visitor-fingerprint.server";
import { clientAddress } from "~/utils/http.server";
import type { TourStopPlace, VisitorPlace } from "./place.server";
import { ignoresStats } from "./respond.server";

/**
 * The statistics event of one open of an article's page, or null when it is not counted: a `HEAD`, a bot,
 * a staff preview (`ignoreStats=true`), a page fetched to save a tour offline, a request without a User-Agent (decision 032: a phone's browser
 * always sends one). Opening `/r/{link}` without `?lang=` is a scan, anything else a view.
 */
export function scanEventFor(
  request: Request,
  target: VisitorTarget & { article: NonNullable<VisitorTarget["article"]> },
  place: VisitorPlace,
  lang: string,
  tourStop?: TourStopPlace,
): ScanEvent | null {
  const url = new URL(request.url);
  if (!counts(request, url)) return null;
  return {
    id: crypto.randomUUID(),
    type: place.scannable && !url.searchParams.has("lang") ? ("scan" as const) : ("view" as const),
    museumId: target.museum.id,
    articleId: target.article.id,
    qrcodeId: target.qrcodeId,
    // The language asked for (demand), even when the page fell back to the original.
    lang,
    at: Date.now(),
    ...(tourStop ? { tour: { id: tourStop.tourId, position: tourStop.position } } : {}),
  };
}

/** Whether opening this page counts at all (see `scanEventFor`). */
function counts(request: Request, url: URL): boolean {
  const userAgent = countedUserAgent(request.headers.get("User-Agent"));
  // A tour being saved for offline (decision 087) is not a visit: its views are counted when they happen.
  const saving = request.headers.get("X-Muselingo-Save") === "1";
  return request.method === "GET" && !ignoresStats(url) && !saving && userAgent !== null && !isbot(userAgent);
}

/** The statistics event of a tour page open (a start, position 0), or null when it is not counted (same rules). */
export function tourStartEventFor(request: Request, tour: { id: number; museumId: number }, lang: string): QueuedEvent | null {
  if (!counts(request, new URL(request.url))) return null;
  return { id: crypto.randomUUID(), type: "start", museumId: tour.museumId, tour: { id: tour.id, position: 0 }, lang, at: Date.now() };
}

/**
 * Queues the event after the response: a slow or failing queue never delays or breaks the page. Only the
 * visitor's salted daily hash goes with it (decision 032), never the address or the User-Agent.
 */
export function countOpen(context: AppLoadContext, request: Request, event: QueuedEvent | null): void {
  if (!event) return;
  const sent = visitorFingerprint(context.config.SESSION_SECRET, clientAddress(request), request.headers.get("User-Agent"), event.at).then((fingerprint) =>
    sendScanEvent(context.scans, { ...event, fingerprint: fingerprint ?? undefined }),
  );
  context.cloudflare.ctx.waitUntil(sent.catch((error: unknown) => console.warn(`scan event not sent: ${String(error)}`)));
}
