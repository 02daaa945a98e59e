import { and, eq, isNull } from "drizzle-orm";
import { newArticleContent } from "~/content/defaults";
import type { Database } from "~/db/client.server";
import { articles, folders } from "~/db/schema";
import { ApiError, notFound } from "~/utils/api.server";
import { highestNumber, slugify, uniqueSlug } from "~/utils/names";
import { FolderIndex } from "./folder-index.server";
import type { TreeNode } from "./tree-input";

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" });

export async function loadFolderIndex(db: Database, museumId: number): Promise<FolderIndex> {
  const rows = await db
    .select({ id: folders.id, parentId: folders.parentId, name: folders.name, deletedAt: folders.deletedAt })
    .from(folders)
    .where(eq(folders.museumId, museumId));
  return new FolderIndex(rows);
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
  const build = (folderId: number | null): TreeNode[] => [
    ...index
      .liveChildren(folderId)
      .sort(byName)
      .map((f): TreeNode => ({ type: "folder", id: f.name, name: f.name, children: build(f.id) })),
    ...(articlesByFolder.get(folderId) ?? [])
      .sort(byName)
      .map((a): TreeNode => ({ type: "article", id: a.id, name: a.name })),
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

export async function addArticle(
  db: Database,
  museumId: number,
  input: { pathArray: string[]; defaultNameBase: string },
) {
  const index = await loadFolderIndex(db, museumId);
  const folderId = index.resolve(input.pathArray);
  const existing = await db
    .select({ name: articles.unformattedName, slug: articles.slug, deletedAt: articles.deletedAt })
    .from(articles)
    .where(eq(articles.museumId, museumId));
  // The number follows both the live names and every slug (trashed ones too, so a restored article
  // keeps its public address), so a new article's name and slug read alike: "Nouvel article 3".
  const n =
    Math.max(
      highestNumber(input.defaultNameBase, existing.filter((a) => a.deletedAt === null).map((a) => a.name)),
      highestNumber(slugify(input.defaultNameBase), existing.map((a) => a.slug), "-"),
    ) + 1;
  const name = `${input.defaultNameBase} ${n}`;
  const slug = uniqueSlug(slugify(name), new Set(existing.map((a) => a.slug)));
  const now = Date.now();
  const row = await db
    .insert(articles)
    .values({
      museumId,
      folderId,
      slug,
      unformattedName: name,
      content: JSON.stringify(newArticleContent(slug)),
      updatedAt: now,
    })
    .returning({ id: articles.id })
    .get();
  return { id: row.id, name: slug, unformatted_name: name, pathArray: input.pathArray };
}

export async function addFolder(db: Database, museumId: number, input: { pathArray: string[]; id: string }) {
  const index = await loadFolderIndex(db, museumId);
  const parentId = index.resolve(input.pathArray);
  index.assertNameFree(parentId, input.id, "id");
  await db.insert(folders).values({ museumId, parentId, name: input.id });
  return { type: "folder" as const, id: input.id, name: input.id, pathArray: input.pathArray };
}

async function findLiveArticle(db: Database, museumId: number, articleId: number) {
  const row = await db.query.articles.findFirst({
    where: and(eq(articles.id, articleId), eq(articles.museumId, museumId), isNull(articles.deletedAt)),
  });
  if (!row) throw notFound("Article", "articleId");
  return row;
}

export async function renameArticle(db: Database, museumId: number, input: { articleId: number; newName: string }) {
  await findLiveArticle(db, museumId, input.articleId);
  await db
    .update(articles)
    .set({ unformattedName: input.newName, updatedAt: Date.now() })
    .where(and(eq(articles.id, input.articleId), eq(articles.museumId, museumId)));
  return { id: input.articleId, unformatted_name: input.newName };
}

export async function renameFolder(
  db: Database,
  museumId: number,
  input: { pathArray: string[]; itemName: string; newName: string },
) {
  const index = await loadFolderIndex(db, museumId);
  const parentId = index.resolve(input.pathArray);
  const folder = index.liveChild(parentId, input.itemName);
  if (!folder) throw notFound(`Folder ${input.itemName}`, "itemName");
  if (input.newName !== input.itemName) {
    index.assertNameFree(parentId, input.newName, "newName");
    await db.update(folders).set({ name: input.newName }).where(and(eq(folders.id, folder.id), eq(folders.museumId, museumId)));
  }
  return { type: "folder" as const, id: input.newName, name: input.newName };
}

export type DeleteInput = { type: "article"; id: number } | { type: "folder"; id: string; pathArray: string[] };

/** Moves the item to the trash (restorable for TRASH_RETENTION_DAYS); a folder takes its contents along. */
export async function deleteItem(db: Database, museumId: number, input: DeleteInput) {
  const now = Date.now();
  if (input.type === "article") {
    await findLiveArticle(db, museumId, input.id);
    await db.update(articles).set({ deletedAt: now }).where(and(eq(articles.id, input.id), eq(articles.museumId, museumId)));
    return { type: "article" as const, id: input.id, deletedAt: now };
  }
  const index = await loadFolderIndex(db, museumId);
  const folder = index.liveChild(index.resolve(input.pathArray), input.id);
  if (!folder) throw notFound(`Folder ${input.id}`, "id");
  await db.update(folders).set({ deletedAt: now }).where(and(eq(folders.id, folder.id), eq(folders.museumId, museumId)));
  return { type: "folder" as const, id: input.id, deletedAt: now };
}

export type MoveInput =
  | { type: "article"; itemId: number; fromPathArray: string[]; toPathArray: string[]; toFolderId: string | null }
  | { type: "folder"; itemId: string; fromPathArray: string[]; toPathArray: string[]; toFolderId: string | null };

export async function moveItem(db: Database, museumId: number, input: MoveInput) {
  const index = await loadFolderIndex(db, museumId);
  const destination = input.toFolderId === null ? null : index.resolve([...input.toPathArray, input.toFolderId], "toFolderId");

  if (input.type === "article") {
    const article = await findLiveArticle(db, museumId, input.itemId);
    if (!index.isLive(article.folderId)) throw notFound("Article", "itemId");
    await db
      .update(articles)
      .set({ folderId: destination, updatedAt: Date.now() })
      .where(and(eq(articles.id, article.id), eq(articles.museumId, museumId)));
    return { type: "article" as const, id: article.id, pathArray: index.path(destination) };
  }

  const folder = index.liveChild(index.resolve(input.fromPathArray, "fromPathArray"), input.itemId);
  if (!folder) throw notFound(`Folder ${input.itemId}`, "itemId");
  if (destination !== null && (destination === folder.id || index.descendants(folder.id).has(destination))) {
    throw new ApiError(400, "invalid_input", "A folder cannot move into itself or into one of its folders", "toFolderId");
  }
  if (folder.parentId !== destination) {
    index.assertNameFree(destination, folder.name, "itemId");
    await db.update(folders).set({ parentId: destination }).where(and(eq(folders.id, folder.id), eq(folders.museumId, museumId)));
  }
  return { type: "folder" as const, id: folder.name, pathArray: index.path(destination) };
}

export async function readArticle(db: Database, museumId: number, articleId: number) {
  const row = await findLiveArticle(db, museumId, articleId);
  const index = await loadFolderIndex(db, museumId);
  if (!index.isLive(row.folderId)) throw notFound("Article", "articleId");
  return {
    id: row.id,
    name: row.slug,
    unformatted_name: row.unformattedName,
    content: JSON.parse(row.content) as unknown[],
    version: row.version,
    updated_at: row.updatedAt,
    pathArray: index.path(row.folderId),
  };
}
