import { and, eq, isNull } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles } from "~/db/schema";
import { DomainError, isUniqueViolation, notFound } from "~/errors";
import { auditWhenChanged, type AuditActor } from "~/audit/log.server";
import { findLiveArticle, liveArticleWhere } from "~/models/live-article.server";

/**
 * Stop numbers (issue 21, decisions 076 and 083): the short number printed under an article's code and
 * typed on the keypad, 1–9999, unique among the museum's articles. The partial unique index
 * `articles_museum_stop_number_unique` decides between parallel claims: exactly one wins, the others get
 * a 409 naming the article that holds the number. Trashing an article frees its number (tree.server's
 * deleteItem, in the same batch); restoring it does not take the number back.
 */

/** 409 `name_taken` on `stopNumber`, naming the article that holds the number (the API adds it to the body). */
export class StopNumberTaken extends DomainError {
  constructor(
    readonly stopNumber: number,
    readonly holder: { id: number; name: string } | null,
  ) {
    super(
      "conflict",
      holder ? `Stop number ${stopNumber} is already the article ${JSON.stringify(holder.name)}'s` : `Stop number ${stopNumber} is already taken`,
      "stopNumber",
      "name_taken",
    );
  }
}

async function holderOf(db: Database, museumId: number, stopNumber: number) {
  const row = await db
    .select({ id: articles.id, name: articles.unformattedName })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), eq(articles.stopNumber, stopNumber)))
    .get();
  return row ?? null;
}

export async function updateStopNumber(
  db: Database,
  museumId: number,
  input: { articleId: number; stopNumber: number | null },
  actor: AuditActor,
): Promise<{ articleId: number; stopNumber: number | null }> {
  const { unformattedName: name, ...article } = await findLiveArticle(db, museumId, input.articleId);
  if (article.stopNumber === input.stopNumber) return { articleId: article.id, stopNumber: article.stopNumber };
  if (input.stopNumber !== null) {
    const holder = await holderOf(db, museumId, input.stopNumber);
    if (holder && holder.id !== article.id) throw new StopNumberTaken(input.stopNumber, holder);
  }
  try {
    const [updated] = await db.batch([
      db
        .update(articles)
        .set({ stopNumber: input.stopNumber })
        .where(and(eq(articles.id, article.id), eq(articles.museumId, museumId), liveArticleWhere(museumId)))
        .returning({ id: articles.id }),
      auditWhenChanged(db, {
        museumId,
        actor,
        action: "article.stop_number",
        target: `article:${article.id}`,
        detail: { name, stopNumber: input.stopNumber, previous: article.stopNumber },
      }),
    ]);
    if (updated.length === 0) throw notFound("Article", "articleId");
  } catch (error) {
    // Another article took the number between the check and the write: the unique index decided.
    if (isUniqueViolation(error) && input.stopNumber !== null) throw new StopNumberTaken(input.stopNumber, await holderOf(db, museumId, input.stopNumber));
    throw error;
  }
  return { articleId: article.id, stopNumber: input.stopNumber };
}

/** The museum's numbered articles (live or trashed-with-folder), for the staff pages: number → article. */
export async function numberedArticles(db: Database, museumId: number) {
  return db
    .select({ id: articles.id, name: articles.unformattedName, stopNumber: articles.stopNumber })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), isNull(articles.deletedAt)))
    .all()
    .then((rows) => rows.filter((r): r is { id: number; name: string; stopNumber: number } => r.stopNumber !== null));
}
