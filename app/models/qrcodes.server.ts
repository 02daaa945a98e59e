import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, qrcodes } from "~/db/schema";
import { loadFolderIndex } from "./tree.server";

/**
 * The article a QR code leads to, or null when the code is inactive: no linked article, or an article
 * in the trash (itself or through a trashed folder). Restoring the article makes the code active again,
 * since nothing about the code itself changed.
 */
export async function activeArticleForLink(db: Database, link: string) {
  const row = await db
    .select({ museumId: qrcodes.museumId, articleId: articles.id, slug: articles.slug, folderId: articles.folderId })
    .from(qrcodes)
    .innerJoin(articles, and(eq(articles.id, qrcodes.articleId), eq(articles.museumId, qrcodes.museumId), isNull(articles.deletedAt)))
    .where(eq(qrcodes.link, link))
    .get();
  if (!row) return null;
  const index = await loadFolderIndex(db, row.museumId);
  return index.isLive(row.folderId) ? { museumId: row.museumId, articleId: row.articleId, slug: row.slug } : null;
}
