import { parseStoredContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { dayNumber } from "~/lib/dates";
import type { FailureReason } from "~/translation/failures.server";
import { articleSegments, segmentHash } from "~/translation/segments";
import { listQrCodes } from "./qrcodes.server";
import { dayRange, museumToday } from "./stats.server";
import { listLiveArticles } from "./tree.server";

/** How many names each dashboard list shows before "and N more". */
export const DASHBOARD_LIST_SIZE = 5;

const WEEK = `SELECT
  coalesce(SUM(CASE WHEN day = ?3 THEN scans END), 0) AS today,
  coalesce(SUM(scans), 0) AS week
FROM daily_stats WHERE museum_id = ?1 AND day BETWEEN ?2 AND ?3`;
const TOP_ARTICLES = `SELECT d.article_id AS id, a.unformatted_name AS name, SUM(d.scans) AS scans
FROM daily_stats d JOIN articles a ON a.id = d.article_id AND a.museum_id = d.museum_id
WHERE d.museum_id = ?1 AND d.day BETWEEN ?2 AND ?3 AND a.deleted_at IS NULL
GROUP BY d.article_id HAVING scans > 0 ORDER BY scans DESC, name LIMIT ?4`;
const TOP_LANGUAGES = `SELECT lang, SUM(scans) AS scans FROM daily_stats
WHERE museum_id = ?1 AND day BETWEEN ?2 AND ?3
GROUP BY lang HAVING scans > 0 ORDER BY scans DESC, lang LIMIT ?4`;
// One index lookup per article (daily_stats_article_day_idx), never a walk over all the counters.
const SCANNED_ARTICLES = `SELECT a.id FROM articles a WHERE a.museum_id = ?1 AND a.deleted_at IS NULL
AND EXISTS (SELECT 1 FROM daily_stats d WHERE d.museum_id = ?1 AND d.article_id = a.id AND d.scans > 0)`;

// Open visitor reports per article and language, the ones with most reports first.
const OPEN_REPORTS = `SELECT r.article_id AS id, a.unformatted_name AS name, r.lang AS lang, COUNT(*) AS reports
FROM translation_reports r JOIN articles a ON a.id = r.article_id AND a.museum_id = r.museum_id
WHERE r.museum_id = ?1 AND r.resolved_at IS NULL AND a.deleted_at IS NULL
GROUP BY r.article_id, r.lang ORDER BY reports DESC, name, lang`;

// Segments that failed lately and still have no translation, per article (decision 030), newest first.
// Only the museum's current source language counts; a row of a segment an edit removed is dropped below.
const FAILING = `SELECT f.article_id AS id, f.target_lang AS lang, f.source_hash AS hash, f.reason AS reason, f.detail AS detail,
  f.first_failed_at AS since, f.last_failed_at AS lastFailedAt, f.retry_at AS retryAt
FROM translation_failures f JOIN museums mu ON mu.id = f.museum_id AND mu.source_lang = f.source_lang
WHERE f.museum_id = ?1 AND f.article_id IS NOT NULL
AND NOT EXISTS (SELECT 1 FROM translation_memory m WHERE m.museum_id = f.museum_id AND m.source_lang = f.source_lang
  AND m.target_lang = f.target_lang AND m.source_hash = f.source_hash)
ORDER BY f.last_failed_at DESC LIMIT 500`;
// How many articles' contents are read to check their failing segments are still theirs.
const FAILING_ARTICLES_CHECKED = 30;

type FailingRow = { id: number; lang: string; hash: string; reason: FailureReason; detail: string; since: number; lastFailedAt: number; retryAt: number };

export interface FailingTranslation {
  id: number;
  name: string;
  lang: string;
  reason: FailureReason;
  detail: string;
  since: number;
  lastFailedAt: number;
  retryAt: number;
  segments: number;
}

/** "Translation failing for language X since …": per live article and language, its oldest failure's reason. */
async function failingTranslations(db: Database, museumId: number, live: ReadonlyMap<number, string>): Promise<FailingTranslation[]> {
  const { results } = await db.$client.prepare(FAILING).bind(museumId).all<FailingRow>();
  const rows = results.filter((row) => live.has(row.id));
  const ids = [...new Set(rows.map((row) => row.id))].slice(0, FAILING_ARTICLES_CHECKED);
  if (ids.length === 0) return [];
  const contents = await db.$client
    .prepare(`SELECT id, slug, content FROM articles WHERE museum_id = ? AND id IN (${ids.map(() => "?").join(",")})`)
    .bind(museumId, ...ids)
    .all<{ id: number; slug: string; content: string }>();
  const current = new Map<number, Set<string>>();
  for (const article of contents.results) {
    current.set(article.id, new Set(await Promise.all(articleSegments(parseStoredContent(article.content, article.slug)).map(segmentHash))));
  }
  const groups = new Map<string, FailingTranslation & { hashes: Set<string> }>();
  for (const row of rows) {
    if (!current.get(row.id)?.has(row.hash)) continue;
    const key = `${row.id}:${row.lang}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { ...row, name: live.get(row.id)!, segments: 0, hashes: new Set([row.hash]) });
      continue;
    }
    group.hashes.add(row.hash);
    group.lastFailedAt = Math.max(group.lastFailedAt, row.lastFailedAt);
    group.retryAt = Math.min(group.retryAt, row.retryAt);
    if (row.since < group.since) Object.assign(group, { since: row.since, reason: row.reason, detail: row.detail });
  }
  return [...groups.values()]
    .map(({ hashes, ...group }) => ({ ...group, segments: hashes.size }))
    .sort((a, b) => b.lastFailedAt - a.lastFailedAt || a.name.localeCompare(b.name) || a.lang.localeCompare(b.lang));
}

/** What a curator looks at first: this week's scans, what is read, and what needs attention. */
export async function loadDashboard(db: Database, museumId: number) {
  const today = await museumToday(db, museumId);
  const weekStart = dayRange(today, 7)[0]!;
  const bind = (sql: string, ...extra: unknown[]) => db.$client.prepare(sql).bind(museumId, dayNumber(weekStart), dayNumber(today), ...extra);
  const [week, topArticles, topLanguages, scanned, articles, codes, reports] = await Promise.all([
    bind(WEEK).first<{ today: number; week: number }>(),
    bind(TOP_ARTICLES, DASHBOARD_LIST_SIZE).all<{ id: number; name: string; scans: number }>(),
    bind(TOP_LANGUAGES, DASHBOARD_LIST_SIZE).all<{ lang: string; scans: number }>(),
    db.$client.prepare(SCANNED_ARTICLES).bind(museumId).all<{ id: number }>(),
    listLiveArticles(db, museumId),
    listQrCodes(db, museumId),
    db.$client.prepare(OPEN_REPORTS).bind(museumId).all<{ id: number; name: string; lang: string; reports: number }>(),
  ]);
  const failing = await failingTranslations(db, museumId, new Map(articles.map((a) => [a.id, a.unformatted_name])));
  const scannedIds = new Set(scanned.results.map((r) => r.id));
  const neverScanned = articles.filter((a) => !scannedIds.has(a.id)).map((a) => ({ id: a.id, name: a.unformatted_name }));
  const inactive = codes.filter((c) => c.id_article === null).map((c) => ({ id: c.id, link: c.link }));
  return {
    scansToday: week?.today ?? 0,
    scansWeek: week?.week ?? 0,
    topArticles: topArticles.results,
    topLanguages: topLanguages.results,
    neverScanned: { first: neverScanned.slice(0, DASHBOARD_LIST_SIZE), count: neverScanned.length },
    inactiveQrCodes: { first: inactive.slice(0, DASHBOARD_LIST_SIZE), count: inactive.length },
    openReports: {
      first: reports.results.slice(0, DASHBOARD_LIST_SIZE),
      count: reports.results.reduce((n, r) => n + Number(r.reports), 0),
      groups: reports.results.length,
    },
    failingTranslations: { first: failing.slice(0, DASHBOARD_LIST_SIZE), count: failing.length },
  };
}
