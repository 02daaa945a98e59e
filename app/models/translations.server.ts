import { chunks, IN_LIST_MAX } from "~/db/chunks";
import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { translationFailures, translationMemory, translationReviews } from "~/db/schema";
import { articleCatalogue, type SubtitleReader } from "~/translation/catalogue.server";
import { renderedTranslationPrefix } from "~/translation/segments";
import { MEDIA_PREFIX } from "~/content/urls";
import { readArticle } from "./tree.server";
import { auditStatement, type AuditActor } from "~/audit/log.server";

// D1 allows 100 bound parameters per statement; the museum id takes one.
const HASHES_PER_STATEMENT = IN_LIST_MAX;

/**
 * The spec's "reset translations": forgets every language's translation of the article's segments
 * (machine and staff-edited alike, after the editor's confirmation) and drops its rendered pages from
 * the KV cache, so the next visitor gets a fresh translation. Staff reviews of the article go too. A segment shared with another article
 * of the museum is forgotten for both: the memory is per text, not per article.
 */
export async function resetArticleTranslations(
  db: Database,
  kv: KVNamespace,
  museumId: number,
  articleId: number,
  actor: AuditActor,
  readSubtitles: SubtitleReader,
) {
  const article = await readArticle(db, museumId, articleId);
  // The published text's segments and the draft's (decision 041), their videos' subtitle lines included
  // (decision 050): a reset forgets them all.
  const entries = [
    ...(await articleCatalogue(article.content, readSubtitles)),
    ...(article.published ? await articleCatalogue(article.published.content, readSubtitles) : []),
  ];
  const hashes = [...new Set(entries.map((e) => e.hash))];
  const files = new Set(entries.flatMap((e) => (e.cue ? [e.cue.file] : [])));
  // One D1 batch (one transaction): a correction saved meanwhile goes with its review row or stays with it.
  const memoryDeletes = chunks(hashes, HASHES_PER_STATEMENT).map((chunk) =>
    db
      .delete(translationMemory)
      .where(and(eq(translationMemory.museumId, museumId), inArray(translationMemory.sourceHash, chunk)))
      .returning({ hash: translationMemory.sourceHash }),
  );
  // Every language's remembered failures of these segments go too: the next view asks the engines (decision 030).
  const failureDeletes = chunks(hashes, HASHES_PER_STATEMENT).map((chunk) =>
    db.delete(translationFailures).where(and(eq(translationFailures.museumId, museumId), inArray(translationFailures.sourceHash, chunk))),
  );
  const results = await db.batch([
    db.delete(translationReviews).where(and(eq(translationReviews.museumId, museumId), eq(translationReviews.articleId, articleId))),
    ...memoryDeletes,
    ...failureDeletes,
    auditStatement(db, {
      museumId,
      actor,
      action: "translations.reset",
      target: `article:${articleId}`,
      detail: { name: article.unformatted_name, languages: "all" },
    }),
  ]);
  const deleted = results.slice(1, 1 + memoryDeletes.length).reduce((n, rows) => n + (rows as unknown[]).length, 0);
  await Promise.all([dropCachedPages(kv, articleId), ...[...files].map((file) => dropKvPrefix(kv, `vtt:v1:${file.slice(MEDIA_PREFIX.length)}:`))]);
  return { articleId, deleted };
}

/** Deletes the article's rendered pages from KV: in one language, or in all. */
export async function dropCachedPages(kv: KVNamespace, articleId: number, lang?: string) {
  await dropKvPrefix(kv, lang === undefined ? renderedTranslationPrefix(articleId) : `${renderedTranslationPrefix(articleId)}${lang}:`);
}

/** Deletes every KV entry under `prefix` (cached pages, translated subtitle files). */
export async function dropKvPrefix(kv: KVNamespace, prefix: string) {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix, cursor });
    await Promise.all(page.keys.map((key) => kv.delete(key.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}
