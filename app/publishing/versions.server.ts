// An article's history (issue 18 §3, decision 042): every publication is a version (a row of
// `article_versions`, written by the publish call). Staff list them, read one, and restore one as the new
// draft; the daily cron prunes old versions past what is kept.
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { and, desc, eq, inArray } from "drizzle-orm";
import { CONTENT_MAX_BYTES, contentByteSize, parseStoredContent, type ArticleContent } from "~/content/schema";
import { MEDIA_PREFIX } from "~/content/urls";
import type { Database } from "~/db/client.server";
import { chunks, IN_LIST_MAX } from "~/db/chunks";
import { articleVersions, media } from "~/db/schema";
import { DomainError, notFound } from "~/errors";
import { auditStatement, type AuditActor } from "~/audit/log.server";
import { requireOwnMedia } from "~/models/media.server";
import { findLiveArticle, liveArticleSql } from "~/models/live-article.server";

/** Every article keeps at least its newest 50 versions … */
export const VERSIONS_KEPT = 50;
/** … and, beyond them, those published in the last 90 days … */
export const VERSIONS_RECENT_MS = 90 * 24 * 60 * 60 * 1000;
/** … up to 200 in all (an article republished every hour must not grow without end). */
export const VERSIONS_CEILING = 200;
/** Rows one prune statement deletes at most; the cron repeats it. */
const PRUNE_BATCH = 2000;

export interface VersionSummary {
  number: number;
  publishedAt: number;
  /** Who published it; null for versions made before history (the migration's version 1). */
  publishedBy: { id: number | null; email: string } | null;
  note: string;
  /** The article's private name when it was published. */
  name: string;
  /** The version visitors see now (the newest, while the article is published). */
  current: boolean;
}

type VersionRow = Pick<typeof articleVersions.$inferSelect, "number" | "publishedAt" | "publishedBy" | "publishedByEmail" | "note" | "name">;

function summary(row: VersionRow, current: number | null): VersionSummary {
  return {
    number: row.number,
    publishedAt: row.publishedAt,
    publishedBy: row.publishedBy === null && row.publishedByEmail === "" ? null : { id: row.publishedBy, email: row.publishedByEmail },
    note: row.note,
    name: row.name,
    current: row.number === current,
  };
}

/** The museum's live article (decision 134), else 404 on `id`. */
const findArticle = (db: Database, museumId: number, articleId: number) => findLiveArticle(db, museumId, articleId, "id");

async function newestNumber(db: Database, museumId: number, articleId: number): Promise<number | null> {
  const row = await db
    .select({ number: articleVersions.number })
    .from(articleVersions)
    .where(and(eq(articleVersions.articleId, articleId), eq(articleVersions.museumId, museumId)))
    .orderBy(desc(articleVersions.number))
    .limit(1);
  return row[0]?.number ?? null;
}

const VERSION_COLUMNS = {
  number: articleVersions.number,
  publishedAt: articleVersions.publishedAt,
  publishedBy: articleVersions.publishedBy,
  publishedByEmail: articleVersions.publishedByEmail,
  note: articleVersions.note,
  name: articleVersions.name,
};

/** The article's versions, newest first, with where its draft stands. */
export async function listArticleVersions(db: Database, museumId: number, articleId: number) {
  const article = await findArticle(db, museumId, articleId);
  const rows = await db
    .select(VERSION_COLUMNS)
    .from(articleVersions)
    .where(and(eq(articleVersions.articleId, articleId), eq(articleVersions.museumId, museumId)))
    .orderBy(desc(articleVersions.number))
    .limit(VERSIONS_CEILING * 5);
  const current = article.publishedContent === null ? null : (rows[0]?.number ?? null);
  return {
    id: article.id,
    name: article.unformattedName,
    slug: article.slug,
    draft: { version: article.version, hasDraft: article.publishedContent === null || article.version !== article.publishedVersion },
    published: article.publishedContent !== null,
    versions: rows.map((row) => summary(row, current)),
  };
}

/** One version with its content (mended on read like every stored content). */
export async function readArticleVersion(db: Database, museumId: number, articleId: number, number: number) {
  const article = await findArticle(db, museumId, articleId);
  const [row, newest] = await Promise.all([
    db.query.articleVersions.findFirst({
      where: and(eq(articleVersions.articleId, articleId), eq(articleVersions.museumId, museumId), eq(articleVersions.number, number)),
    }),
    newestNumber(db, museumId, articleId),
  ]);
  if (!row) throw notFound("Version", "version");
  const current = article.publishedContent === null ? null : newest;
  return { id: article.id, ...summary(row, current), content: parseStoredContent(row.content, article.slug) };
}

/** The article's draft and published contents, for comparing them with a version or each other. */
export async function readArticleSides(db: Database, museumId: number, articleId: number) {
  const article = await findArticle(db, museumId, articleId);
  return {
    draft: parseStoredContent(article.content, article.slug),
    published: article.publishedContent === null ? null : parseStoredContent(article.publishedContent, article.slug),
  };
}

