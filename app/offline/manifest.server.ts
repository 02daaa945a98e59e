import { and, eq, inArray, max } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, media, narrations, translationReviews } from "~/db/schema";
import { narrationUrl } from "~/narration/narrations.server";
import { DomainError } from "~/errors";
import { sha256Hex } from "~/lib/crypto";
import { tourByLink, visibleStops, type VisibleStop, type VisitorTour } from "~/tours/stops.server";
import { offlinePlan, type OfflineManifest, type PlannedStop } from "./manifest";

export { type OfflineManifest } from "./manifest";

const MEDIA_PREFIX = "/media/";

/**
 * The offline manifest of a tour in one language (issue 21 §3, decision 087): what the service worker saves
 * so the tour works with the phone in airplane mode. Built from the same rule as the visitor pages
 * (`visibleStops`), so it never lists a stop a visitor cannot open. 404 for an unknown or malformed link.
 */
export async function offlineManifest(db: Database, link: string, lang: string, strings: OfflineManifest["strings"]): Promise<OfflineManifest> {
  const tour = await tourByLink(db, link);
  if (!tour) throw new DomainError("not_found", "No tour at this address");
  const stops = await visibleStops(db, tour.museum.id, tour.id);
  const planned = stops.map(plannedStop);
  const keys = [
    ...new Set(
      [...(tour.cover ? [tour.cover] : []), ...planned.flatMap((stop) => [...stop.images, ...stop.subtitles])].filter((src) => src.startsWith(MEDIA_PREFIX)),
    ),
  ].map((src) => src.slice(MEDIA_PREFIX.length));
  const [bytes, reviewed, published, narrated] = await Promise.all([
    mediaBytes(db, tour.museum.id, keys),
    lastReview(db, tour, stops, lang),
    publishedVersions(db, tour, stops),
    stopNarrations(db, tour, stops, lang),
  ]);
  const plan = offlinePlan({ tour, stops: planned, lang, bytes, narrations: narrated, strings });
  // Changes whenever what the saved pages show could change: the tour's own fields and order, a stop's
  // published version, a reviewed translation in this language, the files and their sizes.
  const basis = JSON.stringify({
    tour: [tour.version, tour.updatedAt],
    stops: stops.map((stop) => [stop.articleId, stop.position, stop.stopNumber, published.get(stop.articleId) ?? null]),
    reviewed,
    entries: plan.entries.map((entry) => [entry.url, entry.bytes]),
    strings,
  });
  return { ...plan, version: (await sha256Hex(basis)).slice(0, 20) };
}

/** What a stop's published content puts on its page: images (shown), subtitles (kept), videos (not saved). */
export function plannedStop(stop: VisibleStop): PlannedStop {
  const images: string[] = [];
  const subtitles: string[] = [];
  let videos = 0;
  const visit = (element: unknown) => {
    if (element === null || typeof element !== "object") return;
    const { type, src, subtitles: track, details } = element as Record<string, unknown>;
    const own = typeof src === "string" && src.startsWith(MEDIA_PREFIX) ? src : null;
    if ((type === "image" || type === "link") && own) images.push(own);
    if (type === "video") {
      videos++;
      if (typeof track === "string" && track.startsWith(MEDIA_PREFIX)) subtitles.push(track);
    }
    if (Array.isArray(details)) details.forEach(visit);
  };
  try {
    const content: unknown = JSON.parse(stop.publishedContent);
    if (Array.isArray(content)) content.forEach(visit);
  } catch {
    // A damaged row shows nothing on the page either.
  }
  return { position: stop.position, stopNumber: stop.stopNumber, images, subtitles, videos };
}

/**
 * The stops' narrations in `lang`, in stop order (decision 113): a saved page plays its narration offline. A
 * narration the page does not play (a generated one whose text changed since) is saved too, and costs its
 * size; a page playing one that is not saved gets a notice instead of a silent player (app/offline/sw.js).
 */
async function stopNarrations(db: Database, tour: VisitorTour, stops: readonly VisibleStop[], lang: string): Promise<{ url: string; bytes: number }[]> {
  const ids = [...new Set(stops.map((stop) => stop.articleId))];
  const byArticle = new Map<number, { url: string; bytes: number }>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ articleId: narrations.articleId, key: narrations.r2Key, bytes: narrations.bytes })
      .from(narrations)
      .where(and(eq(narrations.museumId, tour.museum.id), eq(narrations.lang, lang), inArray(narrations.articleId, ids.slice(i, i + 90))))
      .all();
    for (const row of rows) byArticle.set(row.articleId, { url: narrationUrl(row.key), bytes: row.bytes });
  }
  return ids.flatMap((id) => byArticle.get(id) ?? []);
}

async function mediaBytes(db: Database, museumId: number, keys: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  // D1 takes at most 100 bound parameters per statement.
  for (let i = 0; i < keys.length; i += 90) {
    const rows = await db
      .select({ key: media.r2Key, bytes: media.bytes })
      .from(media)
      .where(and(eq(media.museumId, museumId), inArray(media.r2Key, keys.slice(i, i + 90))))
      .all();
    for (const row of rows) sizes.set(MEDIA_PREFIX + row.key, row.bytes);
  }
  return sizes;
}

async function lastReview(db: Database, tour: VisitorTour, stops: readonly VisibleStop[], lang: string): Promise<number | null> {
  const ids = [...new Set(stops.map((stop) => stop.articleId))];
  if (ids.length === 0 || lang === tour.museum.sourceLang) return null;
  let last: number | null = null;
  for (let i = 0; i < ids.length; i += 90) {
    const row = await db
      .select({ at: max(translationReviews.updatedAt) })
      .from(translationReviews)
      .where(
        and(
          eq(translationReviews.museumId, tour.museum.id),
          eq(translationReviews.targetLang, lang),
          inArray(translationReviews.articleId, ids.slice(i, i + 90)),
        ),
      )
      .get();
    if (row?.at != null && (last === null || row.at > last)) last = row.at;
  }
  return last;
}

/** Each stop article's published version and time (a publication changes what its page shows). */
async function publishedVersions(db: Database, tour: VisitorTour, stops: readonly VisibleStop[]): Promise<Map<number, [number | null, number | null]>> {
  const ids = [...new Set(stops.map((stop) => stop.articleId))];
  const out = new Map<number, [number | null, number | null]>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ id: articles.id, version: articles.publishedVersion, at: articles.publishedAt })
      .from(articles)
      .where(and(eq(articles.museumId, tour.museum.id), inArray(articles.id, ids.slice(i, i + 90))))
      .all();
    for (const row of rows) out.set(row.id, [row.version, row.at]);
  }
  return out;
}
