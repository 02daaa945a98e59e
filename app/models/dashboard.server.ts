import type { Database } from "~/db/client.server";
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

/** What a curator looks at first: this week's scans, what is read, and what needs attention. */
export async function loadDashboard(db: Database, museumId: number) {
  const today = await museumToday(db, museumId);
  const [weekStart] = dayRange(today, 7);
  const bind = (sql: string, ...extra: unknown[]) => db.$client.prepare(sql).bind(museumId, weekStart, today, ...extra);
  const [week, topArticles, topLanguages, scanned, articles, codes, reports] = await Promise.all([
    bind(WEEK).first<{ today: number; week: number }>(),
    bind(TOP_ARTICLES, DASHBOARD_LIST_SIZE).all<{ id: number; name: string; scans: number }>(),
    bind(TOP_LANGUAGES, DASHBOARD_LIST_SIZE).all<{ lang: string; scans: number }>(),
    db.$client.prepare(SCANNED_ARTICLES).bind(museumId).all<{ id: number }>(),
    listLiveArticles(db, museumId),
    listQrCodes(db, museumId),
    db.$client.prepare(OPEN_REPORTS).bind(museumId).all<{ id: number; name: string; lang: string; reports: number }>(),
  ]);
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
  };
}