/** The `/media/…` files a content uses (images, videos, subtitles, link and legend images), as R2 keys. */
export function mediaKeys(content: ArticleContent): string[] {
  const keys = new Set<string>();
  const add = (src: string) => {
    if (src.startsWith(MEDIA_PREFIX)) keys.add(src.slice(MEDIA_PREFIX.length));
  };
  const visit = (element: ArticleContent[number]) => {
    if ("src" in element) add(element.src);
    if (element.type === "video") add(element.subtitles);
    if (element.type === "accordion") element.details.forEach(visit);
  };
  content.forEach(visit);
  return [...keys];
}

/** Of these media keys, those the museum no longer has (a file of a purged article, say). */
async function missingMedia(db: Database, museumId: number, keys: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const part of chunks(keys, IN_LIST_MAX - 1)) {
    const rows = await db
      .select({ key: media.r2Key })
      .from(media)
      .where(and(eq(media.museumId, museumId), inArray(media.r2Key, part)));
    for (const row of rows) found.add(row.key);
  }
  return keys.filter((key) => !found.has(key)).map((key) => `${MEDIA_PREFIX}${key}`);
}

/**
 * Makes a version's content the article's new draft: the draft counter goes up (an editor still on the old
 * draft gets 409 when saving), nothing reaches visitors until someone publishes. The article keeps its
 * current address (QR codes and links use it; another article may hold the old one). Two restores at once
 * both apply, in turn: the later one is the draft. The audit entry is written in the same transaction.
 */
export async function restoreArticleVersion(db: Database, museumId: number, actor: AuditActor, input: { id: number; version: number }, now = Date.now()) {
  const article = await findArticle(db, museumId, input.id);
  const row = await db.query.articleVersions.findFirst({
    where: and(eq(articleVersions.articleId, input.id), eq(articleVersions.museumId, museumId), eq(articleVersions.number, input.version)),
  });
  if (!row) throw notFound("Version", "version");
  const content = parseStoredContent(row.content, article.slug);
  if (contentByteSize(content) > CONTENT_MAX_BYTES) {
    throw new DomainError("too_large", `An article's content holds at most ${CONTENT_MAX_BYTES} bytes`, "version", "too_long");
  }
  // A version saved before media references were checked (decision 114) may name another museum's file.
  await requireOwnMedia(db, museumId, content, () => "version");
  const d1 = db.$client;
  const audit = auditStatement(db, {
    museumId,
    actor,
    action: "article.restore_version",
    target: `article:${input.id}`,
    detail: { version: input.version, name: article.unformattedName },
    at: now,
  }).toSQL();
  let results;
  try {
    results = await d1.batch<{ version: number; updated_at: number }>([
      // The current address goes into the restored metadatas in the same statement that writes it.
      d1
        .prepare(
          `UPDATE articles SET content = json_set(?1, '$[0].url', slug), version = version + 1, updated_at = ?2, updated_by = ?3
           WHERE id = ?4 AND museum_id = ?5 AND ${liveArticleSql("articles", "?5")} RETURNING version, updated_at`,
        )
        .bind(JSON.stringify(content), now, actor.id, input.id, museumId),
      abortUnlessChanged(d1),
      d1.prepare(audit.sql).bind(...audit.params),
    ]);
  } catch (error) {
    if (lostRace(error)) throw notFound("Article", "id");
    throw error;
  }
  const updated = results[0]?.results[0];
  if (!updated) throw notFound("Article", "id");
  return {
    id: input.id,
    restoredFrom: input.version,
    /** The new draft version (send it with the next `update_article` or `publish_article`). */
    version: updated.version,
    updatedAt: updated.updated_at,
    published: false,
    message: `Version ${input.version} is now the draft; visitors see it once it is published.`,
    /** Files the version uses that no longer exist: they show as missing until replaced. */
    missingMedia: await missingMedia(db, museumId, mediaKeys(content)),
  };
}

/**
 * The daily prune: every article keeps its newest `VERSIONS_KEPT` versions, and beyond them those of the
 * last 90 days up to `VERSIONS_CEILING`. Deletes in rounds so one statement stays short; returns the count.
 */
export async function pruneArticleVersions(db: Database, now = Date.now()): Promise<number> {
  const statement = db.$client.prepare(
    `DELETE FROM article_versions WHERE (article_id, number) IN (
       SELECT article_id, number FROM (
         SELECT article_id, number, published_at,
                ROW_NUMBER() OVER (PARTITION BY article_id ORDER BY number DESC) AS rank
         FROM article_versions
       ) WHERE rank > ?1 AND (published_at < ?2 OR rank > ?3)
       LIMIT ?4
     )`,
  );
  let deleted = 0;
  for (let round = 0; round < 50; round++) {
    const result = await statement.bind(VERSIONS_KEPT, now - VERSIONS_RECENT_MS, VERSIONS_CEILING, PRUNE_BATCH).run();
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < PRUNE_BATCH) break;
  }
  return deleted;
}
