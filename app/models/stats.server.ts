import type { Database } from "~/db/client.server";
import { notFound } from "~/errors";
import { dayInTimeZone, dayNumber, isoDay } from "~/lib/dates";
import { listLiveArticles } from "./tree.server";

/** The spec's daily stats row: `formatted_date` plus one count per article name or language code. */
export type StatsRow = Record<string, string | number> & { formatted_date: string };

export interface StatsSeries {
  /** The days covered, "YYYY-MM-DD" in the museum's timezone, oldest first, today last. */
  days: string[];
  /** One row per day, empty days included; a key absent from a row counted 0 that day. */
  rows: StatsRow[];
  /** Every key that counted something in the period, the largest total first. */
  keys: string[];
  totals: Record<string, number>;
  total: number;
}

const DAY_MS = 86_400_000;

/** `count` calendar days ending with `lastDay` ("YYYY-MM-DD"), oldest first. */
export function dayRange(lastDay: string, count: number): string[] {
  const end = Date.parse(`${lastDay}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(end - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** "2026-03-15" → "15-03-2026": day-month-year, as the spec writes dates. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split("-");
  return `${date}-${month}-${year}`;
}

/** Today in the museum's timezone. */
export async function museumToday(db: Database, museumId: number, now = Date.now()): Promise<string> {
  const row = await db.$client.prepare("SELECT timezone FROM museums WHERE id = ?1").bind(museumId).first<{ timezone: string }>();
  return dayInTimeZone(now, row?.timezone ?? "UTC");
}

interface Count {
  /** Days since 1970-01-01 (0014). */
  day: number;
  key: string;
  count: number;
}

function toSeries(days: string[], counts: readonly Count[]): StatsSeries {
  const byDay = new Map(days.map((day) => [day, { formatted_date: formatDay(day) } as StatsRow]));
  const totals: Record<string, number> = {};
  let total = 0;
  for (const { day, key, count } of counts) {
    const row = byDay.get(isoDay(day));
    if (!row || count <= 0) continue;
    row[key] = count;
    totals[key] = (totals[key] ?? 0) + count;
    total += count;
  }
  const keys = Object.keys(totals).sort((a, b) => totals[b]! - totals[a]! || a.localeCompare(b));
  return { days, rows: [...byDay.values()], keys, totals, total };
}

// Each query reads one museum's range of days through an index: the primary key (museum_id, day, …)
// for the first two, daily_stats_article_day_idx (museum_id, article_id, day) for the third. Articles
// are keyed by their name in the spec's sense (the slug, unique in the museum); a trashed article
// still shows, a purged one no longer has a name and drops out.
const PER_ARTICLE = `SELECT d.day AS day, a.slug AS key, SUM(d.scans) AS count
FROM daily_stats d JOIN articles a ON a.id = d.article_id AND a.museum_id = d.museum_id
WHERE d.museum_id = ?1 AND d.day BETWEEN ?2 AND ?3 AND d.scans > 0
GROUP BY d.day, d.article_id`;
const PER_LANGUAGE = `SELECT day, lang AS key, SUM(scans) AS count FROM daily_stats
WHERE museum_id = ?1 AND day BETWEEN ?2 AND ?3 AND scans > 0
GROUP BY day, lang`;
const LANGUAGES_OF_ARTICLE = `SELECT day, lang AS key, SUM(scans + views) AS count FROM daily_stats
WHERE museum_id = ?1 AND article_id = ?4 AND day BETWEEN ?2 AND ?3
GROUP BY day, lang`;
export const STATS_QUERIES = { PER_ARTICLE, PER_LANGUAGE, LANGUAGES_OF_ARTICLE } as const;

async function series(db: Database, museumId: number, sql: string, count: number, extra: unknown[] = [], today?: string) {
  const days = dayRange(today ?? (await museumToday(db, museumId)), count);
  const { results } = await db.$client
    .prepare(sql)
    .bind(museumId, dayNumber(days[0]!), dayNumber(days[days.length - 1]!), ...extra)
    .all<Count>();
  return toSeries(days, results);
}

/** QR code scans per article and day (chart 1). */
export const scansPerArticle = (db: Database, museumId: number, days: number, today?: string) => series(db, museumId, PER_ARTICLE, days, [], today);

/** QR code scans per reading language and day, all articles together (chart 2). */
export const scansPerLanguage = (db: Database, museumId: number, days: number, today?: string) => series(db, museumId, PER_LANGUAGE, days, [], today);

/** Requests (scans and other views) of one article per language and day (chart 3); 404 for another museum's. */
export async function languagesPerArticle(db: Database, museumId: number, articleId: number, days: number, today?: string) {
  const article = await db.$client
    .prepare("SELECT id, slug, unformatted_name AS name FROM articles WHERE id = ?1 AND museum_id = ?2")
    .bind(articleId, museumId)
    .first<{ id: number; slug: string; name: string }>();
  if (!article) throw notFound("Article", "articleId");
  return { article, ...(await series(db, museumId, LANGUAGES_OF_ARTICLE, days, [articleId], today)) };
}

/** Spreadsheet formula prefixes are neutralised (CSV injection); quotes, commas and newlines quoted. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line per day (ISO date, so a spreadsheet sorts it), one column per key, zeros written out. */
export function statsCsv(data: Pick<StatsSeries, "days" | "rows" | "keys">): string {
  const lines = [["date", ...data.keys].map(csvField).join(",")];
  data.rows.forEach((row, i) => {
    lines.push([data.days[i]!, ...data.keys.map((key) => row[key] ?? 0)].map(csvField).join(","));
  });
  return `${lines.join("\r\n")}\r\n`;
}

/** Everything the /stats page shows: the picker's articles, charts 1 and 2, and chart 3 once picked. */
export async function loadStatsPage(db: Database, museumId: number, input: { days: number; articleId: number | null }) {
  const today = await museumToday(db, museumId);
  const [articles, perArticle, perLanguage, ofArticle] = await Promise.all([
    listLiveArticles(db, museumId),
    scansPerArticle(db, museumId, input.days, today),
    scansPerLanguage(db, museumId, input.days, today),
    input.articleId === null ? null : languagesPerArticle(db, museumId, input.articleId, input.days, today),
  ]);
  return { articles, perArticle, perLanguage, ofArticle };
}
