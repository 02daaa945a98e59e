// The D1 half of an import (decision 063): the archive's rows under new ids, every reference mapped, media
// addresses rewritten to the new keys, QR codes kept where their link is free here. One batch: all or nothing.
import { claimLinks, claimNewLink } from "~/shards/directory.server";
import { z } from "zod";
import { auditD1, type AuditActor } from "~/audit/log.server";
import { articleContentSchema } from "~/content/schema";
import { mediaReferences, type MediaReference } from "~/content/media-refs";
import { MEDIA_PREFIX } from "~/content/urls";
import { chunks, rowsPerStatement } from "~/db/chunks";
import { lostRace } from "~/db/guards";
import { DomainError, isUniqueViolation } from "~/errors";
import { dayNumber } from "~/lib/dates";
import { randomLink } from "~/models/qrcodes.server";
import { DATA_FILES, OPTIONAL_DATA_FILES, type Manifest } from "./format";
import { archiveError } from "./import.server";
import * as r from "./rows";
import { OCCUPYING_TABLES } from "./tables";

export const museumNotEmpty = () =>
  new DomainError(
    "conflict",
    "An archive is imported only into an empty museum (no article, folder, QR code, tour, easy-to-read version or narration, even in the trash)",
    "museum",
    "museum_not_empty",
  );

// A museum holding a row in any table that "occupies" it (decision 135: folders, articles, QR codes, tours,
// easy-to-read versions, narrations) is not empty; the list is ARCHIVE_TABLES', not written here.
const USED = OCCUPYING_TABLES.map((table) => `EXISTS(SELECT 1 FROM ${table} WHERE museum_id = ?1)`).join(" OR ");
const EMPTY_CHECK = `SELECT ${USED} AS used`;
/** Fails the batch (malformed JSON, as `abortUnlessChanged` does) when the museum is no longer empty. */
const EMPTY_GUARD = `SELECT json(CASE WHEN ${USED} THEN 'lost' ELSE '0' END) AS guard`;

export async function assertMuseumEmpty(d1: D1Database, museumId: number) {
  const row = await d1.prepare(EMPTY_CHECK).bind(museumId).first<{ used: number }>();
  if (row?.used) throw museumNotEmpty();
}

function parseFile<T extends z.ZodTypeAny>(data: Map<string, Uint8Array>, path: string, row: T): z.infer<T>[] {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(data.get(path)));
  } catch {
    throw archiveError("archive_invalid", `${path} is not JSON`);
  }
  const parsed = z.array(row).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw archiveError("archive_invalid", `${path}: row ${String(issue.path[0] ?? "?")} is not valid (${issue.path.slice(1).join(".") || "row"})`);
  }
  return parsed.data;
}

export interface ImportReport {
  folders: number;
  articles: number;
  articleVersions: number;
  media: number;
  glossary: number;
  translationMemory: number;
  translationReviews: number;
  translationReports: number;
  dailyStats: number;
  tours: number;
  easyRead: number;
  narrations: number;
  qrcodes: { kept: string[]; changed: { from: string; to: string }[]; inactive: number };
  /** Scheduled publications are not carried over: they would publish under a member of the other museum. */
  schedulesDropped: number;
  /** Statistics rows of articles the archive does not hold (purged from the trash before the export). */
  statsDropped: number;
  /** `/media/…` addresses in content whose file the archive did not hold (left as they were). */
  unresolvedMedia: number;
}

/** Replaces each `/media/<old key>` string in the element list by the new key's address. */
function rewriteMedia(value: unknown, keys: Map<string, string>, unresolved: Set<string>): unknown {
  if (typeof value === "string") {
    if (!value.startsWith(MEDIA_PREFIX)) return value;
    const key = keys.get(value.slice(MEDIA_PREFIX.length));
    if (key) return `${MEDIA_PREFIX}${key}`;
    unresolved.add(value);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => rewriteMedia(v, keys, unresolved));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteMedia(v, keys, unresolved)]));
  return value;
}

