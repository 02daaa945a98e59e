import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dayRange } from "~/models/stats.server";
import { dayInTimeZone, dayNumber } from "~/lib/dates";
import { createArticleRow, createQrCode, get, staffSession } from "./helpers";

// The /stats page and the dashboard's activity, rendered on the server from daily_stats.

const article = (museumId: number, slug: string, name: string) => createArticleRow(museumId, { slug, name });

async function seeded() {
  const session = await staffSession();
  const museumId = session.user.museumId;
  const today = dayInTimeZone(Date.now(), "Europe/Paris");
  const [, , , , , lastWeek] = dayRange(today, 7);
  const amphora = await article(museumId, "amphore", "Amphore <étrusque>");
  const stele = await article(museumId, "stele", "Stèle");
  const quiet = await article(museumId, "quiet", "Jamais vu");
  const insert = env.DB.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, ?, ?, ?, ?)");
  await env.DB.batch([
    insert.bind(museumId, dayNumber(today), amphora, "de", 3, 0),
    insert.bind(museumId, dayNumber(today), stele, "ja", 1, 0),
    insert.bind(museumId, dayNumber(lastWeek!), amphora, "fr", 2, 4),
    insert.bind(museumId, dayNumber("2000-01-01"), stele, "fr", 50, 0),
    insert.bind(museumId, dayNumber(today), quiet, "fr", 0, 9),
  ]);
  await createQrCode(museumId, { link: `z${Date.now().toString(36)}`.slice(0, 8) });
  return { ...session, museumId, amphora, stele, quiet };
}

describe("/stats page", () => {
  it("redirects to /login when logged out", async () => {
    const response = await get("/stats");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fstats");
  });

  it("renders the captions, totals, tables and CSV links in French, not indexed", async () => {
    const m = await seeded();
    const html = await (await get("/stats", m.cookie)).text();
    expect(html).toContain("Nombres de scan de code QR par article");
    expect(html).toContain("Nombres de scan de code QR par langue");
    expect(html).toContain("Total : 6 scans");
    expect(html).toContain('href="/api/stats/scans-per-article?days=10&amp;format=csv"');
    expect(html).toContain("Amphore &lt;étrusque&gt;");
    expect(html).toContain("Japonais");
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(html).toContain("Article :");
    expect(html).not.toContain("Langues demandées pour l&#x27;article");
    // What a scan counts (decision 032), folded under the period links.
    expect(html).toMatch(
      /<details class="stats-help"><summary>Que compte un scan\u00a0\?<\/summary><p>Un scan, c&#x27;est un visiteur qui ouvre un article depuis son code QR\./,
    );
    expect(html).toContain("dans les 30 minutes n&#x27;est pas compté de nouveau");
  });

  it("shows the third chart for ?articleId= and a 30-day period, in English", async () => {
    const m = await seeded();
    const html = await (await get(`/stats?days=30&articleId=${m.amphora}`, m.cookie, { "Accept-Language": "en" })).text();
    expect(html).toContain("Languages requested for the article Amphore &lt;étrusque&gt;");
    expect(html).toContain("Total: 9 requests");
    expect(html).toContain("Total: 6 scans");
    expect(html).toContain(`href="/api/stats/languages-per-article?articleId=${m.amphora}&amp;days=30&amp;format=csv"`);
    expect(html).toMatch(/aria-current="page"[^>]*>Last 30 days|Last 30 days/);
    expect(html).toContain("<summary>What does a scan count?</summary>");
    expect(html).toContain("opening the same article again within 30 minutes is not counted again");
    expect(html).toContain("it never stores the address or the browser&#x27;s name");
  });

  it("answers 404 for another museum's article and ignores a malformed one", async () => {
    const mine = await seeded();
    const other = await staffSession();
    expect((await get(`/stats?articleId=${mine.amphora}`, other.cookie)).status).toBe(404);
    expect((await get("/stats?articleId=abc&days=7", other.cookie)).status).toBe(200);
  });
});

describe("dashboard activity", () => {
  it("shows today's and the week's scans, the top lists, never-scanned articles and inactive codes", async () => {
    const m = await seeded();
    const html = await (await get("/dashboard", m.cookie)).text();
    // Keeps the spec's four tiles.
    for (const tile of ['href="/articles"', 'href="/qrcodes"', 'href="/stats"', 'href="/settings"']) expect(html).toContain(tile);
    expect(html).toMatch(/activity__number">4<\/span><span>Scans aujourd&#x27;hui/);
    expect(html).toMatch(/activity__number">6<\/span><span>Scans sur 7 jours/);
    expect(html).toContain(`href="/stats?articleId=${m.amphora}">Amphore &lt;étrusque&gt;</a> <span class="activity__count">5 scans`);
    expect(html).toContain("Allemand</a>");
    // Viewed but never scanned: still "never scanned"; the stele was scanned long ago, so not listed.
    expect(html).toContain(`href="/article?id=${m.quiet}">Jamais vu</a>`);
    expect(html).not.toContain(`href="/article?id=${m.stele}"`);
    expect(html).toContain("Codes QR inactifs (1)");
  });

  it("says so when nothing happened", async () => {
    const m = await staffSession();
    const html = await (await get("/dashboard", m.cookie)).text();
    expect(html).toContain("Aucun scan ces 7 derniers jours.");
    expect(html).toContain("Tous vos codes QR mènent à un article.");
  });
});
