import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, museums, tourStops, tours } from "~/db/schema";
import { linkSchema } from "~/models/qrcode-input";
import { loadFolderIndex } from "~/models/tree.server";
import type { TourFields } from "./tour-model";
import { tourColumns } from "./tours.server";

/**
 * Tours as visitors see them (issue 21, decision 076). One rule shared by the tour page, the stop pages,
 * the keypad and the offline manifest: a stop is shown when its article is live (not trashed, not in a
 * trashed folder) and published; shown stops are numbered 1…n in the tour's order, so "Stop 3 of 12" and
 * `/t/{link}/3` always agree with the list on `/t/{link}`.
 */
export interface VisitorTour extends TourFields {
  museum: { id: number; name: string; slug: string; sourceLang: string; suspendedAt: number | null; closedAt?: number | null };
}

export interface VisibleStop {
  /** 1…n over the shown stops (the address `/t/{link}/{position}`). */
  position: number;
  articleId: number;
  slug: string;
  name: string;
  /** The published content as stored (JSON), for the first image and the page. */
  publishedContent: string;
  stopNumber: number | null;
}

/** The tour printed as `/t/{link}`, with its museum; null for a malformed or unknown link. */
export async function tourByLink(db: Database, link: string): Promise<VisitorTour | null> {
  const parsed = linkSchema.safeParse(link);
  if (!parsed.success) return null;
  const row = await db
    .select({
      ...tourColumns,
      museumId: museums.id,
      museumName: museums.name,
      museumSlug: museums.slug,
      sourceLang: museums.sourceLang,
      suspendedAt: museums.suspendedAt,
      closedAt: museums.closedAt,
    })
    .from(tours)
    .innerJoin(museums, eq(museums.id, tours.museumId))
    .where(eq(tours.link, parsed.data))
    .get();
  if (!row) return null;
  const { museumId, museumName, museumSlug, sourceLang, suspendedAt, closedAt, ...tour } = row;
  return { ...tour, museum: { id: museumId, name: museumName, slug: museumSlug, sourceLang, suspendedAt, closedAt } };
}

/** The stop rows of one tour, or of every tour of the museum, in tour order: live-in-folder checked by the caller. */
async function stopRows(db: Database, museumId: number, tourId: number | null) {
  const [index, rows] = await Promise.all([
    loadFolderIndex(db, museumId),
    db
      .select({
        tourId: tourStops.tourId,
        articleId: articles.id,
        slug: articles.slug,
        name: articles.unformattedName,
        publishedContent: articles.publishedContent,
        stopNumber: articles.stopNumber,
        folderId: articles.folderId,
      })
      .from(tourStops)
      .innerJoin(articles, and(eq(articles.id, tourStops.articleId), eq(articles.museumId, museumId)))
      .where(
        and(
          ...(tourId === null ? [] : [eq(tourStops.tourId, tourId)]),
          eq(tourStops.museumId, museumId),
          isNull(articles.deletedAt),
          isNotNull(articles.publishedContent),
        ),
      )
      .orderBy(asc(tourStops.tourId), asc(tourStops.position))
      .all(),
  ]);
  return rows.filter((row) => row.folderId === null || index.isLive(row.folderId));
}

type StopRow = Awaited<ReturnType<typeof stopRows>>[number];

const numbered = (rows: readonly StopRow[]): VisibleStop[] =>
  rows.map((row, i) => ({
    position: i + 1,
    articleId: row.articleId,
    slug: row.slug,
    name: row.name,
    publishedContent: row.publishedContent ?? "[]",
    stopNumber: row.stopNumber,
  }));

/** The tour's shown stops in order, numbered 1…n (see the module comment). */
export async function visibleStops(db: Database, museumId: number, tourId: number): Promise<VisibleStop[]> {
  return numbered(await stopRows(db, museumId, tourId));
}

/**
 * The shown stops of every tour of the museum, by tour id (the same rule as `visibleStops`), in two
 * queries whatever the number of tours: the statistics list every tour, and one query per tour made a
 * busy museum's statistics page slower with each tour (and past D1's per-request query limit).
 */
export async function visibleStopsByTour(db: Database, museumId: number): Promise<Map<number, VisibleStop[]>> {
  const byTour = new Map<number, StopRow[]>();
  for (const row of await stopRows(db, museumId, null)) {
    const list = byTour.get(row.tourId);
    if (list) list.push(row);
    else byTour.set(row.tourId, [row]);
  }
  return new Map([...byTour].map(([tourId, rows]) => [tourId, numbered(rows)]));
}