/**
 * The `/media/…` references of the archive's content whose file it does not hold (an import keeps those as
 * written), each with where it sits (`article 12 published.3.src`).
 */
export function unbroughtMedia(rows: Parsed, mediaKeys: ReadonlyMap<string, string>): MediaReference[] {
  const contents: Record<string, unknown[] | null> = {};
  for (const a of rows.articles) {
    contents[`article ${a.id} draft`] = a.content;
    contents[`article ${a.id} published`] = a.publishedContent;
  }
  for (const v of rows.versions) contents[`article ${v.articleId} version ${v.number}`] = v.content;
  for (const e of rows.easyRead) {
    contents[`article ${e.articleId} easy-to-read draft`] = e.content;
    contents[`article ${e.articleId} easy-to-read approved`] = e.approvedContent;
  }
  return mediaReferences(contents).filter((ref) => !mediaKeys.has(ref.src.slice(MEDIA_PREFIX.length)));
}

function checkContent(content: unknown[], what: string) {
  if (!articleContentSchema.safeParse(content).success) throw archiveError("archive_invalid", `${what}: the content does not follow the content model`);
}

interface Parsed {
  folders: r.FolderRow[];
  articles: r.ArticleRow[];
  versions: r.ArticleVersionRow[];
  qrcodes: r.QrcodeRow[];
  glossary: r.GlossaryRow[];
  media: r.MediaRow[];
  memory: r.MemoryRow[];
  reviews: r.ReviewRow[];
  reports: r.ReportRow[];
  stats: r.StatRow[];
  tours: r.TourRow[];
  easyRead: r.EasyReadRow[];
  narrations: r.NarrationRow[];
}

