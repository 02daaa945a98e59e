import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, folders } from "~/db/schema";
import { isUniqueViolation, notFound } from "~/errors";
import { deleteObjects } from "./media.server";
import { deletePieces } from "~/narration/pieces.server";
import { loadFolderIndex } from "./tree.server";
import { auditWhenChanged, type AuditActor } from "~/audit/log.server";

export const TRASH_RETENTION_DAYS = 30;
const RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000;

export interface TrashItem {
  type: "article" | "folder";
  id: number;
  name: string;
  /** Where it was, as folder names from the root. */
  path: string[];
  deletedAt: number;
  purgeAt: number;
  /** For a folder: the folders and articles inside it, at any depth. */
  itemCount: number;
}

/** Trashed items not yet past their retention, newest first. */
export async function listTrash(db: Database, museumId: number, now = Date.now()): Promise<TrashItem[]> {
  const cutoff = now - RETENTION_MS;
  const [index, allArticles] = await Promise.all([
    loadFolderIndex(db, museumId),
    db
      .select({ id: articles.id, name: articles.unformattedName, folderId: articles.folderId, deletedAt: articles.deletedAt })
      .from(articles)
      .where(eq(articles.museumId, museumId)),
  ]);
  const items: TrashItem[] = [];
  for (const article of allArticles) {
    if (article.deletedAt === null || article.deletedAt <= cutoff) continue;
    items.push({
      type: "article",
      id: article.id,
      name: article.name,
      path: index.path(article.folderId),
      deletedAt: article.deletedAt,
      purgeAt: article.deletedAt + RETENTION_MS,
      itemCount: 0,
    });
  }
  const folderRows = await db
    .select({ id: folders.id, name: folders.name, parentId: folders.parentId, deletedAt: folders.deletedAt })
    .from(folders)
    .where(and(eq(folders.museumId, museumId), isNotNull(folders.deletedAt), gt(folders.deletedAt, cutoff)));
  const articlesPerFolder = new Map<number, number>();
  for (const a of allArticles) if (a.folderId !== null) articlesPerFolder.set(a.folderId, (articlesPerFolder.get(a.folderId) ?? 0) + 1);
  for (const folder of folderRows) {
    const inside = index.descendants(folder.id);
    let articleCount = articlesPerFolder.get(folder.id) ?? 0;
    for (const id of inside) articleCount += articlesPerFolder.get(id) ?? 0;
    items.push({
      type: "folder",
      id: folder.id,
      name: folder.name,
      path: index.path(folder.parentId),
      deletedAt: folder.deletedAt!,
      purgeAt: folder.deletedAt! + RETENTION_MS,
      itemCount: inside.size + articleCount,
    });
  }
  return items.sort((a, b) => b.deletedAt - a.deletedAt || b.id - a.id);
}

/**
 * Brings an item back where it was; when that folder is gone or trashed, to the root. A folder whose
 * name is taken there meanwhile comes back as "name (2)".
 */
export async function restoreItem(db: Database, museumId: number, input: { type: "article" | "folder"; id: number }, actor: AuditActor, now = Date.now()) {
  const cutoff = now - RETENTION_MS;
  if (input.type === "article") {
    const index = await loadFolderIndex(db, museumId);
    const row = await db.query.articles.findFirst({
      where: and(eq(articles.id, input.id), eq(articles.museumId, museumId), isNotNull(articles.deletedAt), gt(articles.deletedAt, cutoff)),
    });
    if (!row) throw notFound("Trashed article", "id");
    const folderId = index.isLive(row.folderId) ? row.folderId : null;
    // Conditional on still being in the trash: of two parallel restores, one wins and one gets a 404.
    const [restored] = await db.batch([
      db
        .update(articles)
        .set({ deletedAt: null, folderId })
        .where(and(eq(articles.id, row.id), eq(articles.museumId, museumId), isNotNull(articles.deletedAt), gt(articles.deletedAt, cutoff)))
        .returning({ id: articles.id }),
      auditWhenChanged(db, {
        museumId,
        actor,
        action: "item.restore",
        target: `article:${row.id}`,
        detail: { type: "article", name: row.unformattedName },
        at: now,
      }),
    ]);
    if (restored.length === 0) throw notFound("Trashed article", "id");
    return { type: "article" as const, id: row.id, name: row.unformattedName, pathArray: index.path(folderId) };
  }
  // The free name is read, then written under the unique index; losing that race means reading again.
  for (let attempt = 1; ; attempt++) {
    const index = await loadFolderIndex(db, museumId);
    const folder = index.get(input.id);
    const row = folder && folder.deletedAt !== null && folder.deletedAt > cutoff ? folder : undefined;
    if (!row) throw notFound("Trashed folder", "id");
    const parentId = index.isLive(row.parentId) ? row.parentId : null;
    const name = index.freeName(parentId, row.name);
    try {
      const [restored] = await db.batch([
        db
          .update(folders)
          .set({ deletedAt: null, parentId, name })
          .where(and(eq(folders.id, row.id), eq(folders.museumId, museumId), isNotNull(folders.deletedAt), gt(folders.deletedAt, cutoff)))
          .returning({ id: folders.id }),
        auditWhenChanged(db, { museumId, actor, action: "item.restore", target: `folder:${row.id}`, detail: { type: "folder", name }, at: now }),
      ]);
      if (restored.length === 0) throw notFound("Trashed folder", "id");
      return { type: "folder" as const, id: row.id, name, pathArray: index.path(parentId) };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 10) throw error;
    }
  }
}

