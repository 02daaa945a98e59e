import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { newArticleContent } from "~/content/defaults";
import { parseStoredContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { articles, folders, users } from "~/db/schema";
import { DomainError, isUniqueViolation, notFound } from "~/errors";
import { slugify } from "~/lib/names";
import { FolderIndex, folderNameTaken } from "./folder-index.server";
import { repairFolderCycles } from "./folder-cycles.server";
import type { TreeNode } from "./tree-input";
import { auditWhenChanged, auditWhenChangedD1, type AuditActor } from "~/audit/log.server";
import { articleCreatedAudit, articleRenamedAudit } from "./tree-audit.server";
import { findLiveArticle, liveArticleSql, liveArticleWhere } from "./live-article.server";

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" });

/** The museum's folders; a parent loop found in them is broken on the spot (the folders go to the root). */
export async function loadFolderIndex(db: Database, museumId: number): Promise<FolderIndex> {
  const read = () =>
    db
      .select({ id: folders.id, parentId: folders.parentId, name: folders.name, deletedAt: folders.deletedAt })
      .from(folders)
      .where(eq(folders.museumId, museumId));
  const index = new FolderIndex(await read());
  if (index.cycleIds.length === 0) return index;
  await repairFolderCycles(db, museumId, index.cycleIds);
  return new FolderIndex(await read());
}

async function liveArticleRows(db: Database, museumId: number) {
  return db
    .select({ id: articles.id, name: articles.unformattedName, slug: articles.slug, folderId: articles.folderId })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), isNull(articles.deletedAt)));
}

/** The museum's live folders and articles, nested from the root: folders first, then articles. */
export async function listTree(db: Database, museumId: number): Promise<TreeNode[]> {
  const [index, rows] = await Promise.all([loadFolderIndex(db, museumId), liveArticleRows(db, museumId)]);
  const articlesByFolder = new Map<number | null, typeof rows>();
  for (const row of rows) {
    const list = articlesByFolder.get(row.folderId) ?? [];
    list.push(row);
    articlesByFolder.set(row.folderId, list);
  }
  // Each folder is entered once at most, whatever the stored parents say.
  const entered = new Set<number>();
  const build = (folderId: number | null): TreeNode[] => [
    ...index
      .liveChildren(folderId)
      .filter((f) => !entered.has(f.id) && entered.add(f.id))
      .sort(byName)
      .map((f): TreeNode => ({ type: "folder", id: f.name, name: f.name, children: build(f.id) })),
    ...(articlesByFolder.get(folderId) ?? []).sort(byName).map((a): TreeNode => ({ type: "article", id: a.id, name: a.name })),
  ];
  return build(null);
}

/** The museum's live, reachable articles (not inside a trashed folder), for pickers. */
export async function listLiveArticles(db: Database, museumId: number) {
  const [index, rows] = await Promise.all([loadFolderIndex(db, museumId), liveArticleRows(db, museumId)]);
  return rows
    .filter((a) => index.isLive(a.folderId))
    .sort(byName)
    .map((a) => ({ id: a.id, name: a.slug, unformatted_name: a.name }));
}

/**
 * "<base> N" and "<slug base>-N" in one statement, N one more than the highest number among the live
 * names and every slug (trashed ones too, so a restored article keeps its public address). SQLite runs
 * a statement alone, so parallel creations each get their own N instead of fighting over one.
 */
const INSERT_NUMBERED_ARTICLE = `
INSERT INTO articles (museum_id, folder_id, slug, unformatted_name, content, updated_at)
SELECT ?1, ?2, ?3 || '-' || n, ?4 || ' ' || n, json_set(?5, '$[0].url', ?3 || '-' || n), ?6
FROM (SELECT 1 + max(
  coalesce((SELECT max(CASE WHEN slug = ?3 THEN 0 ELSE CAST(substr(slug, length(?3) + 2) AS INTEGER) END)
    FROM articles WHERE museum_id = ?1 AND (slug = ?3 OR (
      substr(slug, 1, length(?3) + 1) = ?3 || '-' AND length(slug) BETWEEN length(?3) + 2 AND length(?3) + 9
      AND substr(slug, length(?3) + 2) NOT GLOB '*[^0-9]*'))), 0),
  coalesce((SELECT max(CASE WHEN unformatted_name = ?4 THEN 0 ELSE CAST(substr(unformatted_name, length(?4) + 2) AS INTEGER) END)
    FROM articles WHERE museum_id = ?1 AND deleted_at IS NULL AND (unformatted_name = ?4 OR (
      substr(unformatted_name, 1, length(?4) + 1) = ?4 || ' ' AND length(unformatted_name) BETWEEN length(?4) + 2 AND length(?4) + 9
      AND substr(unformatted_name, length(?4) + 2) NOT GLOB '*[^0-9]*'))), 0)
) AS n)
RETURNING id, slug, unformatted_name`;