export function parseArchiveData(data: Map<string, Uint8Array>): Parsed {
  const stats = r.parseStatsCsv(new TextDecoder().decode(data.get(DATA_FILES.dailyStats)));
  if (!stats) throw archiveError("archive_invalid", `${DATA_FILES.dailyStats} is not the statistics file this format writes`);
  const parsed: Parsed = {
    folders: parseFile(data, DATA_FILES.folders, r.folderRow),
    articles: parseFile(data, DATA_FILES.articles, r.articleRow),
    versions: parseFile(data, DATA_FILES.articleVersions, r.articleVersionRow),
    qrcodes: parseFile(data, DATA_FILES.qrcodes, r.qrcodeRow),
    glossary: parseFile(data, DATA_FILES.glossary, r.glossaryRow),
    media: parseFile(data, DATA_FILES.media, r.mediaRow),
    memory: parseFile(data, DATA_FILES.translationMemory, r.memoryRow),
    reviews: parseFile(data, DATA_FILES.translationReviews, r.reviewRow),
    reports: parseFile(data, DATA_FILES.translationReports, r.reportRow),
    stats,
    // Absent from archives made before tours (0009): none then.
    tours: data.has(OPTIONAL_DATA_FILES.tours) ? parseFile(data, OPTIONAL_DATA_FILES.tours, r.tourRow) : [],
    // Absent from archives made before issue 22 (0010, 0011): none then.
    easyRead: data.has(OPTIONAL_DATA_FILES.easyRead) ? parseFile(data, OPTIONAL_DATA_FILES.easyRead, r.easyReadRow) : [],
    narrations: data.has(OPTIONAL_DATA_FILES.narrations) ? parseFile(data, OPTIONAL_DATA_FILES.narrations, r.narrationRow) : [],
  };
  const folderIds = new Set(parsed.folders.map((f) => f.id));
  const articleIds = new Set(parsed.articles.map((a) => a.id));
  if (folderIds.size !== parsed.folders.length || articleIds.size !== parsed.articles.length)
    throw archiveError("archive_invalid", "An id appears twice in the archive");
  if (new Set(parsed.articles.map((a) => a.slug)).size !== parsed.articles.length) throw archiveError("archive_invalid", "Two articles share an address");
  if (new Set(parsed.qrcodes.map((q) => q.link)).size !== parsed.qrcodes.length) throw archiveError("archive_invalid", "Two QR codes share a link");
  if (new Set(parsed.tours.map((t) => t.link)).size !== parsed.tours.length) throw archiveError("archive_invalid", "Two tours share a link");
  if (new Set(parsed.easyRead.map((e) => e.articleId)).size !== parsed.easyRead.length)
    throw archiveError("archive_invalid", "An article has two easy-to-read versions");
  if (new Set(parsed.narrations.map((n) => `${n.articleId}|${n.lang}`)).size !== parsed.narrations.length)
    throw archiveError("archive_invalid", "An article has two narrations in one language");
  if (new Set(parsed.narrations.map((n) => n.key)).size !== parsed.narrations.length) throw archiveError("archive_invalid", "Two narrations share a file");
  const numbers = parsed.articles.filter((a) => a.stopNumber !== null && a.deletedAt === null).map((a) => a.stopNumber);
  if (new Set(numbers).size !== numbers.length) throw archiveError("archive_invalid", "Two articles share a stop number");
  const refs: [string, number | null, Set<number>][] = [
    ...parsed.folders.map((f) => [DATA_FILES.folders, f.parentId, folderIds] as [string, number | null, Set<number>]),
    ...parsed.articles.map((a) => [DATA_FILES.articles, a.folderId, folderIds] as [string, number | null, Set<number>]),
    ...[...parsed.versions, ...parsed.reviews, ...parsed.reports].map(
      (x) => ["an article's translations or history", x.articleId, articleIds] as [string, number | null, Set<number>],
    ),
    ...[...parsed.qrcodes, ...parsed.media].map((x) => ["a QR code or media row", x.articleId, articleIds] as [string, number | null, Set<number>]),
    ...parsed.tours.flatMap((t) => t.stops.map((stop) => [OPTIONAL_DATA_FILES.tours, stop, articleIds] as [string, number | null, Set<number>])),
    ...parsed.easyRead.map((e) => [OPTIONAL_DATA_FILES.easyRead, e.articleId, articleIds] as [string, number | null, Set<number>]),
    ...parsed.narrations.map((n) => [OPTIONAL_DATA_FILES.narrations, n.articleId, articleIds] as [string, number | null, Set<number>]),
  ];
  for (const [file, ref, ids] of refs)
    if (ref !== null && !ids.has(ref)) throw archiveError("archive_invalid", `${file} refers to id ${ref}, which the archive does not hold`);
  for (const a of parsed.articles) {
    checkContent(a.content, `article ${a.id}`);
    if (a.publishedContent) checkContent(a.publishedContent, `article ${a.id}`);
  }
  for (const v of parsed.versions) checkContent(v.content, `article ${v.articleId}, version ${v.number}`);
  for (const e of parsed.easyRead) {
    if (e.content) checkContent(e.content, `article ${e.articleId}, easy-to-read version`);
    if (e.approvedContent) checkContent(e.approvedContent, `article ${e.articleId}, approved easy-to-read version`);
  }
  return parsed;
}

/** Multi-row inserts within D1's 100 bound parameters. */
/** Each segment of the memory rows once (its first row's source text), for `translation_segments` (0014). */
function segmentsOf(memory: r.MemoryRow[]): r.MemoryRow[] {
  const seen = new Map<string, r.MemoryRow>();
  for (const m of memory) {
    const key = `${m.sourceLang}\n${m.sourceHash}`;
    if (!seen.has(key)) seen.set(key, m);
  }
  return [...seen.values()];
}

function inserts<T>(d1: D1Database, head: string, columns: number, rows: T[], values: (row: T) => unknown[]): D1PreparedStatement[] {
  const placeholders = `(${Array(columns).fill("?").join(", ")})`;
  return chunks(rows, rowsPerStatement(columns)).map((part) =>
    d1.prepare(`${head} VALUES ${part.map(() => placeholders).join(", ")}`).bind(...part.flatMap((row) => values(row).map((v) => v ?? null))),
  );
}

/**
 * The archive's links, each kept where the directory lets this museum claim it (free, or already its own), else
 * replaced by a new link claimed for it (decision 142: a link is unique across museums, whichever shard).
 */
