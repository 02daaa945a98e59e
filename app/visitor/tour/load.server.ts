import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { headingText } from "~/content/render";
import { parseStoredContent, type ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { articles, museums } from "~/db/schema";
import type { GlossaryTerm } from "~/translation/glossary";
import { imageSizes, museumGlossary } from "~/models/visitor.server";
import { loadFolderIndex } from "~/models/tree.server";
import { tourByLink, visibleStops, type VisitorTour } from "~/tours/stops.server";
import { articleTitle } from "../pages/article";

/** A stop as the tour page lists it: its visitor name (the article's title) and its first image. */
export interface ListedStop {
  position: number;
  articleId: number;
  slug: string;
  /**
   * What visitors know the stop by (`visitorTitle`); "" when its article shows no title (the page says
   * "Stop n of N"). Named `title`, not `name`: a snapshot kept before decision 113 (with private names)
   * fails the shape check and is read again.
   */
  title: string;
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

/**
 * The name visitors know a stop by, as its article page names itself: the article's title (its first
 * line), else its first heading, else "". Never the private name staff gave it: the editor promises that
 * name stays inside the museum (decision 113).
 */
export function visitorTitle(content: ArticleContent): string {
  return articleTitle(content) || content.map(headingText).find((line) => line !== "") || "";
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
    return { stop, title: visitorTitle(content), image: firstImage(content) };
  });
  const sizes = await imageSizes(db, tour.museum.id, [
    ...listed.map((l) => l.image).filter((src): src is string => src !== null),
    ...(tour.cover ? [tour.cover] : []),
  ]);
  const withSize = (src: string | null) => (src ? { src, ...sizes.get(src) } : null);
  return {
    tour,
    stops: listed.map(({ stop, title, image }) => ({
      position: stop.position,
      articleId: stop.articleId,
      slug: stop.slug,
      title,
      image: withSize(image),
      stopNumber: stop.stopNumber,
    })),
    cover: withSize(tour.cover),
    numbered,
  };
}

/** The museum at `/v/{museum}/…` by its slug. */
export async function museumBySlug(db: Database, slug: string) {
  return (
    (await db
      .select({
        id: museums.id,
        name: museums.name,
        slug: museums.slug,
        sourceLang: museums.sourceLang,
        suspendedAt: museums.suspendedAt,
        closedAt: museums.closedAt,
      })
      .from(museums)
      .where(eq(museums.slug, slug))
      .get()) ?? null
  );
}

/** A museum as the keypad shows it, with its live stop numbers → the articles' slugs (decision 101). */
export interface MuseumNumbers {
  museum: { id: number; name: string; slug: string; sourceLang: string; suspendedAt: number | null; closedAt?: number | null };
  /** Stop number (as text) → slug of the live, published article carrying it. */
  numbers: Record<string, string>;
}

/**
 * The museum at `/v/{museum}/n` and every stop number of its live, published articles (the visibility of
 * `articleByStopNumber`, for all numbers at once: one query, plus the folder index when some article sits
 * in a folder). At most 9,999 numbers, some hundred kilobytes at worst; a museum has tens.
 */
export async function loadMuseumNumbers(db: Database, slug: string): Promise<MuseumNumbers | null> {
  const museum = await museumBySlug(db, slug);
  if (!museum) return null;
  const rows = await db
    .select({ number: articles.stopNumber, slug: articles.slug, folderId: articles.folderId })
    .from(articles)
    .where(and(eq(articles.museumId, museum.id), isNotNull(articles.stopNumber), isNull(articles.deletedAt), isNotNull(articles.publishedContent)))
    .all();
  const folders = rows.some((row) => row.folderId !== null) ? await loadFolderIndex(db, museum.id) : null;
  const numbers: Record<string, string> = {};
  for (const row of rows) {
    if (row.number === null || Object.hasOwn(numbers, String(row.number))) continue;
    if (row.folderId !== null && !folders?.isLive(row.folderId)) continue;
    numbers[String(row.number)] = row.slug;
  }
  return { museum, numbers };
}

/** The slug stop number `number` leads to in `numbers`, or null. */
export function slugForNumber(numbers: MuseumNumbers["numbers"], number: number): string | null {
  const key = String(number);
  return Object.hasOwn(numbers, key) && typeof numbers[key] === "string" ? numbers[key] : null;
}

const isMuseum = (m: unknown): boolean => {
  const museum = m as Partial<MuseumNumbers["museum"]> | null;
  return typeof museum?.id === "number" && typeof museum.name === "string" && typeof museum.slug === "string" && typeof museum.sourceLang === "string";
};

/** A keypad snapshot read back from KV has the shape this code writes (else it is read again from D1). */
export function validMuseumNumbers(value: MuseumNumbers): boolean {
  return (
    isMuseum(value.museum) &&
    value.numbers !== null &&
    typeof value.numbers === "object" &&
    Object.values(value.numbers).every((slug) => typeof slug === "string")
  );
}

/** A tour snapshot: the tour's view and the museum's glossary (its translation needs it), owned by the museum. */
export interface TourSnapshot {
  museum: VisitorTour["museum"];
  view: TourView;
  glossary: GlossaryTerm[];
}

/** The tour at `/t/{link}` as its snapshot keeps it (decision 101); null for an unknown or malformed link. */
export async function loadTourSnapshot(db: Database, link: string): Promise<TourSnapshot | null> {
  const view = await loadTourView(db, link);
  if (!view) return null;
  return { museum: view.tour.museum, view, glossary: await museumGlossary(db, view.tour.museum.id) };
}

const isImage = (image: unknown) => image === null || typeof (image as { src?: unknown }).src === "string";

/** A tour snapshot read back from KV has the shape this code writes (else it is read again from D1). */
export function validTourSnapshot(value: TourSnapshot): boolean {
  const { view } = value;
  const tour = view?.tour as Partial<VisitorTour> | undefined;
  return (
    isMuseum(value.museum) &&
    Array.isArray(value.glossary) &&
    value.glossary.every(
      (term) =>
        typeof term?.term === "string" &&
        (term.lang === null || typeof term.lang === "string") &&
        (term.translation === null || typeof term.translation === "string"),
    ) &&
    typeof tour?.id === "number" &&
    typeof tour.link === "string" &&
    typeof tour.name === "string" &&
    typeof tour.description === "string" &&
    (tour.minutes === null || typeof tour.minutes === "number") &&
    tour.museum?.id === value.museum.id &&
    isMuseum(tour.museum) &&
    typeof view.numbered === "boolean" &&
    isImage(view.cover) &&
    Array.isArray(view.stops) &&
    view.stops.every(
      (stop) =>
        typeof stop?.position === "number" &&
        typeof stop.articleId === "number" &&
        typeof stop.slug === "string" &&
        typeof stop.title === "string" &&
        isImage(stop.image) &&
        (stop.stopNumber === null || typeof stop.stopNumber === "number"),
    )
  );
}
