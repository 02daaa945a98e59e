// What "a live article" is, decided here and nowhere else (decision 134): the article is not in the trash, and
// neither is any folder above it. A folder whose chain of parents never reaches the root (a parent loop, a parent
// of another museum) is not live either. Staff paths answer 404 for anything else, as visitors' pages do.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { notFound } from "~/errors";
import type { FolderIndex } from "./folder-index.server";

/**
 * The rule as a SQL condition on the articles row named `alias` (`articles`, `a`…) of the museum `museum` (its
 * id, or a SQL expression: a bound parameter such as `?3`): for statements that must decide when they run, in
 * the same statement as their write, so a folder trashed meanwhile is seen. The live folders are those reachable
 * from the root through live folders of the museum (UNION ends a parent loop). With the museum given apart from
 * the row, the folders are walked once per statement, not once per row: a list of 1,000 articles under 300
 * folders takes about 6 ms, where a condition reading `alias.museum_id` took 2.7 s (sqlite3, decision 134).
 */
export function liveArticleSql(alias: string, museum: number | string): string {
  if (typeof museum === "number" && !Number.isSafeInteger(museum)) throw new Error(`not a museum id: ${museum}`);
  return `(${alias}.deleted_at IS NULL AND (${alias}.folder_id IS NULL OR ${alias}.folder_id IN (
    WITH RECURSIVE live_folder(id) AS (
      SELECT id FROM folders WHERE museum_id = ${museum} AND parent_id IS NULL AND deleted_at IS NULL
      UNION SELECT f.id FROM folders f JOIN live_folder p ON f.parent_id = p.id WHERE f.museum_id = ${museum} AND f.deleted_at IS NULL
    ) SELECT id FROM live_folder)))`;
}

/** The same condition for drizzle queries over the `articles` table (selects, updates, joins) of one museum. */
export function liveArticleWhere(museumId: number): SQL {
  return sql.raw(liveArticleSql(`"articles"`, museumId));
}

/** The same rule over rows already read, with the museum's folder index (lists that need the index anyway). */
export function isLiveArticle(row: { deletedAt: number | null; folderId: number | null }, index: FolderIndex): boolean {
  return row.deletedAt === null && index.isLive(row.folderId);
}

export type ArticleRow = typeof articles.$inferSelect;

/** The museum's live article, or a 404 naming `field`. */
export async function findLiveArticle(db: Database, museumId: number, articleId: number, field = "articleId"): Promise<ArticleRow> {
  const row = await db
    .select()
    .from(articles)
    .where(and(eq(articles.id, articleId), eq(articles.museumId, museumId), liveArticleWhere(museumId)))
    .get();
  if (!row) throw notFound("Article", field);
  return row;
}

/** 404 naming `field` unless the article is the museum's and live; reads nothing else. */
export async function requireLiveArticle(db: Database, museumId: number, articleId: number, field = "articleId"): Promise<void> {
  const row = await db
    .select({ id: articles.id })
    .from(articles)
    .where(and(eq(articles.id, articleId), eq(articles.museumId, museumId), liveArticleWhere(museumId)))
    .get();
  if (!row) throw notFound("Article", field);
}
