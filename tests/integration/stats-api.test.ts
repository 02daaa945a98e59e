import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dayRange, formatDay, STATS_QUERIES } from "~/models/stats.server";
import { dayInTimeZone, dayNumber } from "~/lib/dates";
import { createArticleRow, get, staffSession } from "./helpers";

// The three statistics calls, over rows written to daily_stats as the consumer writes them.

type Row = Record<string, string | number>;

const article = (museumId: number, slug: string, name = slug) => createArticleRow(museumId, { slug, name });

async function stat(museumId: number, day: string, articleId: number, lang: string, scans: number, views = 0) {
  await env.DB.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(museumId, dayNumber(day), articleId, lang, scans, views)
    .run();
}

/** A museum with two articles and scans on today, two days ago and 20 days ago (outside the default window). */
async function museumWithScans() {
  const session = await staffSession();
  const museumId = session.user.museumId;
  const today = dayInTimeZone(Date.now(), "Europe/Paris");
  const days = dayRange(today, 21);
  const vase = await article(museumId, "vase-grec", "Vase grec (salle 2)");
  const stele = await article(museumId, "stele");
  await stat(museumId, days[20]!, vase, "fr", 3, 1);
  await stat(museumId, days[20]!, vase, "de", 2);
  await stat(museumId, days[20]!, stele, "de", 1);
  await stat(museumId, days[18]!, stele, "es", 4, 2);
  await stat(museumId, days[18]!, vase, "ja", 0, 5);
  await stat(museumId, days[0]!, vase, "fr", 7);
  return { ...session, museumId, today, days, vase, stele };
}

