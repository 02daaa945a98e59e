import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { claimNewLink } from "~/shards/directory.server";
import type { Database } from "~/db/client.server";
import { articles, media, tourStops, tours } from "~/db/schema";
import { type DomainError, invalid, isUniqueViolation, notFound } from "~/errors";
import { auditWhenChanged, auditWhenChangedD1, type AuditActor } from "~/audit/log.server";
import { randomLink } from "~/models/qrcodes.server";
import { staleVersion } from "~/models/stale-version.server";
import { listTree, loadFolderIndex } from "~/models/tree.server";
import type { TreeNode } from "~/models/tree-input";
import { TOUR_MAX_STOPS, type UpdateTourInput } from "./tour-input";
import type { TourFields, TourStopView } from "./tour-model";
import { isLiveArticle } from "~/models/live-article.server";

/**
 * Tours, the staff side (issue 21; decisions 076, 081, 082). A tour is a playlist: its fields and order are
 * live when saved, and visitors see only its live, published stops (app/tours/stops.server.ts).
 *
 * Reaching visitors (decisions 039, 081, 132): `tours` and `tour_stops` are visitor tables, so every write
 * here moves the same museum-wide stamp article publishing does (`visitor:v1:changed:{museumId}` in KV),
 * through their triggers. Any visitor snapshot or cached tour page of the museum made before the write is
 * then ignored; nothing else is bumped.
 */

export interface TourSummary extends TourFields {
  /** How many stops, trashed ones included. */
  stops: number;
}

export interface TourView extends TourFields {
  createdAt: number;
  stops: TourStopView[];
}

/** A tour's own columns, the same for staff (here) and visitors (stops.server.ts). */
export const tourColumns = {
  id: tours.id,
  link: tours.link,
  name: tours.name,
  description: tours.description,
  cover: tours.cover,
  minutes: tours.minutes,
  version: tours.version,
  updatedAt: tours.updatedAt,
} satisfies Record<keyof TourFields, unknown>;

/** The museum's tours by name, each with its number of stops (trashed ones included). */
export async function listTours(db: Database, museumId: number): Promise<TourSummary[]> {
  const rows = await db
    .select({ ...tourColumns, stops: sql<number>`(SELECT count(*) FROM tour_stops s WHERE s.tour_id = ${tours.id})` })
    .from(tours)
    .where(eq(tours.museumId, museumId))
    .all();
  return rows.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" }) || a.id - b.id);
}

export async function getTour(db: Database, museumId: number, tourId: number): Promise<TourView> {
  const [tour, index, stops] = await Promise.all([
    db
      .select({ ...tourColumns, createdAt: tours.createdAt })
      .from(tours)
      .where(and(eq(tours.id, tourId), eq(tours.museumId, museumId)))
      .get(),
    loadFolderIndex(db, museumId),
    db
      .select({
        position: tourStops.position,
        articleId: articles.id,
        name: articles.unformattedName,
        slug: articles.slug,
        publishedContent: sql<number>`${articles.publishedContent} IS NOT NULL`,
        deletedAt: articles.deletedAt,
        folderId: articles.folderId,
        stopNumber: articles.stopNumber,
      })
      .from(tourStops)
      .innerJoin(articles, and(eq(articles.id, tourStops.articleId), eq(articles.museumId, museumId)))
      .where(and(eq(tourStops.tourId, tourId), eq(tourStops.museumId, museumId)))
      .orderBy(asc(tourStops.position))
      .all(),
  ]);
  if (!tour) throw notFound("Tour", "id");
  return {
    ...tour,
    stops: stops.map((s) => ({
      position: s.position,
      articleId: s.articleId,
      name: s.name,
      slug: s.slug,
      published: Boolean(s.publishedContent),
      trashed: !isLiveArticle(s, index),
      stopNumber: s.stopNumber,
    })),
  };
}

/** The live articles below a folder (its sub-folders included), in the order of the articles tree. */
async function folderArticles(db: Database, museumId: number, pathArray: string[], folderName: string): Promise<number[]> {
  const index = await loadFolderIndex(db, museumId);
  const folder = index.liveChild(index.resolve(pathArray), folderName);
  if (!folder) throw notFound("Folder", "folderId");
  let nodes: TreeNode[] = await listTree(db, museumId);
  for (const name of [...index.path(folder.parentId), folder.name]) {
    const next = nodes.find((node) => node.type === "folder" && node.name === name);
    if (!next || next.type !== "folder") throw notFound("Folder", "folderId");
    nodes = next.children;
  }
  const ids: number[] = [];
  const walk = (list: TreeNode[]) => {
    for (const node of list) {
      if (node.type === "folder") walk(node.children);
      else ids.push(node.id);
    }
  };
  walk(nodes);
  return ids;
}