async function claimedLinks(directory: D1Database, museumId: number, links: string[], kind: "qrcode" | "tour") {
  const kept: string[] = [];
  const changed: { from: string; to: string }[] = [];
  for (const link of links) {
    if (await claimLinks(directory, museumId, [link], kind)) kept.push(link);
    else {
      const to = await claimNewLink(directory, museumId, kind, randomLink);
      changed.push({ from: link, to });
      kept.push(to);
    }
  }
  return { links: kept, changed };
}

/**
 * The largest id the table has handed out on this shard: its AUTOINCREMENT counter starts at the shard's own range
 * (decision 142), so new ids go above it even in an empty table.
 */
async function maxId(d1: D1Database, table: "folders" | "articles" | "tours") {
  const row = await d1
    .prepare(`SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), coalesce((SELECT max(id) FROM ${table}), 0)) AS id`)
    .bind(table)
    .first<{ id: number }>();
  return row?.id ?? 0;
}

/**
 * Writes the rows. New ids for folders and articles are taken above the current largest, computed just before
 * the batch; a parallel write that took one of them (or a QR link) makes the batch fail as a whole, and it is
 * planned again (3 tries).
 */
export async function restoreRows(...args: Parameters<typeof restoreOnce>): Promise<ImportReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await restoreOnce(...args);
    } catch (error) {
      if (lostRace(error)) throw museumNotEmpty();
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function restoreOnce(
  d1: D1Database,
  directory: D1Database,
  museumId: number,
  manifest: Manifest,
  rows: Parsed,
  mediaKeys: Map<string, string>,
  actor: AuditActor,
  narrationKeys: Map<string, string> = new Map(),
): Promise<ImportReport> {
  const folderBase = await maxId(d1, "folders");
  const articleBase = await maxId(d1, "articles");
  const folderId = new Map(rows.folders.map((f, i) => [f.id, folderBase + 1 + i]));
  const articleId = new Map(rows.articles.map((a, i) => [a.id, articleBase + 1 + i]));
  const mapFolder = (id: number | null) => (id === null ? null : folderId.get(id)!);
  const mapArticle = (id: number | null) => (id === null ? null : articleId.get(id)!);
  const unresolved = new Set<string>();
  const content = (c: unknown[] | null) => (c === null ? null : JSON.stringify(rewriteMedia(c, mediaKeys, unresolved)));

  const { links, changed } = await claimedLinks(
    directory,
    museumId,
    rows.qrcodes.map((q) => q.link),
    "qrcode",
  );
  // Tours keep their link where it is free on this installation, like QR codes; a cover whose file did not come is dropped.
  const { links: tourLinks } = await claimedLinks(
    directory,
    museumId,
    rows.tours.map((t) => t.link),
    "tour",
  );
  const tourBase = await maxId(d1, "tours");
  const tourId = new Map(rows.tours.map((tour, i) => [tour.id, tourBase + 1 + i]));
  const cover = (src: string | null) => {
    const key = src?.startsWith(MEDIA_PREFIX) ? mediaKeys.get(src.slice(MEDIA_PREFIX.length)) : undefined;
    return key ? `${MEDIA_PREFIX}${key}` : null;
  };
  const stops = rows.tours.flatMap((tour) => tour.stops.map((article, i) => ({ tour: tourId.get(tour.id)!, position: i + 1, article: mapArticle(article) })));
  const media = rows.media.filter((m) => mediaKeys.has(m.key));
  const stats = rows.stats.filter((s) => articleId.has(s.articleId));
  // A narration whose file the archive lacks (missing from R2 at the export) is left out: it would play nothing.
  const narrations = rows.narrations.filter((n) => narrationKeys.has(n.key));

  const statements: D1PreparedStatement[] = [
    // The guard: the batch goes on only while the museum is empty (the first of parallel imports wins).
    d1.prepare(EMPTY_GUARD).bind(museumId),
    d1.prepare("UPDATE museums SET source_lang = ?, timezone = ? WHERE id = ?").bind(manifest.museum.sourceLang, manifest.museum.timezone, museumId),
    ...inserts(d1, "INSERT INTO folders (id, museum_id, parent_id, name, created_at, deleted_at)", 6, rows.folders, (f) => [
      folderId.get(f.id),
      museumId,
      mapFolder(f.parentId),
      f.name,
      f.createdAt,
      f.deletedAt,
    ]),
    ...inserts(
      d1,
      "INSERT INTO articles (id, museum_id, folder_id, slug, unformatted_name, content, version, created_at, updated_at, deleted_at, published_content, published_version, published_at, stop_number)",
      14,
      rows.articles,
      // A trashed article holds no stop number (decision 083).
      (a) => [
        articleId.get(a.id),
        museumId,
        mapFolder(a.folderId),
        a.slug,
        a.name,
        content(a.content),
        a.version,
        a.createdAt,
        a.updatedAt,
        a.deletedAt,
        content(a.publishedContent),
        a.publishedVersion,
        a.publishedAt,
        a.deletedAt === null ? a.stopNumber : null,
      ],
    ),
    ...inserts(
      d1,
      "INSERT INTO article_versions (article_id, museum_id, number, content, name, published_at, published_by, published_by_email, note)",
      9,
      rows.versions,
      (v) => [mapArticle(v.articleId), museumId, v.number, content(v.content), v.name, v.publishedAt, null, v.publishedByEmail, v.note],
    ),
    ...inserts(d1, "INSERT INTO qrcodes (museum_id, link, article_id, created_at)", 4, rows.qrcodes, (q) => [
      museumId,
      links[rows.qrcodes.indexOf(q)],
      mapArticle(q.articleId),
      q.createdAt,
    ]),
    ...inserts(d1, "INSERT INTO glossary_terms (museum_id, term, target_lang, translation, created_at)", 5, rows.glossary, (g) => [
      museumId,
      g.term,
      g.targetLang,
      g.translation,
      g.createdAt,
    ]),
    ...inserts(d1, "INSERT INTO media (museum_id, r2_key, kind, content_type, bytes, article_id, width, height, created_at, original_name)", 10, media, (m) => [
      museumId,
      mediaKeys.get(m.key),
      m.kind,
      m.contentType,
      m.bytes,
      mapArticle(m.articleId),
      m.width,
      m.height,
      m.createdAt,
      m.originalName,
    ]),
    // A segment's source text once, then its translations (0014): the archive keeps one file of memory rows.
    ...inserts(d1, "INSERT INTO translation_segments (museum_id, source_lang, source_hash, source_text)", 4, segmentsOf(rows.memory), (m) => [
      museumId,
      m.sourceLang,
      m.sourceHash,
      m.sourceText,
    ]),
    ...inserts(
      d1,
      "INSERT INTO translation_memory (museum_id, source_lang, target_lang, source_hash, text, origin, engine, updated_at)",
      8,
      rows.memory,
      (m) => [museumId, m.sourceLang, m.targetLang, m.sourceHash, m.text, m.origin, m.engine, m.updatedAt],
    ),
    ...inserts(
      d1,
      "INSERT INTO translation_reviews (museum_id, article_id, target_lang, segment_id, source_hash, source_text, text, updated_at)",
      8,
      rows.reviews,
      (v) => [museumId, mapArticle(v.articleId), v.targetLang, v.segmentId, v.sourceHash, v.sourceText, v.text, v.updatedAt],
    ),
    ...inserts(d1, "INSERT INTO translation_reports (museum_id, article_id, lang, message, created_at, resolved_at)", 6, rows.reports, (p) => [
      museumId,
      mapArticle(p.articleId),
      p.lang,
      p.message,
      p.createdAt,
      p.resolvedAt,
    ]),
    ...inserts(d1, "INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views)", 6, stats, (s) => [
      museumId,
      dayNumber(s.day),
      mapArticle(s.articleId),
      s.lang,
      s.scans,
      s.views,
    ]),
    ...inserts(d1, "INSERT INTO tours (id, museum_id, link, name, description, cover, minutes, version, created_at, updated_at)", 10, rows.tours, (tour) => [
      tourId.get(tour.id),
      museumId,
      tourLinks[rows.tours.indexOf(tour)],
      tour.name,
      tour.description,
      cover(tour.cover),
      tour.minutes,
      1,
      tour.createdAt,
      tour.updatedAt,
    ]),
    ...inserts(d1, "INSERT INTO tour_stops (tour_id, position, article_id, museum_id)", 4, stops, (stop) => [stop.tour, stop.position, stop.article, museumId]),
    // Easy-to-read versions (0011): content's /media/ addresses rewritten like articles'; no editor, approver or generation under way.
    ...inserts(
      d1,
      "INSERT INTO easy_read_versions (article_id, museum_id, content, version, source_hash, engine, generated_at, updated_at, approved_content, approved_version, approved_source_hash, approved_at)",
      12,
      rows.easyRead,
      (e) => [
        mapArticle(e.articleId),
        museumId,
        content(e.content),
        e.version,
        e.sourceHash,
        e.engine,
        e.generatedAt,
        e.updatedAt,
        content(e.approvedContent),
        e.approvedVersion,
        e.approvedSourceHash,
        e.approvedAt,
      ],
    ),
    // Narrations (0010) under their new R2 keys.
    ...inserts(
      d1,
      "INSERT INTO narrations (museum_id, article_id, lang, kind, r2_key, content_type, bytes, duration_ms, text_hash, engine, voice, created_at, updated_at)",
      13,
      narrations,
      (n) => [
        museumId,
        mapArticle(n.articleId),
        n.lang,
        n.kind,
        narrationKeys.get(n.key),
        n.contentType,
        n.bytes,
        n.durationMs,
        n.textHash,
        n.engine,
        n.voice,
        n.createdAt,
        n.updatedAt,
      ],
    ),
  ];
  const report: ImportReport = {
    folders: rows.folders.length,
    articles: rows.articles.length,
    articleVersions: rows.versions.length,
    media: media.length,
    glossary: rows.glossary.length,
    translationMemory: rows.memory.length,
    translationReviews: rows.reviews.length,
    translationReports: rows.reports.length,
    dailyStats: stats.length,
    tours: rows.tours.length,
    easyRead: rows.easyRead.length,
    narrations: narrations.length,
    qrcodes: { kept: links.filter((l, i) => l === rows.qrcodes[i]!.link), changed, inactive: rows.qrcodes.filter((q) => q.articleId === null).length },
    schedulesDropped: rows.articles.filter((a) => a.publishAt !== null).length,
    statsDropped: rows.stats.length - stats.length,
    unresolvedMedia: unresolved.size,
  };
  statements.push(
    auditD1(d1, {
      museumId,
      actor,
      action: "museum.import",
      detail: {
        from: manifest.museum.slug.slice(0, 100),
        createdAt: manifest.createdAt,
        articles: report.articles,
        media: report.media,
        narrations: report.narrations,
        qrcodesChanged: changed.length,
      },
    }),
  );
  await d1.batch(statements);
  return report;
}

/** What the export and import page shows: how much the museum holds (trash included). */
export async function museumContentCounts(d1: D1Database, museumId: number) {
  const row = await d1
    .prepare(
      "SELECT (SELECT count(*) FROM articles WHERE museum_id = ?1) AS articles, (SELECT count(*) FROM folders WHERE museum_id = ?1) AS folders, (SELECT count(*) FROM qrcodes WHERE museum_id = ?1) AS qrcodes, (SELECT count(*) FROM media WHERE museum_id = ?1) AS media, (SELECT count(*) FROM tours WHERE museum_id = ?1) AS tours",
    )
    .bind(museumId)
    .first<{ articles: number; folders: number; qrcodes: number; media: number; tours: number }>();
  return row ?? { articles: 0, folders: 0, qrcodes: 0, media: 0, tours: 0 };
}