describe("statistics API", () => {
  it("answers the last 10 days, oldest first, empty days included, one key per article name", async () => {
    const m = await museumWithScans();
    const { status, body } = await m.read("/api/stats/scans-per-article");
    expect(status).toBe(200);
    const rows = body as Row[];
    expect(rows.map((r) => r.formatted_date)).toEqual(dayRange(m.today, 10).map(formatDay));
    expect(rows[9]).toEqual({ formatted_date: formatDay(m.today), "vase-grec": 5, stele: 1 });
    expect(rows[7]).toEqual({ formatted_date: formatDay(m.days[18]!), stele: 4 });
    // A day without scans is there, with its date alone.
    expect(rows[0]).toEqual({ formatted_date: formatDay(m.days[11]!) });
    expect(formatDay("2026-03-05")).toBe("05-03-2026");
  });

  it("counts scans per language over all articles", async () => {
    const m = await museumWithScans();
    const rows = (await m.read("/api/stats/scans-per-language")).body as Row[];
    expect(rows).toHaveLength(10);
    expect(rows[9]).toEqual({ formatted_date: formatDay(m.today), fr: 3, de: 3 });
    // Views (5 in Japanese) are not QR code scans.
    expect(rows[7]).toEqual({ formatted_date: formatDay(m.days[18]!), es: 4 });
  });

  it("counts one article's requests (scans and views) per language", async () => {
    const m = await museumWithScans();
    const rows = (await m.read(`/api/stats/languages-per-article?articleId=${m.vase}`)).body as Row[];
    expect(rows[9]).toEqual({ formatted_date: formatDay(m.today), fr: 4, de: 2 });
    expect(rows[7]).toEqual({ formatted_date: formatDay(m.days[18]!), ja: 5 });
    expect(rows.filter((r) => Object.keys(r).length > 1)).toHaveLength(2);
  });

  it("goes back further with ?days=, up to 365", async () => {
    const m = await museumWithScans();
    const rows = (await m.read("/api/stats/scans-per-article?days=30")).body as Row[];
    expect(rows).toHaveLength(30);
    expect(rows[9]).toEqual({ formatted_date: formatDay(m.days[0]!), "vase-grec": 7 });
    expect(((await m.read("/api/stats/scans-per-language?days=365")).body as Row[]).length).toBe(365);
    expect(((await m.read("/api/stats/scans-per-language?days=1")).body as Row[]).length).toBe(1);
  });

  it("answers a CSV with ISO dates, every key as a column and zeros written out", async () => {
    const m = await museumWithScans();
    const response = await get("/api/stats/scans-per-article?format=csv&days=3", m.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="muselingo-scans-per-article-3d-${m.today}.csv"`);
    const dayBefore = dayRange(m.today, 3);
    expect(await response.text()).toBe(
      // 5 scans each over these 3 days: a tie, so alphabetical.
      `date,stele,vase-grec\r\n${dayBefore[0]},4,0\r\n${dayBefore[1]},0,0\r\n${m.today},1,5\r\n`,
    );
    const byArticle = await (await get(`/api/stats/languages-per-article?articleId=${m.stele}&format=csv`, m.cookie)).text();
    expect(byArticle.split("\r\n")[0]).toBe("date,es,de");
    expect(byArticle.split("\r\n")).toHaveLength(12);
  });

  it("neutralises spreadsheet formulas and quotes odd names in the CSV", async () => {
    const { user, cookie } = await staffSession();
    const museumId = user.museumId;
    const today = dayInTimeZone(Date.now(), "Europe/Paris");
    await stat(museumId, today, await article(museumId, "=HYPERLINK(1)"), "fr", 1);
    await stat(museumId, today, await article(museumId, 'a,"b"'), "fr", 2);
    await stat(museumId, today, await article(museumId, "日本語-é"), "fr", 3);
    const csv = await (await get("/api/stats/scans-per-article?format=csv&days=1", cookie)).text();
    expect(csv).toBe(`date,日本語-é,"a,""b""",'=HYPERLINK(1)\r\n${today},3,2,1\r\n`);
  });

  it("shows only the caller's museum, and 404s another museum's article", async () => {
    const mine = await museumWithScans();
    const other = await staffSession();
    const rows = (await other.read("/api/stats/scans-per-article")).body as Row[];
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => Object.keys(r).length === 1)).toBe(true);
    expect(((await other.read("/api/stats/scans-per-language?days=30")).body as Row[]).every((r) => Object.keys(r).length === 1)).toBe(true);
    const foreign = await other.read(`/api/stats/languages-per-article?articleId=${mine.vase}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: "not_found", message: "Article not found", field: "articleId" } });
    expect((await other.read("/api/stats/languages-per-article?articleId=999999999")).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const m = await staffSession();
    const cases: [string, string, string][] = [
      ["/api/stats/languages-per-article", "articleId", "wrong_type"],
      ["/api/stats/languages-per-article?articleId=abc", "articleId", "wrong_type"],
      ["/api/stats/languages-per-article?articleId=-1", "articleId", "wrong_type"],
      ["/api/stats/languages-per-article?articleId=1.5", "articleId", "wrong_type"],
      ["/api/stats/languages-per-article?articleId=%F0%9F%98%80", "articleId", "wrong_type"],
      ["/api/stats/languages-per-article?articleId=99999999999999999999", "articleId", "wrong_type"],
      ["/api/stats/scans-per-article?days=0", "days", "out_of_range"],
      ["/api/stats/scans-per-article?days=366", "days", "out_of_range"],
      ["/api/stats/scans-per-language?days=ten", "days", "wrong_type"],
      ["/api/stats/scans-per-language?days=10.5", "days", "wrong_type"],
      ["/api/stats/scans-per-language?days=", "days", "wrong_type"],
      ["/api/stats/scans-per-language?days=100000", "days", "wrong_type"],
      ["/api/stats/scans-per-language?format=xml", "format", "invalid"],
    ];
    for (const [path, field, reason] of cases) {
      const { status, body } = await m.read(path);
      expect({ path, status, body }).toMatchObject({ path, status: 400, body: { error: { code: "invalid_input", field, reason } } });
    }
  });

  it("needs a session (401) and answers GET only (405)", async () => {
    for (const path of ["/api/stats/scans-per-article", "/api/stats/scans-per-language", "/api/stats/languages-per-article?articleId=1"]) {
      const anonymous = await get(path);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const m = await staffSession();
    const post = await m.call("../stats/scans-per-article", {});
    expect(post.status).toBe(405);
  });

  it("answers 50 parallel calls alike", async () => {
    const m = await museumWithScans();
    const answers = await Promise.all(Array.from({ length: 50 }, () => m.read("/api/stats/scans-per-language?days=30")));
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toHaveProperty("size", 1);
    expect(answers[0]!.status).toBe(200);
  });

  it("reads daily_stats through an index, never by a full scan (EXPLAIN QUERY PLAN)", async () => {
    for (const [name, sql] of Object.entries(STATS_QUERIES)) {
      const params = sql.includes("?4") ? [1, "2026-01-01", "2026-01-10", 1] : [1, "2026-01-01", "2026-01-10"];
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const details = results.map((r) => r.detail);
      const onStats = details.filter((d) => /daily_stats|\bd\b/.test(d) && !/articles|\ba\b USING/.test(d));
      expect(onStats.length, `${name}: ${details.join(" | ")}`).toBeGreaterThan(0);
      for (const detail of onStats) {
        expect(detail, name).toMatch(/^SEARCH .*USING (COVERING )?INDEX|^SEARCH .*USING PRIMARY KEY/);
      }
      expect(
        details.some((d) => /^SCAN (daily_stats|d)\b/.test(d)),
        `${name}: ${details.join(" | ")}`,
      ).toBe(false);
    }
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${STATS_QUERIES.LANGUAGES_OF_ARTICLE}`).bind(1, "a", "b", 1).all<{ detail: string }>();
    expect(results.map((r) => r.detail).join(" ")).toContain("daily_stats_article_day_idx");
  });
});
