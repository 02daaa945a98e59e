// What XLIFF export and import read (decision 058): the museum's live articles with the content that is
// reviewed (the published text, or the draft of an article never published: decision 041), each one's
// catalogue (subtitle cues included), and the translation state in one language (memory and reviews).
import { and, eq, inArray } from "drizzle-orm";
import { chunks, IN_LIST_MAX } from "~/db/chunks";
import type { Database } from "~/db/client.server";
import { articles, museums, translationMemory, translationReviews } from "~/db/schema";
import { notFound } from "~/errors";
import { parseStoredContent, type ArticleContent } from "~/content/schema";
import { liveArticleWhere } from "~/models/live-article.server";
import { loadFolderIndex } from "~/models/tree.server";
import { articleCatalogue, subtitleReader, type CatalogueEntry } from "~/translation/catalogue.server";

export interface LiveArticle {
  id: number;
  name: string;
  folderId: number | null;
  /** What is reviewed and translated for visitors: the published content, else the draft. */
  content: ArticleContent;
}

export type ExportScope = { articleId: number } | { folderId: number } | { museum: true };

export async function museumSourceLang(db: Database, museumId: number): Promise<{ sourceLang: string; slug: string }> {
  const row = await db.select({ lang: museums.sourceLang, slug: museums.slug }).from(museums).where(eq(museums.id, museumId)).get();
  if (!row) throw notFound("Museum");
  return { sourceLang: row.lang, slug: row.slug };
}

function liveRows(db: Database, museumId: number, ids?: readonly number[]) {
  return db
    .select({
      id: articles.id,
      name: articles.unformattedName,
      slug: articles.slug,
      folderId: articles.folderId,
      content: articles.content,
      published: articles.publishedContent,
    })
    .from(articles)
    .where(and(eq(articles.museumId, museumId), liveArticleWhere(museumId), ids ? inArray(articles.id, [...ids]) : undefined));
}

type Row = Awaited<ReturnType<typeof liveRows>>[number];

const toLive = (row: Row): LiveArticle => ({
  id: row.id,
  name: row.name,
  folderId: row.folderId,
  content: parseStoredContent(row.published ?? row.content, row.slug),
});

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: "base" }) || 0;

/**
 * The articles of an export: one article, a folder with everything below it, or the whole museum; only
 * live articles reachable from the root. Another museum's article or folder, or a trashed one, is a 404.
 */
export async function articlesInScope(db: Database, museumId: number, scope: ExportScope): Promise<{ articles: LiveArticle[]; label: string }> {
  const index = await loadFolderIndex(db, museumId);
  if ("articleId" in scope) {
    const [row] = await liveRows(db, museumId, [scope.articleId]);
    if (!row) throw notFound("Article", "articleId");
    return { articles: [toLive(row)], label: row.slug };
  }
  const rows = await liveRows(db, museumId);
  if ("folderId" in scope) {
    const folder = index.get(scope.folderId);
    if (!folder || !index.isLive(folder.id)) throw notFound("Folder", "folderId");
    const inside = index.descendants(folder.id);
    inside.add(folder.id);
    const picked = rows.filter((r) => r.folderId !== null && inside.has(r.folderId));
    return { articles: picked.map(toLive).sort(byName), label: folder.name };
  }
  return {
    articles: rows.map(toLive).sort(byName),
    label: "museum",
  };
}

/** Live, reachable articles of the museum among `ids` (another museum's ids are simply absent). */
export async function articlesById(db: Database, museumId: number, ids: readonly number[]): Promise<Map<number, LiveArticle>> {
  const found = new Map<number, LiveArticle>();
  if (ids.length === 0) return found;
  for (const chunk of chunks(ids, IN_LIST_MAX - 2)) {
    for (const row of await liveRows(db, museumId, chunk)) found.set(row.id, toLive(row));
  }
  return found;
}

/** Each article's catalogue, its subtitle files read from the museum's own uploads (two articles at a time). */
export async function catalogues(db: Database, bucket: R2Bucket, museumId: number, list: readonly LiveArticle[]): Promise<Map<number, CatalogueEntry[]>> {
  const read = subtitleReader(db, bucket, museumId);
  const out = new Map<number, CatalogueEntry[]>();
  const queue = [...list];
  const worker = async () => {
    for (let article = queue.shift(); article; article = queue.shift()) out.set(article.id, await articleCatalogue(article.content, read));
  };
  await Promise.all([worker(), worker()]);
  return out;
}

/** Past this many keys, the whole language is read at once. */
const MANY = 4 * IN_LIST_MAX;

export interface MemoryRow {
  lang: string;
  hash: string;
  text: string;
  origin: "machine" | "edited";
}

export interface ReviewRow {
  lang: string;
  segmentId: string;
  hash: string;
  source: string;
  text: string;
}

/** The memory rows in `lang` for these sources, by hash. */
export async function memoryByHash(
  db: Database,
  museumId: number,
  sourceLang: string,
  lang: string,
  hashes: readonly string[],
): Promise<Map<string, MemoryRow>> {
  const out = new Map<string, MemoryRow>();
  const wanted = new Set(hashes);
  // Many sources (a folder, the museum): one read of the language's rows beats hundreds of IN lists.
  for (const chunk of wanted.size > MANY ? [null] : chunks([...wanted], IN_LIST_MAX - 4)) {
    const rows = await db
      .select({ lang: translationMemory.targetLang, hash: translationMemory.sourceHash, text: translationMemory.text, origin: translationMemory.origin })
      .from(translationMemory)
      .where(
        and(
          eq(translationMemory.museumId, museumId),
          eq(translationMemory.sourceLang, sourceLang),
          eq(translationMemory.targetLang, lang),
          chunk ? inArray(translationMemory.sourceHash, chunk) : undefined,
        ),
      );
    for (const row of rows) if (wanted.has(row.hash)) out.set(row.hash, row);
  }
  return out;
}

/** The review rows in `lang` of these articles, by article then place. */
export async function reviewsByPlace(
  db: Database,
  museumId: number,
  lang: string,
  articleIds: readonly number[],
): Promise<Map<number, Map<string, ReviewRow>>> {
  const out = new Map<number, Map<string, ReviewRow>>();
  const wanted = new Set(articleIds);
  for (const chunk of wanted.size > MANY ? [null] : chunks([...wanted], IN_LIST_MAX - 3)) {
    const rows = await db
      .select({
        articleId: translationReviews.articleId,
        lang: translationReviews.targetLang,
        segmentId: translationReviews.segmentId,
        hash: translationReviews.sourceHash,
        source: translationReviews.sourceText,
        text: translationReviews.text,
      })
      .from(translationReviews)
      .where(
        and(
          eq(translationReviews.museumId, museumId),
          eq(translationReviews.targetLang, lang),
          chunk ? inArray(translationReviews.articleId, chunk) : undefined,
        ),
      );
    for (const { articleId, ...row } of rows) {
      if (!wanted.has(articleId)) continue;
      const places = out.get(articleId) ?? new Map<string, ReviewRow>();
      places.set(row.segmentId, row);
      out.set(articleId, places);
    }
  }
  return out;
}