/**
 * Deletes for good what has been in the trash longer than the retention, with everything inside
 * trashed folders, and the media files uploaded for the purged articles (R2 objects, then rows) unless
 * another article's draft, published content or kept version uses them. The purged articles' versions go
 * with them (ON DELETE CASCADE). QR codes of purged articles lose their link (ON DELETE SET NULL).
 */
export async function purgeExpiredTrash(db: Database, bucket: R2Bucket, now = Date.now()) {
  const cutoff = now - RETENTION_MS;
  const doomed = `WITH RECURSIVE doomed(id) AS (
      SELECT id FROM folders WHERE deleted_at IS NOT NULL AND deleted_at <= ?1
      UNION SELECT f.id FROM folders f JOIN doomed d ON f.parent_id = d.id
    )`;
  const d1 = db.$client;
  const articlesWhere = `WHERE folder_id IN (SELECT id FROM doomed) OR (deleted_at IS NOT NULL AND deleted_at <= ?1)`;
  const foldersWhere = `WHERE id IN (SELECT id FROM doomed)`;
  // A file another article still uses (its draft, what visitors see, or a kept version of its history,
  // decision 042) stays: its row loses the purged article (ON DELETE SET NULL) and keeps being served.
  const purgedArticles = `SELECT id FROM articles ${articlesWhere}`;
  const uses = (column: string) => `instr(${column}, '/media/' || media.r2_key) > 0`;
  const mediaWhere = `WHERE article_id IN (${purgedArticles})
    AND NOT EXISTS (SELECT 1 FROM articles a WHERE a.museum_id = media.museum_id AND a.id NOT IN (${purgedArticles})
      AND (${uses("a.content")} OR ${uses("coalesce(a.published_content, '')")}))
    AND NOT EXISTS (SELECT 1 FROM article_versions v WHERE v.museum_id = media.museum_id AND v.article_id NOT IN (${purgedArticles})
      AND ${uses("v.content")})`;
  // Objects first: if the rows' deletion then fails, tomorrow's run finds the same keys again, and
  // deleting a missing object is no error. Rows without an object are never served (404).
  const { results: files } = await d1.prepare(`${doomed} SELECT r2_key FROM media ${mediaWhere}`).bind(cutoff).all<{ r2_key: string }>();
  const keys = files.map((f) => f.r2_key);
  await deleteObjects(bucket, keys);
  // Narrations (issue 22) of the purged articles: their rows go with the articles (ON DELETE CASCADE).
  const { results: narrated } = await d1
    .prepare(`${doomed} SELECT r2_key FROM narrations WHERE article_id IN (${purgedArticles})`)
    .bind(cutoff)
    .all<{ r2_key: string }>();
  await deleteObjects(
    bucket,
    narrated.map((n) => n.r2_key),
  );
  // And the audio of their narrations' paragraphs (decision 106), by each article's prefix.
  const { results: pieced } = await d1
    .prepare(`${doomed} SELECT museum_id, id FROM articles ${articlesWhere}`)
    .bind(cutoff)
    .all<{ museum_id: number; id: number }>();
  for (const article of pieced) await deletePieces(bucket, article.museum_id, article.id);
  // One batch is one transaction, so the counts are those of the rows deleted.
  // The audit log (decision 043) gets one entry per item staff had put in the trash (not per article
  // inside a trashed folder), by the system, in the same transaction as the deletion.
  const audit = (table: "articles" | "folders", type: "article" | "folder", name: string) =>
    d1
      .prepare(
        `INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail)
         SELECT museum_id, ?2, NULL, '', 'item.purge', '${type}:' || id, json_object('type', '${type}', 'name', ${name}, 'automatic', json('true'))
           FROM ${table} WHERE deleted_at IS NOT NULL AND deleted_at <= ?1`,
      )
      .bind(cutoff, now);
  const [articleCount, folderCount, mediaDeleted] = await d1.batch<{ n: number; r2_key: string }>([
    d1.prepare(`${doomed} SELECT COUNT(*) AS n FROM articles ${articlesWhere}`).bind(cutoff),
    d1.prepare(`${doomed} SELECT COUNT(*) AS n FROM folders ${foldersWhere}`).bind(cutoff),
    d1.prepare(`${doomed} DELETE FROM media ${mediaWhere} RETURNING r2_key`).bind(cutoff),
    audit("articles", "article", "unformatted_name"),
    audit("folders", "folder", "name"),
    d1.prepare(`${doomed} DELETE FROM articles ${articlesWhere}`).bind(cutoff),
    d1.prepare(`${doomed} DELETE FROM folders ${foldersWhere}`).bind(cutoff),
  ]);
  // Uploads refuse trashed articles, but one checked just before its article was trashed may have
  // recorded a file between the two reads: it goes too.
  const seen = new Set(keys);
  const late = (mediaDeleted?.results ?? []).map((r) => r.r2_key).filter((k) => !seen.has(k));
  await deleteObjects(bucket, late);
  return {
    articles: articleCount?.results[0]?.n ?? 0,
    folders: folderCount?.results[0]?.n ?? 0,
    media: keys.length + late.length,
  };
}
