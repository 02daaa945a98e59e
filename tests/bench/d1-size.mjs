// `npm run bench:size`: what one museum weighs in D1 (docs/scaling.md).
// Generates one museum (default 300 articles × 40 target languages, one year of statistics at 2,000 scans
// and 500 views a day) into a throwaway local D1 that wrangler built from drizzle/ (the real schema), writes
// its rows in the order the app does (same tables, same keys, rows sent as JSON arrays through `json_each`
// to spare the local proxy tens of thousands of calls), then measures the database file and each table and index with SQLite's `dbstat`.
//   - articles: the editor's element defaults, about --words words each (app/content/schema.ts)
//   - translation_memory: one row per distinct segment (app/translation/segments.ts) per target language
//   - translation_reviews: every segment of every article in --reviewed-langs languages (decision 025)
//   - daily_stats: one row per article × language × day that had at least one event, as the consumer
//     writes them (app/queue/scan-stats.server.ts), from a skewed draw of each day's events
//   - scan_events: the last 35 days (RAW_EVENT_RETENTION_DAYS); scan_visits: the busiest hour (pruned after 1 h)
// Then, on that full-size database, the stats consumer's own code (app/queue/scan-stats.server.ts, bundled by
// esbuild) counts --consumer-events new events in batches of 100 (the consumer's max_batch_size): its
// throughput with a year of counters and 35 days of raw events in the indexes it writes to.
// Options: --articles --langs --days --scans-per-day --views-per-day --words --reviewed-langs
//          --consumer-events (0 skips it) --keep (leave the database in the temp directory) --json
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build as esbuild } from "esbuild";
import { importBundled } from "./bundle.mjs";
import { getPlatformProxy } from "wrangler";
import { applyMigrations, d1Target, parseOptions, quietEnv, ROOT } from "../../scripts/lib.mjs";

