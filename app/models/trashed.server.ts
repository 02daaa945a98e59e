import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { loadFolderIndex } from "./tree.server";

// What a staff page that found nothing can say more (decision 136): the article or folder asked for is in the
// trash, where it can be restored, rather than unknown. Asked only once a page already answers 404.

/** Whether the museum's article `articleId` is in the trash: deleted itself, or inside a deleted folder. */
export async function isArticleInTrash(db: Database, museumId: number, articleId: number): Promise<boolean> {
  const row = await db
    .select({ deletedAt: articles.deletedAt, folderId: articles.folderId })
    .from(articles)
    .where(and(eq(articles.id, articleId), eq(articles.museumId, museumId)))
    .get();
  if (!row) return false;
  if (row.deletedAt !== null) return true;
  return !(await loadFolderIndex(db, museumId)).isLive(row.folderId);
}

/** Whether the folder path (names from the root) names no live folder of the museum but one in the trash. */
export async function isFolderPathInTrash(db: Database, museumId: number, path: readonly string[]): Promise<boolean> {
  if (path.length === 0) return false;
  return (await loadFolderIndex(db, museumId)).pathInTrash(path);
}
