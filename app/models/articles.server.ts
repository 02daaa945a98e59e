import { CONTENT_MAX_BYTES, contentByteSize } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { conflict, DomainError, isUniqueViolation } from "~/errors";
import type { UpdateArticleInput } from "./article-input";
import { findLiveArticle, liveArticleSql } from "./live-article.server";
import { requireOwnMedia } from "./media.server";
import { staleVersion } from "./stale-version.server";
import type { AuditActor } from "~/audit/log.server";
import { articleSavedAudit } from "./tree-audit.server";

/**
 * Saves an article's content, private name and address in one conditional statement: it applies only
 * while the article is live and, when the editor sent the version it loaded, only if nobody saved since.
 * Of two editors saving the same version, one wins and the other gets 409 instead of overwriting. With an
 * `actor`, the save is recorded in the audit log in the same batch (decision 124).
 */
export async function updateArticle(db: Database, museumId: number, input: UpdateArticleInput, userId: number | null = null, actor?: AuditActor) {
  if (contentByteSize(input.newContent) > CONTENT_MAX_BYTES) {
    throw new DomainError("too_large", `An article's content holds at most ${CONTENT_MAX_BYTES} bytes`, "newContent", "too_long");
  }
  const current = await findLiveArticle(db, museumId, input.articleId);
  await requireOwnMedia(db, museumId, input.newContent, (path) => `newContent.${path}`);

  const first = input.newContent[0];
  // The schema guarantees metadatas first; the check only narrows the type.
  if (first?.type !== "metadatas") throw new DomainError("invalid_input", "The content starts with its metadatas", "newContent.0.type", "invalid");
  const slug = first.url;
  const name = input.unformatted_name ?? current.unformattedName;
  const now = Date.now();
  let row: { version: number; updated_at: number } | null;
  try {
    const update = db.$client
      .prepare(
        `UPDATE articles SET content = ?1, unformatted_name = ?2, slug = ?3, version = version + 1, updated_at = ?4, updated_by = ?8
         WHERE id = ?5 AND museum_id = ?6 AND ${liveArticleSql("articles", "?6")} AND (?7 IS NULL OR version = ?7)
         RETURNING version, updated_at`,
      )
      .bind(JSON.stringify(input.newContent), name, slug, now, input.articleId, museumId, input.version ?? null, userId);
    const [saved] = await db.$client.batch<{ version: number; updated_at: number }>(
      actor ? [update, articleSavedAudit(db.$client, museumId, actor, input.articleId, now)] : [update],
    );
    row = saved?.results[0] ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("newContent.0.url", "Another article of the museum has this address");
    throw error;
  }
  if (!row) {
    throw await staleVersion(db, museumId, "article", await findLiveArticle(db, museumId, input.articleId));
  }
  return { id: input.articleId, name: slug, unformatted_name: name, version: row.version, updated_at: row.updated_at };
}