/** The stops of a tour, from a JSON array of article ids; an id that is not the museum's article is skipped. */
const INSERT_STOPS = `
INSERT INTO tour_stops (tour_id, position, article_id, museum_id)
SELECT ?1, CAST(j.key AS INTEGER) + 1, j.value, ?2 FROM json_each(?3) j
WHERE EXISTS (SELECT 1 FROM articles a WHERE a.id = j.value AND a.museum_id = ?2)`;

/**
 * A new tour with a fresh link (retried on the rare clash). With a folder: "turn a folder into a tour",
 * its live articles in tree order become the stops (more than 200 is refused: a tour that long is a mistake).
 */
export async function addTour(
  db: Database,
  directory: Database,
  museumId: number,
  input: { name: string; folderId?: string; pathArray: string[] },
  actor: AuditActor,
): Promise<TourView> {
  const articleIds = input.folderId === undefined ? [] : await folderArticles(db, museumId, input.pathArray, input.folderId);
  if (articleIds.length > TOUR_MAX_STOPS)
    throw invalid("folderId", "too_many", `A tour holds at most ${TOUR_MAX_STOPS} stops; this folder has ${articleIds.length} articles`);
  for (let attempt = 1; ; attempt++) {
    // Unique across museums and shards: the directory's claim (decision 142).
    const link = await claimNewLink(directory.$client, museumId, "tour", randomLink);
    const now = Date.now();
    try {
      const d1 = db.$client;
      // One batch: the tour, its audit entry, and its stops (found by the new tour's unique link).
      const [inserted] = await d1.batch([
        d1
          .prepare("INSERT INTO tours (museum_id, link, name, description, updated_at, updated_by) VALUES (?1, ?2, ?3, '', ?4, ?5) RETURNING id")
          .bind(museumId, link, input.name, now, actor.id),
        auditWhenChangedD1(
          d1,
          { museumId, actor, action: "tour.add", target: "tour:", detail: { name: input.name, link, stops: articleIds.length }, at: now },
          { insertedId: true },
        ),
        d1.prepare(INSERT_STOPS.replace("SELECT ?1,", "SELECT (SELECT id FROM tours WHERE link = ?4),")).bind(null, museumId, JSON.stringify(articleIds), link),
      ]);
      const id = (inserted?.results[0] as { id?: number } | undefined)?.id;
      if (id === undefined) throw new Error("tour insert returned no row");
      return getTour(db, museumId, id);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** The 409 of a stale version: which version is current, and who saved it when (decision 068's shape). */
async function staleTour(db: Database, museumId: number, tourId: number): Promise<DomainError> {
  const still = await db
    .select({ version: tours.version, updatedAt: tours.updatedAt, updatedBy: tours.updatedBy })
    .from(tours)
    .where(and(eq(tours.id, tourId), eq(tours.museumId, museumId)))
    .get();
  if (!still) return notFound("Tour", "id");
  return staleVersion(db, museumId, "tour", still);
}

/**
 * Saves the fields given and, with `articleIds`, replaces the stops. Each article must be a live article of
 * the museum, or already a stop of this tour (a trashed stop may stay, so reordering a tour never forces staff
 * to drop it: decision 082). The version check, the stops and the audit entry are one batch: every statement
 * is conditional on the version the caller read, so of two saves from the same version exactly one applies.
 */
export async function updateTour(db: Database, museumId: number, input: UpdateTourInput, actor: AuditActor): Promise<TourView> {
  const current = await db
    .select({ version: tours.version, name: tours.name })
    .from(tours)
    .where(and(eq(tours.id, input.id), eq(tours.museumId, museumId)))
    .get();
  if (!current) throw notFound("Tour", "id");
  if (current.version !== input.version) throw await staleTour(db, museumId, input.id);

  if (input.cover) {
    const key = input.cover.slice("/media/".length);
    const found = await db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.r2Key, key), eq(media.museumId, museumId), eq(media.kind, "image")))
      .get();
    if (!found) throw notFound("Image", "cover");
  }
  if (input.articleIds) {
    const wanted = [...new Set(input.articleIds)];
    const [index, rows, kept] = await Promise.all([
      loadFolderIndex(db, museumId),
      wanted.length
        ? db
            .select({ id: articles.id, deletedAt: articles.deletedAt, folderId: articles.folderId })
            .from(articles)
            .where(and(eq(articles.museumId, museumId), inArray(articles.id, wanted)))
            .all()
        : Promise.resolve([]),
      db
        .select({ articleId: tourStops.articleId })
        .from(tourStops)
        .where(and(eq(tourStops.tourId, input.id), eq(tourStops.museumId, museumId)))
        .all(),
    ]);
    const already = new Set(kept.map((s) => s.articleId));
    const usable = new Set(rows.filter((r) => already.has(r.id) || isLiveArticle(r, index)).map((r) => r.id));
    const missing = input.articleIds.findIndex((id) => !usable.has(id));
    if (missing >= 0) throw notFound(`Article ${input.articleIds[missing]}`, `articleIds.${missing}`);
  }

  const now = Date.now();
  const d1 = db.$client;
  const guard = "EXISTS (SELECT 1 FROM tours t WHERE t.id = ?1 AND t.museum_id = ?2 AND t.version = ?3)";
  const set: string[] = ["version = version + 1", "updated_at = ?4", "updated_by = ?5"];
  const values: unknown[] = [input.id, museumId, input.version, now, actor.id];
  const field = (column: string, value: unknown) => {
    values.push(value);
    set.push(`${column} = ?${values.length}`);
  };
  if (input.name !== undefined) field("name", input.name);
  if (input.description !== undefined) field("description", input.description);
  if (input.cover !== undefined) field("cover", input.cover);
  if (input.minutes !== undefined) field("minutes", input.minutes);
  const changed = Object.keys(input).filter((k) => k !== "id" && k !== "version");
  const statements: D1PreparedStatement[] = [];
  if (input.articleIds) {
    // Stops first, while the version is still the one read; the version moves last.
    statements.push(
      d1.prepare(`DELETE FROM tour_stops WHERE tour_id = ?1 AND museum_id = ?2 AND ${guard}`).bind(input.id, museumId, input.version),
      d1.prepare(`${INSERT_STOPS} AND ${guard.replace("?3", "?4")}`).bind(input.id, museumId, JSON.stringify(input.articleIds), input.version),
    );
  }
  statements.push(
    d1.prepare(`UPDATE tours SET ${set.join(", ")} WHERE id = ?1 AND museum_id = ?2 AND version = ?3 RETURNING version`).bind(...values),
    auditWhenChangedD1(d1, {
      museumId,
      actor,
      action: "tour.update",
      target: `tour:${input.id}`,
      detail: { name: input.name ?? current.name, changed, ...(input.articleIds ? { stops: input.articleIds.length } : {}) },
      at: now,
    }),
  );
  const results = await d1.batch(statements);
  const updated = results[input.articleIds ? 2 : 0]?.results[0];
  if (!updated) throw await staleTour(db, museumId, input.id);
  return getTour(db, museumId, input.id);
}

/** Deletes the tour and its stops for good (its printed code then leads to "not found"). */
export async function deleteTour(db: Database, museumId: number, tourId: number, actor: AuditActor): Promise<{ id: number; deleted: true }> {
  const tour = await db
    .select({ name: tours.name, link: tours.link })
    .from(tours)
    .where(and(eq(tours.id, tourId), eq(tours.museumId, museumId)))
    .get();
  if (!tour) throw notFound("Tour", "id");
  const [, deleted] = await db.batch([
    db.delete(tourStops).where(and(eq(tourStops.tourId, tourId), eq(tourStops.museumId, museumId))),
    db
      .delete(tours)
      .where(and(eq(tours.id, tourId), eq(tours.museumId, museumId)))
      .returning({ id: tours.id }),
    auditWhenChanged(db, { museumId, actor, action: "tour.delete", target: `tour:${tourId}`, detail: { name: tour.name, link: tour.link } }),
  ]);
  if (deleted.length === 0) throw notFound("Tour", "id");
  return { id: tourId, deleted: true };
}

/** The museum's tours' printed addresses, for the print sheet and the detail page. */
export function tourAddress(publicBaseUrl: string, request: Request, link: string): string {
  const base = (publicBaseUrl || new URL(request.url).origin).replace(/\/+$/, "");
  return `${base}/t/${link}`;
}
