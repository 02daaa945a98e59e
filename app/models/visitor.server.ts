import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { parseStoredContent, type ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { articles, glossaryTerms, media, museums, qrcodes } from "~/db/schema";
import type { GlossaryTerm } from "~/translation/glossary";
import type { SnapshotNarrations } from "~/narration/narrations.server";
import { MEDIA_PREFIX as PUBLIC_MEDIA_PREFIX } from "~/content/urls";
import { loadFolderIndex } from "./tree.server";

export interface VisitorMuseum {
  id: number;
  name: string;
  slug: string;
  sourceLang: string;
  /** Set while an operator has suspended the museum (decision 147): its pages say it is unavailable. */
  suspendedAt: number | null;
  /** Set once an operator closed the museum (decision 148): its pages say the guide is gone (410). */
  closedAt?: number | null;
  /** The museum's own monthly bound on answers to visitors' questions (decision 151): 0 hides the form. */
  questionsMonthly?: number | null;
}

export interface VisitorArticle {
  id: number;
  slug: string;
  name: string;
  content: ArticleContent;
}

/** What a visitor address leads to; `article` is null for a code that leads nowhere yet. */
export interface VisitorTarget {
  museum: VisitorMuseum;
  article: VisitorArticle | null;
  /**
   * The address leads to a live article that was never published (decision 041): visitors get the
   * "not available yet" page. Absent in snapshots made before publishing existed (read as false).
   */
  unpublished?: boolean;
  qrcodeId: number | null;
  /** The museum's glossary, read alongside (it is part of a cached page's key). */
  glossary: GlossaryTerm[];
  /** Intrinsic sizes of the article's images, by src (read with it, so a cached view needs no D1). */
  images: Record<string, { width: number; height: number }>;
  /** The article's approved easy-to-read version (decision 094), kept in the snapshot; absent or null when none. */
  easyRead?: ArticleContent | null;
  /**
   * The article's narrations by language (decision 098), kept in the snapshot so a cached view reads no D1;
   * absent in snapshots made before it (read as none).
   */
  narrations?: SnapshotNarrations;
}

/** Every `src` of the content (images, audio, video, subtitles), nested details included. */
export function collectSrcs(content: ArticleContent): string[] {
  const srcs: string[] = [];
  const visit = (element: { type: string; src?: string; details?: unknown }) => {
    if (typeof element.src === "string" && element.src !== "") srcs.push(element.src);
    if (Array.isArray(element.details)) element.details.forEach(visit);
  };
  content.forEach(visit);
  return srcs;
}

async function imagesOf(db: Database, museumId: number, article: VisitorArticle | null): Promise<VisitorTarget["images"]> {
  return article ? Object.fromEntries(await imageSizes(db, museumId, collectSrcs(article.content))) : {};
}

const glossaryColumns = { term: glossaryTerms.term, targetLang: glossaryTerms.targetLang, translation: glossaryTerms.translation };

function glossaryOf(rows: { term: string; targetLang: string; translation: string }[]): GlossaryTerm[] {
  return rows.map((row) => ({
    term: row.term,
    lang: row.targetLang === "" ? null : row.targetLang,
    translation: row.targetLang === "" ? null : row.translation,
  }));
}

/** Every glossary term of the museum, as the visitor's translation applies them (a tour page needs them all). */
export async function museumGlossary(db: Database, museumId: number): Promise<GlossaryTerm[]> {
  return glossaryOf(await db.select(glossaryColumns).from(glossaryTerms).where(eq(glossaryTerms.museumId, museumId)));
}

const museumColumns = {
  id: museums.id,
  name: museums.name,
  slug: museums.slug,
  sourceLang: museums.sourceLang,
  suspendedAt: museums.suspendedAt,
  closedAt: museums.closedAt,
  questionsMonthly: museums.questionsMonthly,
};

/** `content` is what visitors see: the published content (null = never published), or the draft for a staff preview. */
type ArticleRow = { id: number; slug: string; name: string; content: string | null; folderId: number | null };

/** Visitors read the published content only (decision 041); a staff preview of the draft reads the draft. */
export type ContentSide = "published" | "draft";

const articleColumns = (side: ContentSide) => ({
  id: articles.id,
  slug: articles.slug,
  name: articles.unformattedName,
  content: side === "draft" ? articles.content : articles.publishedContent,
  folderId: articles.folderId,
});

interface Live {
  article: VisitorArticle | null;
  /** A live article that has no published content yet. */
  unpublished: boolean;
}

/** The row as a visitor article, unless it sits in a trashed folder (then it is in the trash too) or was never published. */
async function liveOrNull(db: Database, museumId: number, row: ArticleRow | null): Promise<Live> {
  if (!row) return { article: null, unpublished: false };
  if (row.folderId !== null && !(await loadFolderIndex(db, museumId)).isLive(row.folderId)) return { article: null, unpublished: false };
  if (row.content === null) return { article: null, unpublished: true };
  return { article: { id: row.id, slug: row.slug, name: row.name, content: parseStoredContent(row.content, row.slug) }, unpublished: false };
}

async function liveArticle(db: Database, museumId: number, where: ReturnType<typeof and>, side: ContentSide): Promise<Live> {
  const row = await db
    .select(articleColumns(side))
    .from(articles)
    .where(and(eq(articles.museumId, museumId), isNull(articles.deletedAt), where))
    .get();
  return liveOrNull(db, museumId, row ?? null);
}

/** The code printed as `/r/{link}`: null when no code has this link. One query for code, museum and article. */
export async function targetForLink(db: Database, link: string): Promise<VisitorTarget | null> {
  // Two statements side by side rather than one D1 batch: a batch returns rows as objects, and the joined
  // tables' same-named columns (id, name, slug) would overwrite each other.
  const [rows, terms] = await Promise.all([
    db
      .select({
        qrcodeId: qrcodes.id,
        museum: museumColumns,
        article: articleColumns("published"),
      })
      .from(qrcodes)
      .innerJoin(museums, eq(museums.id, qrcodes.museumId))
      .leftJoin(articles, and(eq(articles.id, qrcodes.articleId), eq(articles.museumId, qrcodes.museumId), isNull(articles.deletedAt)))
      .where(eq(qrcodes.link, link)),
    db
      .select(glossaryColumns)
      .from(glossaryTerms)
      .where(eq(glossaryTerms.museumId, db.select({ id: qrcodes.museumId }).from(qrcodes).where(eq(qrcodes.link, link)))),
  ]);
  const row = rows[0];
  if (!row) return null;
  const { article, unpublished } = await liveOrNull(db, row.museum.id, row.article);
  return { museum: row.museum, article, unpublished, qrcodeId: row.qrcodeId, glossary: glossaryOf(terms), images: await imagesOf(db, row.museum.id, article) };
}

/**
 * The editor's public page `/v/{museum}/{slug}`: null unless both exist and the article is live. Visitors
 * get the published content (`article: null, unpublished: true` when never published); `side: "draft"` is
 * the staff preview of the draft (the route checks the session first; never kept in a snapshot).
 */
export async function targetForSlug(db: Database, museumSlug: string, slug: string, side: ContentSide = "published"): Promise<VisitorTarget | null> {
  const [museumRows, terms] = await Promise.all([
    db.select(museumColumns).from(museums).where(eq(museums.slug, museumSlug)),
    db
      .select(glossaryColumns)
      .from(glossaryTerms)
      .where(eq(glossaryTerms.museumId, db.select({ id: museums.id }).from(museums).where(eq(museums.slug, museumSlug)))),
  ]);
  const museum = museumRows[0];
  if (!museum) return null;
  const { article, unpublished } = await liveArticle(db, museum.id, eq(articles.slug, slug), side);
  if (!article && !unpublished) return null;
  return { museum, article, unpublished, qrcodeId: null, glossary: glossaryOf(terms), images: await imagesOf(db, museum.id, article) };
}

/** The museum's subtitle file served at this `/media/…` address, for translating its cues. */
export async function subtitlesMedia(db: Database, src: string) {
  if (!src.startsWith(PUBLIC_MEDIA_PREFIX)) return null;
  return db
    .select({ key: media.r2Key, museumId: media.museumId, sourceLang: museums.sourceLang })
    .from(media)
    .innerJoin(museums, eq(museums.id, media.museumId))
    .where(and(eq(media.r2Key, src.slice(PUBLIC_MEDIA_PREFIX.length)), eq(media.kind, "subtitles")))
    .get();
}

/** Intrinsic sizes of the museum's images among these addresses, for width/height attributes. */
export async function imageSizes(db: Database, museumId: number, srcs: readonly string[]) {
  const keys = [...new Set(srcs.filter((src) => src.startsWith(PUBLIC_MEDIA_PREFIX)).map((src) => src.slice(PUBLIC_MEDIA_PREFIX.length)))].slice(0, 90);
  const sizes = new Map<string, { width: number; height: number }>();
  if (keys.length === 0) return sizes;
  const rows = await db
    .select({ key: media.r2Key, width: media.width, height: media.height })
    .from(media)
    .where(and(eq(media.museumId, museumId), inArray(media.r2Key, keys), isNotNull(media.width), isNotNull(media.height)))
    .all();
  for (const row of rows) if (row.width && row.height) sizes.set(PUBLIC_MEDIA_PREFIX + row.key, { width: row.width, height: row.height });
  return sizes;
}