export async function addArticle(db: Database, museumId: number, input: { pathArray: string[]; defaultNameBase: string }, actor: AuditActor) {
  const index = await loadFolderIndex(db, museumId);
  const folderId = index.resolve(input.pathArray);
  const now = Date.now();
  const statement = db.$client
    .prepare(INSERT_NUMBERED_ARTICLE)
    .bind(museumId, folderId, slugify(input.defaultNameBase), input.defaultNameBase, JSON.stringify(newArticleContent("")), now);
  const audit = articleCreatedAudit(db.$client, museumId, actor, index.path(folderId), now);
  // A slug typed by hand could still collide; the next attempt counts past it.
  for (let attempt = 1; ; attempt++) {
    try {
      const [inserted] = await db.$client.batch<{ id: number; slug: string; unformatted_name: string }>([statement, audit]);
      const row = inserted?.results[0];
      if (!row) throw new Error("the article insert returned no row");
      return { id: row.id, name: row.slug, unformatted_name: row.unformatted_name, pathArray: index.path(folderId) };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

export async function addFolder(db: Database, museumId: number, input: { pathArray: string[]; id: string }, actor: AuditActor) {
  const index = await loadFolderIndex(db, museumId);
  const parentId = index.resolve(input.pathArray);
  index.assertNameFree(parentId, input.id, "id");
  try {
    await db.batch([
      db.insert(folders).values({ museumId, parentId, name: input.id }),
      auditWhenChanged(
        db,
        { museumId, actor, action: "folder.create", target: "folder:", detail: { name: input.id, path: index.path(parentId) } },
        { insertedId: true },
      ),
    ]);
  } catch (error) {
    // Another request created the same name meanwhile: the unique index decided.
    if (isUniqueViolation(error)) throw folderNameTaken("id");
    throw error;
  }
  return { type: "folder" as const, id: input.id, name: input.id, pathArray: index.path(parentId) };
}

export async function renameArticle(db: Database, museumId: number, input: { articleId: number; newName: string }, actor: AuditActor) {
  const now = Date.now();
  const [, updated] = await db.$client.batch<{ id: number }>([
    // Before the update, over the same live row: the entry keeps the name it had.
    articleRenamedAudit(db.$client, museumId, actor, input.articleId, input.newName, now),
    db.$client
      .prepare(
        `UPDATE articles SET unformatted_name = ?1, updated_at = ?2 WHERE id = ?3 AND museum_id = ?4 AND ${liveArticleSql("articles", "?4")} RETURNING id`,
      )
      .bind(input.newName, now, input.articleId, museumId),
  ]);
  if (!updated || updated.results.length === 0) throw notFound("Article", "articleId");
  return { id: input.articleId, unformatted_name: input.newName };
}

export async function renameFolder(db: Database, museumId: number, input: { pathArray: string[]; itemName: string; newName: string }, actor: AuditActor) {
  const index = await loadFolderIndex(db, museumId);
  const parentId = index.resolve(input.pathArray);
  const folder = index.liveChild(parentId, input.itemName);
  if (!folder) throw notFound("Folder", "itemName");
  if (input.newName !== folder.name) {
    index.assertNameFree(parentId, input.newName, "newName");
    try {
      const [updated] = await db.batch([
        db
          .update(folders)
          .set({ name: input.newName })
          .where(and(eq(folders.id, folder.id), eq(folders.museumId, museumId), isNull(folders.deletedAt)))
          .returning({ id: folders.id }),
        auditWhenChanged(db, { museumId, actor, action: "folder.rename", target: `folder:${folder.id}`, detail: { name: input.newName, from: folder.name } }),
      ]);
      if (updated.length === 0) throw notFound("Folder", "itemName");
    } catch (error) {
      if (isUniqueViolation(error)) throw folderNameTaken("newName");
      throw error;
    }
  }
  return { type: "folder" as const, id: input.newName, name: input.newName };
}

export type DeleteInput = { type: "article"; id: number } | { type: "folder"; id: string; pathArray: string[] };

/**
 * Moves the item to the trash (restorable for TRASH_RETENTION_DAYS); a folder takes its contents along.
 * The audit entry (`item.delete`) goes in the same batch, recorded only when the item really moved.
 */
export async function deleteItem(db: Database, museumId: number, input: DeleteInput, actor: AuditActor) {
  const now = Date.now();
  if (input.type === "article") {
    const article = await db.query.articles.findFirst({
      columns: { unformattedName: true, stopNumber: true },
      where: and(eq(articles.id, input.id), eq(articles.museumId, museumId), liveArticleWhere(museumId)),
    });
    if (!article) throw notFound("Article", "id");
    const [updated] = await db.batch([
      // Trashing frees the article's stop number (issue 21, decision 083); restoring does not take it back.
      db
        .update(articles)
        .set({ deletedAt: now, stopNumber: null })
        .where(and(eq(articles.id, input.id), eq(articles.museumId, museumId), liveArticleWhere(museumId)))
        .returning({ id: articles.id }),
      auditWhenChanged(db, {
        museumId,
        actor,
        action: "item.delete",
        target: `article:${input.id}`,
        detail: { type: "article", name: article.unformattedName, ...(article.stopNumber === null ? {} : { stopNumber: article.stopNumber }) },
        at: now,
      }),
    ]);
    if (updated.length === 0) throw notFound("Article", "id");
    return { type: "article" as const, id: input.id, deletedAt: now };
  }
  const index = await loadFolderIndex(db, museumId);
  const folder = index.liveChild(index.resolve(input.pathArray), input.id);
  if (!folder) throw notFound("Folder", "id");
  const [updated] = await db.batch([
    db
      .update(folders)
      .set({ deletedAt: now })
      .where(and(eq(folders.id, folder.id), eq(folders.museumId, museumId), isNull(folders.deletedAt)))
      .returning({ id: folders.id }),
    auditWhenChanged(db, {
      museumId,
      actor,
      action: "item.delete",
      target: `folder:${folder.id}`,
      detail: { type: "folder", name: folder.name, path: index.path(folder.parentId) },
      at: now,
    }),
    // The articles leaving the live tree with the folder free their stop numbers too (decision 083).
    db
      .update(articles)
      .set({ stopNumber: null })
      .where(
        and(
          eq(articles.museumId, museumId),
          isNotNull(articles.stopNumber),
          sql`${articles.folderId} IN (SELECT value FROM json_each(${JSON.stringify([folder.id, ...index.descendants(folder.id)])})) AND changes() > 0`,
        ),
      ),
  ]);
  if (updated.length === 0) throw notFound("Folder", "id");
  return { type: "folder" as const, id: folder.name, deletedAt: now };
}

export type MoveInput =
  | { type: "article"; itemId: number; fromPathArray: string[]; toPathArray: string[]; toFolderId: string | null }
  | { type: "folder"; itemId: string; fromPathArray: string[]; toPathArray: string[]; toFolderId: string | null };

/**
 * Re-parents a folder only if, as the database stands when the statement runs, the destination is a
 * live folder of the museum and not the folder itself or below it. The check and the write are one
 * statement, so two crossed moves (P into Q, Q into P) cannot both pass: the second sees the first.
 */
const MOVE_FOLDER = `
UPDATE folders SET parent_id = ?1
WHERE id = ?2 AND museum_id = ?3 AND deleted_at IS NULL
  AND (?1 IS NULL OR (
    EXISTS (SELECT 1 FROM folders d WHERE d.id = ?1 AND d.museum_id = ?3 AND d.deleted_at IS NULL)
    AND NOT EXISTS (
      WITH RECURSIVE up(id, depth) AS (
        SELECT ?1, 0
        UNION
        SELECT f.parent_id, up.depth + 1 FROM folders f JOIN up ON f.id = up.id
        WHERE f.parent_id IS NOT NULL AND up.depth < 10000
      )
      SELECT 1 FROM up WHERE up.id = ?2
    )
  ))
RETURNING id`;

const MOVE_ARTICLE = `
UPDATE articles SET folder_id = ?1, updated_at = ?4
WHERE id = ?2 AND museum_id = ?3 AND ${liveArticleSql("articles", "?3")}
  AND (?1 IS NULL OR EXISTS (SELECT 1 FROM folders d WHERE d.id = ?1 AND d.museum_id = ?3 AND d.deleted_at IS NULL))
RETURNING id`;

const intoItself = () => new DomainError("invalid_input", "A folder cannot move into itself or into one of its folders", "toFolderId", "into_itself");

export async function moveItem(db: Database, museumId: number, input: MoveInput, actor: AuditActor) {
  const index = await loadFolderIndex(db, museumId);
  const destination = input.toFolderId === null ? null : index.resolve([...input.toPathArray, input.toFolderId], "toFolderId");

  if (input.type === "article") {
    const article = await findLiveArticle(db, museumId, input.itemId, "itemId");
    const now = Date.now();
    const [moved] = await db.$client.batch([
      db.$client.prepare(MOVE_ARTICLE).bind(destination, article.id, museumId, now),
      auditWhenChangedD1(db.$client, {
        museumId,
        actor,
        action: "article.move",
        target: `article:${article.id}`,
        detail: { name: article.unformattedName, to: index.path(destination) },
        at: now,
      }),
    ]);
    if (!moved?.results[0]) throw notFound("Article or destination", "itemId");
    return { type: "article" as const, id: article.id, pathArray: index.path(destination) };
  }

  const folder = index.liveChild(index.resolve(input.fromPathArray, "fromPathArray"), input.itemId);
  if (!folder) throw notFound("Folder", "itemId");
  if (destination !== null && (destination === folder.id || index.descendants(folder.id).has(destination))) throw intoItself();
  if (folder.parentId !== destination) {
    index.assertNameFree(destination, folder.name, "itemId");
    let moved: unknown;
    try {
      const [result] = await db.$client.batch([
        db.$client.prepare(MOVE_FOLDER).bind(destination, folder.id, museumId),
        auditWhenChangedD1(db.$client, {
          museumId,
          actor,
          action: "folder.move",
          target: `folder:${folder.id}`,
          detail: { name: folder.name, to: index.path(destination) },
        }),
      ]);
      moved = result?.results[0];
    } catch (error) {
      if (isUniqueViolation(error)) throw folderNameTaken("itemId");
      throw error;
    }
    if (!moved) {
      // The tree changed since it was read: say which way.
      const now = await loadFolderIndex(db, museumId);
      if (!now.get(folder.id) || now.get(folder.id)!.deletedAt !== null) throw notFound("Folder", "itemId");
      if (destination !== null && (!now.get(destination) || now.get(destination)!.deletedAt !== null)) {
        throw notFound("Destination folder", "toFolderId");
      }
      throw intoItself();
    }
  }
  return { type: "folder" as const, id: folder.name, pathArray: index.path(destination) };
}

export async function readArticle(db: Database, museumId: number, articleId: number) {
  const row = await findLiveArticle(db, museumId, articleId);
  const index = await loadFolderIndex(db, museumId);
  const content = parseStoredContent(row.content, row.slug);
  const editor =
    row.updatedBy !== null
      ? await db
          .select({ id: users.id, email: users.email })
          .from(users)
          .where(and(eq(users.id, row.updatedBy), eq(users.museumId, museumId)))
          .get()
      : undefined;
  const scheduler =
    row.publishAt !== null && row.publishAtBy !== null
      ? await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, row.publishAtBy)).get()
      : undefined;
  return {
    id: row.id,
    name: row.slug,
    unformatted_name: row.unformattedName,
    // The draft (what staff edit); `published` is what visitors see (decision 041).
    content,
    version: row.version,
    updated_at: row.updatedAt,
    pathArray: index.path(row.folderId),
    /** The number on the label, typed on the keypad (issue 21); null = none. */
    stop_number: row.stopNumber,
    status: row.publishedContent === null ? ("never_published" as const) : row.publishedVersion === row.version ? ("published" as const) : ("draft" as const),
    draft: { content, version: row.version, updatedAt: row.updatedAt, updatedBy: editor ?? null },
    published:
      row.publishedContent === null
        ? null
        : { content: parseStoredContent(row.publishedContent, row.slug), version: row.publishedVersion, publishedAt: row.publishedAt },
    publishAt: row.publishAt,
    publishAtBy: row.publishAt === null || row.publishAtBy === null ? null : { id: row.publishAtBy, email: scheduler?.email ?? "" },
  };
}
