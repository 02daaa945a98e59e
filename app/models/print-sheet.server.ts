import { and, asc, eq, isNull } from "drizzle-orm";
import { claimNewLink } from "~/shards/directory.server";
import { actorOf, auditWhenChangedD1 } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { articles, qrcodes, tourStops } from "~/db/schema";
import { isUniqueViolation, notFound } from "~/errors";
import { listQrCodes, randomLink, type QrCodeView } from "~/models/qrcodes.server";
import { loadFolderIndex } from "~/models/tree.server";
import { findLiveArticle, liveArticleSql } from "~/models/live-article.server";
import { listTours, type TourSummary } from "~/tours/tours.server";
import type { SessionUser } from "~/models/auth.server";

/**
 * What the print sheet `/qrcodes/print` holds (issues 21 and 29, docs/decisions/116-tour-print-sheet.md):
 * - `?ids=1,2&tours=3`: those codes and those tours' own codes;
 * - `?tour=3`: a tour's sheet: its code, then each stop in the tour's order, as its article's code;
 * - nothing: every code, every tour, and every tour stop whose article has no code yet.
 * Articles' codes come in stop-number order (unnumbered ones after, by name), tours after them. A stop
 * whose article has no active code is a `missing` cell, never left out: staff see it and create its code.
 */
export type SheetCell =
  | { kind: "code"; code: QrCodeView; stopNumber: number | null }
  | { kind: "tour"; tour: TourSummary }
  | { kind: "missing"; articleId: number; name: string; stopNumber: number | null };

export interface SheetChoice {
  ids: number[];
  tours: number[];
  /** A tour's sheet; null when not asked for. */
  tour: number | null;
}

interface StopRow {
  tourId: number;
  position: number;
  articleId: number;
  name: string;
  stopNumber: number | null;
}

/** Live stops of the museum's tours (trashed articles are skipped, as visitors skip them), in tour order. */
async function liveStops(db: Database, museumId: number, tourId?: number): Promise<StopRow[]> {
  const [index, rows] = await Promise.all([
    loadFolderIndex(db, museumId),
    db
      .select({
        tourId: tourStops.tourId,
        position: tourStops.position,
        articleId: articles.id,
        name: articles.unformattedName,
        stopNumber: articles.stopNumber,
        folderId: articles.folderId,
      })
      .from(tourStops)
      .innerJoin(articles, and(eq(articles.id, tourStops.articleId), eq(articles.museumId, museumId), isNull(articles.deletedAt)))
      .where(and(eq(tourStops.museumId, museumId), tourId === undefined ? undefined : eq(tourStops.tourId, tourId)))
      .orderBy(asc(tourStops.tourId), asc(tourStops.position))
      .all(),
  ]);
  return rows.filter((row) => index.isLive(row.folderId));
}

/** Stop number first (1, 2 … 9999), unnumbered after; then the name as people sort it; then the id. */
export function byStopNumber(
  a: { stopNumber: number | null; name: string | null; id: number },
  b: { stopNumber: number | null; name: string | null; id: number },
): number {
  if (a.stopNumber !== b.stopNumber) {
    if (a.stopNumber === null) return 1;
    if (b.stopNumber === null) return -1;
    return a.stopNumber - b.stopNumber;
  }
  const names = (a.name ?? "\uffff").localeCompare(b.name ?? "\uffff", undefined, { numeric: true, sensitivity: "base" });
  return names || a.id - b.id;
}

