import type { AppLoadContext } from "@remix-run/cloudflare";
import { isbot } from "isbot";
import type { VisitorTarget } from "~/models/visitor.server";
import { sendScanEvent, type ScanEvent } from "~/queue/scan-event";
import type { VisitorPlace } from "./place.server";
import { ignoresStats } from "./respond.server";

/**
 * The statistics event of one open of an article's page, or null when it is not counted: a `HEAD`, a bot,
 * a staff preview (`ignoreStats=true`). Opening `/r/{link}` without `?lang=` is a scan, anything else a view.
 */
export function scanEventFor(request: Request, target: VisitorTarget & { article: NonNullable<VisitorTarget["article"]> }, place: VisitorPlace, lang: string): ScanEvent | null {
  const url = new URL(request.url);
  const counted = request.method === "GET" && !ignoresStats(url) && !isbot(request.headers.get("User-Agent") ?? "");
  if (!counted) return null;
  return {
    id: crypto.randomUUID(),
    type: place.scannable && !url.searchParams.has("lang") ? ("scan" as const) : ("view" as const),
    museumId: target.museum.id,
    articleId: target.article.id,
    qrcodeId: target.qrcodeId,
    // The language asked for (demand), even when the page fell back to the original.
    lang,
    at: Date.now(),
  };
}

/** Queues the event after the response: a slow or failing queue never delays or breaks the page. */
export function countOpen(context: AppLoadContext, event: ScanEvent | null): void {
  if (!event) return;
  context.cloudflare.ctx.waitUntil(sendScanEvent(context.scans, event).catch((error: unknown) => console.warn(`scan event not sent: ${String(error)}`)));
}
