import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { parseStoredContent, type ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { articles, museums } from "~/db/schema";
import { imageSizes } from "~/models/visitor.server";
import { loadFolderIndex } from "~/models/tree.server";
import { tourByLink, visibleStops, type VisibleStop, type VisitorTour } from "~/tours/stops.server";
import { articleTitle } from "../pages/article";

/** A stop as the tour page lists it: its visitor name (the article's first line) and its first image. */
export interface ListedStop {
  position: number;
  articleId: number;
  slug: string;
  name: string;
  image: { src: string; width?: number; height?: number } | null;
  stopNumber: number | null;
}

export interface TourView {
  tour: VisitorTour;
  stops: ListedStop[];
  cover: { src: string; width?: number; height?: number } | null;
  /** Some article of the museum carries a stop number: pages link to the keypad (decision 086). */
  numbered: boolean;
}

function firstImage(content: ArticleContent): string | null {
  for (const element of content) if (element.type === "image" && element.src) return element.src;
  return null;
}

/** The name visitors know a stop by: its article's first line, else the name staff gave it. */
function visitorName(stop: VisibleStop, content: ArticleContent): string {
  return articleTitle(content) || stop.name;
}

async function museumHasStopNumbers(db: Database, museumId: number): Promise<boolean> {
  const row = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), isNotNull(articles.stopNumber), isNull(articles.deletedAt), isNotNull(articles.publishedContent)))
    .limit(1)
    .get();
  return row !== undefined;
}

/** The tour at `/t/{link}` with its shown stops (the one rule of `visibleStops`); null for an unknown or malformed link. */
export async function loadTourView(db: Database, link: string): Promise<TourView | null> {
  const tour = await tourByLink(db, link);
  if (!tour) return null;
  const [stops, numbered] = await Promise.all([visibleStops(db, tour.museum.id, tour.id), museumHasStopNumbers(db, tour.museum.id)]);
  const listed = stops.map((stop) => {
    const content = parseStoredContent(stop.publishedContent, stop.slug);
    return { stop, name: visitorName(stop, content), image: firstImage(content) };
  });
  const sizes = await imageSizes(db, tour.museum.id, [...listed.map((l) => l.image).filter((src): src is string => src !== null), ...(tour.cover ? [tour.cover] : [])]);
  const withSize = (src: string | null) => (src ? { src, ...sizes.get(src) } : null);
  return {
    tour,
    stops: listed.map(({ stop, name, image }) => ({ position: stop.position, articleId: stop.articleId, slug: stop.slug, name, image: withSize(image), stopNumber: stop.stopNumber })),
    cover: withSize(tour.cover),
    numbered,
  };
}

/** The museum at `/v/{museum}/…` by its slug. */
export async function museumBySlug(db: Database, slug: string) {
  return (
    (await db.select({ id: museums.id, name: museums.name, slug: museums.slug, sourceLang: museums.sourceLang }).from(museums).where(eq(museums.slug, slug)).get()) ?? null
  );
}

/**
 * The live, published article of the museum carrying stop number `number` (keypad), or null. The same
 * visibility as a tour's stops: not trashed, not in a trashed folder, published.
 */
export async function articleByStopNumber(db: Database, museumId: number, number: number): Promise<{ slug: string } | null> {
  const row = await db
    .select({ slug: articles.slug, folderId: articles.folderId })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), eq(articles.stopNumber, number), isNull(articles.deletedAt), isNotNull(articles.publishedContent)))
    .get();
  if (!row) return null;
  if (row.folderId !== null && !(await loadFolderIndex(db, museumId)).isLive(row.folderId)) return null;
  return { slug: row.slug };
}