const { values: args } = parseOptions(process.argv.slice(2), {
  articles: "string",
  langs: "string",
  days: "string",
  "scans-per-day": "string",
  "views-per-day": "string",
  words: "string",
  "reviewed-langs": "string",
  "consumer-events": "string",
  keep: "boolean",
  json: "boolean",
});
const num = (name, fallback) => {
  const value = args[name] === undefined ? fallback : Number(args[name]);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got ${args[name]}`);
  return value;
};
const ARTICLES = num("articles", 300);
const LANG_COUNT = num("langs", 40);
const DAYS = num("days", 365);
const SCANS_PER_DAY = num("scans-per-day", 2_000);
const VIEWS_PER_DAY = num("views-per-day", 500);
const WORDS = num("words", 350);
const REVIEWED_LANGS = num("reviewed-langs", 3);
const CONSUMER_EVENTS = num("consumer-events", 3_000);
const RAW_DAYS = 35; // RAW_EVENT_RETENTION_DAYS before 0014 (by the time events happened); 5 days after they are counted since
const LEANER = "0014"; // drizzle/0014_leaner_rows.sql (decision 145)
const DAY = 86_400_000;
const SOURCE = "fr";
// Target languages, most visited first (the order the skewed draw below favours).
const ALL_TARGETS = [
  "en",
  "de",
  "es",
  "it",
  "nl",
  "zh-Hans",
  "ja",
  "pt",
  "ko",
  "ru",
  "pl",
  "ar",
  "zh-Hant",
  "he",
  "uk",
  "tr",
  "el",
  "sv",
  "da",
  "no",
  "fi",
  "cs",
  "hu",
  "ro",
  "hi",
  "th",
  "vi",
  "id",
  "ca",
  "bg",
  "sr",
  "hr",
  "sk",
  "sl",
  "et",
  "lv",
  "lt",
  "fa",
  "ka",
  "hy",
  "bn",
  "ta",
  "te",
  "ur",
  "ms",
  "sw",
  "am",
  "af",
  "sq",
  "mk",
  "kk",
  "mn",
  "ne",
  "si",
];
if (LANG_COUNT > ALL_TARGETS.length) throw new Error(`--langs: at most ${ALL_TARGETS.length}`);
const TARGETS = ALL_TARGETS.slice(0, LANG_COUNT);
const log = args.json ? () => {} : (...line) => console.log(...line);

const work = mkdtempSync(join(tmpdir(), "muselingo-size-"));
const persist = join(work, "state");
const started = performance.now();
let proxy;
try {
  // The real schema as it was before the leaner layout (drizzle/ up to 0013), in a local D1 of its own: the museum
  // is generated in it, measured, then converted in place by 0014 (the migration a deploy runs) and measured again.
  await applyMigrations(d1Target({ persistTo: persist }), { quiet: true, before: LEANER });

  const museum = await importBundled("tests/bench/d1-size-museum.ts", work, "museum");
  await esbuild({
    entryPoints: [join(ROOT, "app/queue/scan-stats.server.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile: join(work, "scan-stats.mjs"),
    logLevel: "error",
  });
  const { consumeScanBatch, pruneScanEvents } = await import(pathToFileURL(join(work, "scan-stats.mjs")).href);
  const rand = museum.random(20261123);

  Object.assign(process.env, quietEnv);
  proxy = await getPlatformProxy({ configPath: join(ROOT, "workers/stats-consumer/wrangler.toml"), persist: { path: join(persist, "v3") } });
  const db = proxy.env.DB;

  /**
   * Inserts rows in the order given, many per statement: the rows travel as one JSON array bound to a
   * single parameter (`json_each`), at most about 400 KB each, so a year of statistics is a few hundred
   * statements rather than tens of thousands of calls through the local proxy (which gave way under load).
   * Same tables, same values, same insertion order, so the same B-tree pages as the app's own writes.
   */
  const insert = async (table, columns, rows) => {
    const select = columns.map((_, i) => `value ->> ${i}`).join(", ");
    const sql = `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${select} FROM json_each(?1)`;
    const statements = [];
    let chunk = [];
    let size = 0;
    const flush = () => {
      if (chunk.length > 0) statements.push(db.prepare(sql).bind(JSON.stringify(chunk)));
      chunk = [];
      size = 0;
    };
    for (const row of rows) {
      chunk.push(row);
      size += JSON.stringify(row).length;
      if (size > 400_000) flush();
    }
    flush();
    for (let i = 0; i < statements.length; i += 10) await db.batch(statements.slice(i, i + 10));
  };

  const now = Date.UTC(2026, 10, 23, 12);
  const { meta } = await db
    .prepare("INSERT INTO museums (name, slug, source_lang, timezone) VALUES (?, ?, ?, ?)")
    .bind("Musée des Beaux-Arts de Bench", "bench", SOURCE, "Europe/Paris")
    .run();
  const museumId = meta.last_row_id;
  // A few staff (PBKDF2 strings of the real format's length), a folder tree, a glossary.
  const hash = `pbkdf2-sha256$100000$${"s".repeat(22)}$${"h".repeat(43)}`;
  await insert(
    "users",
    ["museum_id", "email", "password_hash"],
    [1, 2, 3].map((i) => [museumId, `staff${i}@bench.test`, hash]),
  );
  await insert(
    "folders",
    ["museum_id", "parent_id", "name"],
    Array.from({ length: 12 }, (_, i) => [museumId, null, `Salle ${i + 1}`]),
  );
  const folderIds = (await db.prepare("SELECT id FROM folders WHERE museum_id = ?").bind(museumId).all()).results.map((r) => r.id);
  await insert(
    "glossary_terms",
    ["museum_id", "term", "target_lang", "translation", "created_at"],
    Array.from({ length: 40 }, (_, i) => [
      museumId,
      `Terme du glossaire ${i}`,
      i % 2 ? "" : TARGETS[i % TARGETS.length],
      i % 2 ? "" : `Glossary term ${i}`,
      now,
    ]),
  );

  // Articles, segmented by the app's own code.
  const articles = [];
  for (let i = 0; i < ARTICLES; i++) articles.push(await museum.generateArticle(rand, i, WORDS));
  await insert(
    "articles",
    ["museum_id", "folder_id", "slug", "unformatted_name", "content", "version", "updated_at"],
    articles.map((a, i) => [museumId, folderIds[i % folderIds.length], a.slug, a.name, a.json, 3, now]),
  );
  const articleIds = (await db.prepare("SELECT id FROM articles WHERE museum_id = ? ORDER BY id").bind(museumId).all()).results.map((r) => r.id);
  await insert(
    "qrcodes",
    ["museum_id", "link", "article_id"],
    articleIds.map((id, i) => [museumId, `bench-${i.toString(36).padStart(8, "0")}`, id]),
  );
  await insert(
    "media",
    ["museum_id", "r2_key", "kind", "content_type", "bytes", "article_id", "width", "height"],
    articleIds.flatMap((id, i) =>
      [0, 1, 2].map((k) => [
        museumId,
        `museum/${museumId}/img-${(i * 4 + k).toString(16).padStart(8, "0")}.webp`,
        "image",
        "image/webp",
        180_000,
        id,
        1600,
        1200,
      ]),
    ),
  );

  // Translation memory: each distinct segment of the museum once per target language (the memory is per
  // museum and language pair, so a segment shared by two articles is one row).
  const distinct = new Map();
  for (const a of articles) for (const s of a.segments) distinct.set(s.hash, s.source);
  const translations = new Map(TARGETS.map((lang) => [lang, new Map()]));
  let sourceChars = 0;
  for (const source of distinct.values()) sourceChars += museum.codePoints(source);
  const reviewed = new Set(TARGETS.slice(0, REVIEWED_LANGS));
  for (const lang of TARGETS) {
    const rows = [];
    for (const [hash, source] of distinct) {
      const text = museum.translate(source, lang, rand);
      translations.get(lang).set(source, text);
      rows.push([museumId, SOURCE, lang, hash, source, text, reviewed.has(lang) ? "edited" : "machine", "workers-ai", now]);
    }
    await insert(
      "translation_memory",
      ["museum_id", "source_lang", "target_lang", "source_hash", "source_text", "text", "origin", "engine", "updated_at"],
      rows,
    );
  }
  // Reviews: every segment position of every article in the reviewed languages.
  for (const lang of reviewed) {
    const rows = [];
    articles.forEach((a, i) => {
      const hashes = new Map(a.segments.map((s) => [s.source, s.hash]));
      for (const { id, source } of museum.positions(a.json))
        rows.push([museumId, articleIds[i], lang, id, hashes.get(source), source, translations.get(lang).get(source), now]);
    });
    await insert("translation_reviews", ["museum_id", "article_id", "target_lang", "segment_id", "source_hash", "source_text", "text", "updated_at"], rows);
  }

  // Statistics: each day's events drawn with a popularity skew (Zipf over articles; the source language
  // and English most read, then a long tail), summed per article × language × day as the consumer does.
  const zipf = (n, s) => {
    const weights = Array.from({ length: n }, (_, k) => 1 / (k + 1) ** s);
    const total = weights.reduce((x, y) => x + y, 0);
    let acc = 0;
    return weights.map((w) => (acc += w / total));
  };
  const pick = (cdf) => {
    const r = rand();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const visitorLangs = [SOURCE, ...TARGETS];
  const articleCdf = zipf(ARTICLES, 0.8);
  const langCdf = zipf(visitorLangs.length, 1.1);
  const articleOrder = [...articleIds].sort(() => rand() - 0.5);
  const dayString = (t) => new Date(t).toLocaleDateString("en-CA", { timeZone: "Europe/Paris" });
  let statRows = 0;
  const rawEvents = [];
  for (let d = DAYS - 1; d >= 0; d--) {
    const dayStart = now - d * DAY;
    const counts = new Map();
    for (let e = 0; e < SCANS_PER_DAY + VIEWS_PER_DAY; e++) {
      const scan = e < SCANS_PER_DAY;
      const articleId = articleOrder[pick(articleCdf)];
      const lang = visitorLangs[pick(langCdf)];
      const key = `${articleId}|${lang}`;
      const row = counts.get(key) ?? { articleId, lang, scans: 0, views: 0 };
      if (scan) row.scans++;
      else row.views++;
      counts.set(key, row);
      if (d < RAW_DAYS) {
        const qr = scan ? articleIds.indexOf(articleId) + 1 : null;
        rawEvents.push([crypto.randomUUID(), museumId, articleId, qr, lang, scan ? "scan" : "view", dayStart - Math.floor(rand() * DAY)]);
      }
    }
    const day = dayString(dayStart);
    const rows = [...counts.values()].map((r) => [museumId, day, r.articleId, r.lang, r.scans, r.views]);
    statRows += rows.length;
    await insert("daily_stats", ["museum_id", "day", "article_id", "lang", "scans", "views"], rows);
  }
  rawEvents.sort((a, b) => a[6] - b[6]);
  await insert("scan_events", ["id", "museum_id", "article_id", "qrcode_id", "lang", "kind", "occurred_at"], rawEvents);
  // scan_visits holds about an hour of counted visits: the busiest hour, taken as 15 % of a day.
  const hourVisits = Math.round((SCANS_PER_DAY + VIEWS_PER_DAY) * 0.15);
  await insert(
    "scan_visits",
    ["fingerprint", "article_id", "kind", "counted_at", "inserted_at"],
    Array.from({ length: hourVisits }, (_, i) => [
      crypto.randomUUID().replace(/-/g, "").padEnd(64, "0"),
      articleIds[i % ARTICLES],
      i % 5 ? "scan" : "view",
      now - i * 1000,
      now - i * 1000,
    ]),
  );
  await insert(
    "translation_reports",
    ["museum_id", "article_id", "lang", "message", "created_at"],
    Array.from({ length: 30 }, (_, i) => [
      museumId,
      articleIds[i % ARTICLES],
      TARGETS[i % TARGETS.length],
      "La traduction de la légende ne correspond pas au tableau.",
      now,
    ]),
  );

  // What the visitor pages cache in KV: the translated article per language.
  let kvBytes = 0;
  for (const lang of TARGETS) for (const a of articles) kvBytes += museum.renderedBytes(a.json, translations.get(lang));

  const counts = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM translation_memory) AS tm, (SELECT COUNT(*) FROM translation_reviews) AS reviews,
              (SELECT COUNT(*) FROM daily_stats) AS stats, (SELECT COUNT(*) FROM scan_events) AS events,
              (SELECT SUM(scans) + SUM(views) FROM daily_stats) AS counted,
              (SELECT SUM(LENGTH(CAST(content AS BLOB))) FROM articles) AS contentBytes`,
    )
    .first();
  await proxy.dispose();
  proxy = undefined;

  /** The database file wrangler's local D1 keeps, and each table and index in it (dbstat). */
  const measure = () => {
    const dir = join(persist, "v3", "d1", "miniflare-D1DatabaseObject");
    const file = readdirSync(dir)
      .filter((f) => f.endsWith(".sqlite"))
      .map((f) => join(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    const sqlite = (sql) => execFileSync("sqlite3", ["-json", file, sql], { encoding: "utf8" });
    sqlite("PRAGMA wal_checkpoint(TRUNCATE);");
    const fileBytes = statSync(file).size;
    let objects = [];
    try {
      objects = JSON.parse(
        sqlite(
          `SELECT s.name AS name, COALESCE(m.tbl_name, s.name) AS tbl, SUM(s.pgsize) AS bytes, SUM(s.payload) AS payload, COUNT(*) AS pages
           FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY s.name ORDER BY bytes DESC`,
        ) || "[]",
      );
    } catch (error) {
      console.warn(`sqlite3 without dbstat (${String(error).split("\n")[0]}): per-table figures skipped`);
    }
    const byTable = new Map();
    for (const o of objects) {
      const t = byTable.get(o.tbl) ?? { table: o.tbl, bytes: 0, dataBytes: 0, indexBytes: 0 };
      t.bytes += o.bytes;
      if (o.name === o.tbl) t.dataBytes += o.bytes;
      else t.indexBytes += o.bytes;
      byTable.set(o.tbl, t);
    }
    const tables = [...byTable.values()].sort((a, b) => b.bytes - a.bytes);
    const baseline = tables
      .filter(
        (t) =>
          ![
            "articles",
            "translation_memory",
            "translation_segments",
            "translation_reviews",
            "daily_stats",
            "scan_events",
            "scan_visits",
            "media",
            "qrcodes",
          ].includes(t.table),
      )
      .reduce((s, t) => s + t.bytes, 0);
    const sum = (names) => tables.filter((t) => names.includes(t.table)).reduce((s, t) => s + t.bytes, 0);
    const groups = {
      content: sum(["articles", "qrcodes", "media", "folders", "glossary_terms", "users", "museums"]),
      translationMemory: sum(["translation_memory", "translation_segments"]),
      reviews: sum(["translation_reviews", "translation_reports"]),
      statsYear: sum(["daily_stats"]),
      rawEvents: sum(["scan_events", "scan_visits"]),
    };
    const perMuseum = Object.values(groups).reduce((a, b) => a + b, 0);
    const perStatsYear = groups.statsYear;
    return { fileBytes, tables, baseline, groups, perMuseum, perStatsYear };
  };
  const before = measure();

  // 0014 in place, as a deploy runs it, timed; then the same rows read back through the new layout.
  const m0 = performance.now();
  await applyMigrations(d1Target({ persistTo: persist }), { quiet: true });
  const migrationSeconds = (performance.now() - m0) / 1000;
  proxy = await getPlatformProxy({ configPath: join(ROOT, "workers/stats-consumer/wrangler.toml"), persist: { path: join(persist, "v3") } });
  const converted = await proxy.env.DB.prepare(
    `SELECT (SELECT COUNT(*) FROM translation_memory m JOIN translation_segments s USING (museum_id, source_lang, source_hash)) AS tm,
            (SELECT COUNT(*) FROM translation_segments) AS segments, (SELECT COUNT(*) FROM daily_stats) AS stats,
            (SELECT SUM(scans) + SUM(views) FROM daily_stats) AS counted, (SELECT COUNT(*) FROM scan_events) AS events`,
  ).first();
  if (converted.tm !== counts.tm || converted.stats !== counts.stats || converted.counted !== counts.counted || converted.events !== counts.events)
    throw new Error(`0014 lost rows: before ${JSON.stringify(counts)}, after ${JSON.stringify(converted)}`);
  // Steady state: raw events kept 5 days after they were counted (the consumer's own prune, with each event
  // counted when it happened) instead of 35 after they happened.
  await proxy.env.DB.prepare("UPDATE scan_events SET received_at = occurred_at").run();
  const pruned = await pruneScanEvents(proxy.env.DB, now);
  await proxy.dispose();
  proxy = undefined;
  const after = measure();
  const { fileBytes, tables, baseline, groups, perMuseum, perStatsYear } = after;
  // The consumer on the full-size database (after the size was measured, so its rows are not counted).
  let consumer;
  if (CONSUMER_EVENTS > 0) {
    proxy = await getPlatformProxy({ configPath: join(ROOT, "workers/stats-consumer/wrangler.toml"), persist: { path: join(persist, "v3") } });
    const raw = proxy.env.DB;
    // The consumer's own D1 calls, with D1's billing meta (rows read and written) added up.
    let rowsWritten = 0;
    let rowsRead = 0;
    const cdb = {
      prepare: (sql) => raw.prepare(sql),
      batch: async (statements) => {
        const results = await raw.batch(statements);
        for (const r of results) {
          rowsWritten += r.meta?.rows_written ?? 0;
          rowsRead += r.meta?.rows_read ?? 0;
        }
        return results;
      },
    };
    const eventsBefore = (await raw.prepare("SELECT COUNT(*) AS n FROM scan_events").first()).n;
    const at = Date.now();
    const events = Array.from({ length: CONSUMER_EVENTS }, (_, i) => ({
      id: crypto.randomUUID(),
      type: i % 5 === 0 ? "view" : "scan",
      museumId,
      articleId: articleOrder[pick(articleCdf)],
      qrcodeId: i % 5 === 0 ? null : 1 + (i % ARTICLES),
      lang: visitorLangs[pick(langCdf)],
      at: at - (i % 3600) * 1000,
      fingerprint: crypto.randomUUID().replace(/-/g, "") + crypto.randomUUID().replace(/-/g, ""),
    }));
    let acked = 0;
    const t0 = performance.now();
    const batchMs = [];
    for (let i = 0; i < events.length; i += 100) {
      const b0 = performance.now();
      await consumeScanBatch(
        events.slice(i, i + 100).map((body, j) => ({ id: `m${i + j}`, body, attempts: 1, ack: () => acked++, retry: () => {} })),
        cdb,
      );
      batchMs.push(performance.now() - b0);
    }
    const seconds = (performance.now() - t0) / 1000;
    batchMs.sort((a, b) => a - b);
    // The floor of this path: as many trivial statements as one consumer batch sends (3 per event), so
    // the figure above can be read against what the local proxy and D1 simulator cost by themselves.
    const floorMs = [];
    for (let k = 0; k < 5; k++) {
      const f0 = performance.now();
      await raw.batch(Array.from({ length: 300 }, () => raw.prepare("SELECT 1")));
      floorMs.push(performance.now() - f0);
    }
    floorMs.sort((a, b) => a - b);
    const after = await raw.prepare("SELECT COUNT(*) AS n FROM scan_events").first();
    consumer = {
      events: CONSUMER_EVENTS,
      acked,
      seconds,
      perSecond: CONSUMER_EVENTS / seconds,
      batchP50Ms: batchMs[Math.floor(batchMs.length / 2)],
      batchP99Ms: batchMs[Math.min(batchMs.length - 1, Math.floor(batchMs.length * 0.99))],
      rawEventsAdded: after.n - eventsBefore,
      trivialBatchP50Ms: floorMs[2],
      rowsWrittenPerEvent: rowsWritten / CONSUMER_EVENTS,
      rowsReadPerEvent: rowsRead / CONSUMER_EVENTS,
    };
    await proxy.dispose();
    proxy = undefined;
  }

  const D1_MAX = 10e9; // 10 GB, Cloudflare's D1 limits page (decimal GB)
  const result = {
    parameters: {
      articles: ARTICLES,
      targetLanguages: LANG_COUNT,
      days: DAYS,
      scansPerDay: SCANS_PER_DAY,
      viewsPerDay: VIEWS_PER_DAY,
      wordsPerArticle: WORDS,
      reviewedLanguages: REVIEWED_LANGS,
      rawEventDays: RAW_DAYS,
    },
    rows: {
      distinctSegments: distinct.size,
      segmentsPerArticle: articles.reduce((s, a) => s + a.segments.length, 0) / ARTICLES,
      translationMemory: counts.tm,
      reviews: counts.reviews,
      dailyStats: counts.stats,
      dailyStatsPerDay: statRows / Math.max(1, DAYS),
      scanEvents: counts.events,
    },
    characters: { sourcePerArticle: sourceChars / ARTICLES, sourceMuseum: sourceChars, contentJsonBytesPerArticle: counts.contentBytes / ARTICLES },
    bytes: { file: fileBytes, schemaAndOther: baseline, groups, perMuseum, perStatsYear, kvRenderedTranslations: kvBytes },
    museumsPer10GB: { firstYear: Math.floor(D1_MAX / perMuseum), afterThreeYears: Math.floor(D1_MAX / (perMuseum + 2 * perStatsYear)) },
    tables,
    before: { file: before.fileBytes, groups: before.groups, perMuseum: before.perMuseum, tables: before.tables },
    migration: { seconds: migrationSeconds, segments: converted.segments, rawEventsPruned: pruned },
    consumer,
    seconds: (performance.now() - started) / 1000,
  };
  if (args.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const mb = (b) => `${(b / 1e6).toFixed(2)} MB`;
    log(
      `\nOne generated museum in a local D1 (${ARTICLES} articles × ${LANG_COUNT} target languages, ${DAYS} days at ${SCANS_PER_DAY} scans + ${VIEWS_PER_DAY} views a day):`,
    );
    log(
      `  ${distinct.size} distinct segments (${result.rows.segmentsPerArticle.toFixed(1)} per article, ${Math.round(result.characters.sourcePerArticle)} characters of source text per article)`,
    );
    log(
      `  rows: translation_memory ${counts.tm}, translation_reviews ${counts.reviews}, daily_stats ${counts.stats} (${result.rows.dailyStatsPerDay.toFixed(0)} a day), scan_events ${counts.events}`,
    );
    log(`  database file ${mb(fileBytes)}\n`);
    log(`  ${"table".padEnd(22)} ${"total".padStart(11)} ${"data".padStart(11)} ${"indexes".padStart(11)}`);
    for (const t of tables) log(`  ${t.table.padEnd(22)} ${mb(t.bytes).padStart(11)} ${mb(t.dataBytes).padStart(11)} ${mb(t.indexBytes).padStart(11)}`);
    log(
      `\n  per museum: content ${mb(groups.content)}, translation memory ${mb(groups.translationMemory)}, reviews ${mb(groups.reviews)}, statistics (1 year) ${mb(groups.statsYear)}, raw events ${mb(groups.rawEvents)}`,
    );
    log(
      `  total ${mb(perMuseum)} per museum → one 10 GB D1 holds ${result.museumsPer10GB.firstYear} such museums in their first year, ${result.museumsPer10GB.afterThreeYears} after three years of statistics`,
    );
    log(`  KV (rendered translations, ${LANG_COUNT} languages × ${ARTICLES} articles): ${mb(kvBytes)}`);
    if (consumer) {
      log(
        `\n  stats consumer on this database: ${consumer.events} events in batches of 100 in ${consumer.seconds.toFixed(2)} s = ${Math.round(consumer.perSecond)} events/s` +
          ` (batch p50 ${consumer.batchP50Ms.toFixed(0)} ms, p99 ${consumer.batchP99Ms.toFixed(0)} ms; acked ${consumer.acked}, raw rows added ${consumer.rawEventsAdded};` +
          ` D1 meta: ${consumer.rowsWrittenPerEvent.toFixed(2)} rows written and ${consumer.rowsReadPerEvent.toFixed(2)} rows read per event)`,
      );
      log(`  the same path with 300 × SELECT 1 in one batch (its floor): p50 ${consumer.trivialBatchP50Ms.toFixed(0)} ms`);
      if (consumer.acked !== consumer.events || consumer.rawEventsAdded !== consumer.events) process.exitCode = 1;
    }
    const D = (x, y) => `${mb(x)} → ${mb(y)}`;
    log(
      `\n  before 0014 (the same museum, converted in place by the migration in ${migrationSeconds.toFixed(1)} s):` +
        `\n    translation memory ${D(before.groups.translationMemory, groups.translationMemory)} (${converted.segments} segments stored once)` +
        `\n    reviews and reports ${D(before.groups.reviews, groups.reviews)}` +
        `\n    statistics, one year ${D(before.groups.statsYear, groups.statsYear)}` +
        `\n    raw events and visits ${D(before.groups.rawEvents, groups.rawEvents)} (${pruned} events pruned: 5 days kept, not 35)` +
        `\n    per museum ${D(before.perMuseum, perMuseum)}: one 10 GB D1 holds ${Math.floor(D1_MAX / before.perMuseum)} → ${result.museumsPer10GB.firstYear} museums in their first year`,
    );
    log(`  ${result.seconds.toFixed(0)} s`);
  }
} finally {
  if (proxy) await proxy.dispose();
  if (args.keep) console.error(`kept ${work}`);
  else if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}