export async function printSheetCells(db: Database, museumId: number, choice: SheetChoice | "everything"): Promise<SheetCell[]> {
  const tourId = choice !== "everything" ? choice.tour : null;
  const [codes, tours, stops, numbers] = await Promise.all([
    listQrCodes(db, museumId),
    listTours(db, museumId),
    choice === "everything" || tourId !== null ? liveStops(db, museumId, tourId ?? undefined) : Promise.resolve([]),
    db
      .select({ id: articles.id, stopNumber: articles.stopNumber })
      .from(articles)
      .where(and(eq(articles.museumId, museumId), isNull(articles.deletedAt)))
      .all(),
  ]);
  const numberOf = new Map(numbers.map((a) => [a.id, a.stopNumber]));
  const codeCell = (code: QrCodeView): SheetCell => ({
    kind: "code",
    code,
    stopNumber: code.id_article === null ? null : (numberOf.get(code.id_article) ?? null),
  });
  // An article's code on a tour's sheet: its oldest active code.
  const codeOfArticle = new Map<number, QrCodeView>();
  for (const code of codes) if (code.id_article !== null && !codeOfArticle.has(code.id_article)) codeOfArticle.set(code.id_article, code);

  if (tourId !== null) {
    const tour = tours.find((t) => t.id === tourId);
    if (!tour) return [];
    const seen = new Set<number>();
    const cells: SheetCell[] = [{ kind: "tour", tour }];
    for (const stop of stops) {
      if (seen.has(stop.articleId)) continue;
      seen.add(stop.articleId);
      const code = codeOfArticle.get(stop.articleId);
      cells.push(code ? codeCell(code) : { kind: "missing", articleId: stop.articleId, name: stop.name, stopNumber: stop.stopNumber });
    }
    return cells;
  }

  const chosenCodes = choice === "everything" ? codes : codes.filter((code) => choice.ids.includes(code.id));
  const chosenTours = choice === "everything" ? tours : tours.filter((tour) => choice.tours.includes(tour.id));
  const articleCells: { cell: SheetCell; key: { stopNumber: number | null; name: string | null; id: number } }[] = chosenCodes.map((code) => {
    const cell = codeCell(code);
    return { cell, key: { stopNumber: cell.kind === "code" ? cell.stopNumber : null, name: code.name, id: code.id } };
  });
  const missing = new Set<number>();
  for (const stop of stops) {
    if (codeOfArticle.has(stop.articleId) || missing.has(stop.articleId)) continue;
    missing.add(stop.articleId);
    articleCells.push({
      cell: { kind: "missing", articleId: stop.articleId, name: stop.name, stopNumber: stop.stopNumber },
      key: { stopNumber: stop.stopNumber, name: stop.name, id: stop.articleId },
    });
  }
  articleCells.sort((a, b) => byStopNumber(a.key, b.key));
  return [...articleCells.map((c) => c.cell), ...chosenTours.map((tour): SheetCell => ({ kind: "tour", tour }))];
}

/**
 * "Create its code" on a missing cell: a new code already linked to the article, in one conditional insert, so
 * that parallel clicks (a double click, another tab) make one code: the insert happens only while the article is
 * live in this museum and has no code. A trashed or another museum's article is a 404 naming articleId.
 */
export async function createCodeForArticle(
  db: Database,
  directory: Database,
  user: SessionUser,
  articleId: number,
): Promise<{ qrcodeId: number; created: boolean }> {
  const { unformattedName: name } = await findLiveArticle(db, user.museumId, articleId);
  for (let attempt = 1; ; attempt++) {
    // Unique across museums and shards: the directory's claim (decision 142).
    const link = await claimNewLink(directory.$client, user.museumId, "qrcode", randomLink);
    try {
      const [inserted] = await db.$client.batch([
        db.$client
          .prepare(
            `INSERT INTO qrcodes (museum_id, link, article_id)
             SELECT ?1, ?2, ?3
             WHERE EXISTS (SELECT 1 FROM articles a WHERE a.id = ?3 AND a.museum_id = ?1 AND ${liveArticleSql("a", "?1")})
               AND NOT EXISTS (SELECT 1 FROM qrcodes q WHERE q.museum_id = ?1 AND q.article_id = ?3)
             RETURNING id`,
          )
          .bind(user.museumId, link, articleId),
        auditWhenChangedD1(
          db.$client,
          { museumId: user.museumId, actor: actorOf(user), action: "qrcode.create", target: "qrcode:", detail: { link, articleId, name } },
          { insertedId: true },
        ),
      ]);
      const row = inserted?.results[0] as { id: number } | undefined;
      if (row) {
        return { qrcodeId: row.id, created: true };
      }
      const existing = await db
        .select({ id: qrcodes.id })
        .from(qrcodes)
        .where(and(eq(qrcodes.articleId, articleId), eq(qrcodes.museumId, user.museumId)))
        .orderBy(asc(qrcodes.id))
        .get();
      if (existing) return { qrcodeId: existing.id, created: false };
      throw notFound("Article", "articleId"); // trashed between the check and the insert
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}
