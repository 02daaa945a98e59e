import { chunks, IN_LIST_MAX } from "~/db/chunks";
import { dayInTimeZone, dayNumber } from "~/lib/dates";
import { scanEventSchema, type QueuedEvent } from "./scan-event";

// The consumer side of the scan event: turns queue messages into `daily_stats` counters. Imported by
// workers/stats-consumer, which bundles on its own: relative imports only, no `~/`.

const DAY_MS = 86_400_000;
/**
 * Raw events are kept this long after the consumer counted them (`received_at`), then pruned by the cron
 * (0014, decision 145). They exist so that an event arriving again is counted once: a queue redelivers a
 * message at most as long as it keeps one, QUEUE_RETENTION_SECONDS (4 days, set when the deploy creates the
 * queue), and a phone re-sends its offline views when it did not see the answer, minutes later.
 */
export const RAW_EVENT_RETENTION_DAYS = 5;
/** How long the scan queue keeps a message (`wrangler queues create --message-retention-period-secs`): Cloudflare's default, 4 days. */
export const QUEUE_RETENTION_SECONDS = 4 * 86_400;
/**
 * An event that happened longer ago than this is refused: a phone's offline views are sent up to 30 days
 * after the visit (app/offline/views.ts), anything older is a producer's broken clock.
 */
export const MAX_EVENT_AGE_DAYS = 30;
/** A producer clock ahead by more than this is refused too. */
const MAX_EVENT_SKEW_MS = DAY_MS;
/**
 * One visitor (fingerprint) is counted once per article and kind within this long: an event less than
 * 30 minutes before or after one already counted is not counted (docs/decisions/032-what-a-scan-counts.md).
 */
export const VISIT_WINDOW_MS = 30 * 60_000;
/**
 * A counted visit's fingerprint is kept this long after the consumer wrote it, then pruned: long enough
 * for the events around it to arrive (retries back off 5 minutes in all), short enough that no hash
 * outlives the hour it is useful in.
 */
export const VISIT_RETENTION_MS = 60 * 60_000;
const PRUNE_CHUNK = 5_000;
/** Bounds the prune loop whatever happens, so a cron run always ends (5,000 × 2,000 = 10 M rows). */
const PRUNE_MAX_ROUNDS = 2_000;

/** What the consumer needs of a queue message (a `Message` from the runtime, or a test's stand-in). */
export interface ScanMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export interface ConsumeSummary {
  /** Messages written and acknowledged (a repeat visit among them is written and adds nothing). */
  counted: number;
  dropped: number;
  retried: number;
}

/** Exponential backoff: 10 s, 20 s, 40 s … capped at 10 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(600, 10 * 2 ** Math.max(0, attempts - 1));
}

type Parsed = { ok: true; event: QueuedEvent } | { ok: false; reason: string };

/** The schema, then what the schema cannot say: a canonical language tag and a plausible time. */
export function parseScanMessage(body: unknown, now: number): Parsed {
  const parsed = scanEventSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` };
  }
  const event = parsed.data;
  let lang: string | undefined;
  try {
    // "pt-br" and "pt-BR" are one language: one series in the charts.
    lang = Intl.getCanonicalLocales(event.lang)[0];
  } catch {
    lang = undefined;
  }
  if (!lang) return { ok: false, reason: "lang: not a valid language tag" };
  if (event.at < now - MAX_EVENT_AGE_DAYS * DAY_MS) return { ok: false, reason: `at: older than ${MAX_EVENT_AGE_DAYS} days` };
  if (event.at > now + MAX_EVENT_SKEW_MS) return { ok: false, reason: "at: in the future" };
  return { ok: true, event: { ...event, lang } };
}

// Each statement runs only when the one just above it in the same batch inserted a row (`changes()`
// reads 1): a redelivered event hits the primary key of `scan_events` and is ignored; a visitor already
// counted for this article and kind within the window finds its `scan_visits` row and is not added; in
// both cases `changes()` reads 0 and the counters stay as they are. D1 runs a batch as one transaction
// and one database runs one at a time, so concurrent batches cannot both see "not yet counted".
const INSERT_EVENT = `INSERT OR IGNORE INTO scan_events (id, museum_id, article_id, qrcode_id, lang, kind, occurred_at, received_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`;
const INSERT_VISIT = `INSERT INTO scan_visits (fingerprint, article_id, kind, counted_at, inserted_at)
SELECT ?1, ?2, ?3, ?4, ?5 WHERE changes() = 1 AND NOT EXISTS (
  SELECT 1 FROM scan_visits WHERE fingerprint = ?1 AND article_id = ?2 AND kind = ?3 AND counted_at > ?6 AND counted_at < ?7
)`;
const ADD_TO_DAY = `INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views)
SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE changes() = 1
ON CONFLICT (museum_id, day, article_id, lang) DO UPDATE SET scans = scans + excluded.scans, views = views + excluded.views`;

// A tour's part of an event (decision 084) is counted by the same rules with its own rows: a second raw
// event (id + "#tour", so a redelivery is ignored), a visit of kind "tour:{position}" keyed by the tour
// (kinds never collide with "scan"/"view", so tour ids and article ids never mix), then the day's counter.
const INSERT_TOUR_EVENT = `INSERT OR IGNORE INTO scan_events (id, museum_id, article_id, qrcode_id, lang, kind, occurred_at, received_at)
VALUES (?1, ?2, ?3, NULL, ?4, 'tour', ?5, ?6)`;
const ADD_TO_TOUR_DAY = `INSERT INTO tour_daily_stats (museum_id, day, tour_id, position, views)
SELECT ?1, ?2, ?3, ?4, 1 WHERE changes() = 1
ON CONFLICT (museum_id, day, tour_id, position) DO UPDATE SET views = views + 1`;
// An open of the easy-to-read version (decision 096): counted per museum day, article and language, right
// after the event's own insert, so a redelivered event adds nothing; every open counts (no visitor window),
// and the upsert leaves `changes()` at 1 exactly when the insert before it did, for the statements after.
const ADD_EASY_READ = `INSERT INTO easy_read_daily_stats (museum_id, day, article_id, lang, opens)
SELECT ?1, ?2, ?3, ?4, 1 WHERE changes() = 1
ON CONFLICT (museum_id, day, article_id, lang) DO UPDATE SET opens = opens + 1`;

/**
 * The statements that count one event (two, or three with a fingerprint; as many again for its tour
 * part); prepared once per batch, bound per event. An event without a fingerprint (queued before it
 * existed) is counted as before.
 */
function counter(db: D1Database, now: number) {
  const insertEvent = db.prepare(INSERT_EVENT);
  const insertVisit = db.prepare(INSERT_VISIT);
  const addToDay = db.prepare(ADD_TO_DAY);
  const insertTourEvent = db.prepare(INSERT_TOUR_EVENT);
  const addToTourDay = db.prepare(ADD_TO_TOUR_DAY);
  const addEasyRead = db.prepare(ADD_EASY_READ);
  const visit = (fingerprint: string | undefined, key: number, kind: string, at: number) =>
    fingerprint === undefined ? [] : [insertVisit.bind(fingerprint, key, kind, at, now, at - VISIT_WINDOW_MS, at + VISIT_WINDOW_MS)];
  return (event: QueuedEvent, day: number): D1PreparedStatement[] => {
    const tour = event.tour
      ? [
          insertTourEvent.bind(`${event.id}#tour`, event.museumId, event.type === "start" ? 0 : event.articleId, event.lang, event.at, now),
          ...visit(event.fingerprint, event.tour.id, `tour:${event.tour.position}`, event.at),
          addToTourDay.bind(event.museumId, day, event.tour.id, event.tour.position),
        ]
      : [];
    if (event.type === "start") return tour;
    const scan = event.type === "scan" ? 1 : 0;
    return [
      insertEvent.bind(event.id, event.museumId, event.articleId, event.qrcodeId, event.lang, event.type, event.at, now),
      ...(event.easyRead ? [addEasyRead.bind(event.museumId, day, event.articleId, event.lang)] : []),
      ...visit(event.fingerprint, event.articleId, event.type, event.at),
      addToDay.bind(event.museumId, day, event.articleId, event.lang, scan, 1 - scan),
      ...tour,
    ];
  };
}

async function museumTimeZones(db: D1Database, ids: readonly number[]): Promise<Map<number, string>> {
  const zones = new Map<number, string>();
  for (const chunk of chunks(ids, IN_LIST_MAX)) {
    const { results } = await db
      .prepare(`SELECT id, timezone FROM museums WHERE id IN (${chunk.map(() => "?").join(", ")})`)
      .bind(...chunk)
      .all<{ id: number; timezone: string }>();
    for (const row of results) zones.set(row.id, row.timezone);
  }
  return zones;
}

function log(level: "warn" | "error" | "log", event: string, fields: Record<string, unknown>) {
  console[level](JSON.stringify({ event, ...fields }));
}

/**
 * Counts each valid message once. The whole batch goes to D1 as one transaction; if that fails, each
 * message is tried in its own transaction, so one bad message is retried (with backoff) alone and the
 * others are acknowledged. A malformed message, or one for a museum that no longer exists, is logged
 * and acknowledged: retrying cannot fix it.
 */
export async function consumeScanBatch(messages: readonly ScanMessage[], db: D1Database, now = Date.now()): Promise<ConsumeSummary> {
  const summary: ConsumeSummary = { counted: 0, dropped: 0, retried: 0 };
  const drop = (message: ScanMessage, reason: string) => {
    log("warn", "scan_event_dropped", { messageId: message.id, reason });
    message.ack();
    summary.dropped++;
  };
  const retry = (message: ScanMessage, error: unknown) => {
    const delaySeconds = retryDelaySeconds(message.attempts);
    log("error", "scan_event_retry", { messageId: message.id, attempts: message.attempts, delaySeconds, error: String(error) });
    message.retry({ delaySeconds });
    summary.retried++;
  };

  const valid: { message: ScanMessage; event: QueuedEvent }[] = [];
  for (const message of messages) {
    const parsed = parseScanMessage(message.body, now);
    if (parsed.ok) valid.push({ message, event: parsed.event });
    else drop(message, parsed.reason);
  }
  if (valid.length === 0) return summary;

  let zones: Map<number, string>;
  try {
    zones = await museumTimeZones(db, [...new Set(valid.map((v) => v.event.museumId))]);
  } catch (error) {
    for (const { message } of valid) retry(message, error);
    return summary;
  }

  const count = counter(db, now);
  const work: { message: ScanMessage; statements: D1PreparedStatement[] }[] = [];
  for (const { message, event } of valid) {
    const zone = zones.get(event.museumId);
    if (zone === undefined) drop(message, `museumId: museum ${event.museumId} does not exist`);
    else work.push({ message, statements: count(event, dayNumber(dayInTimeZone(event.at, zone))) });
  }
  if (work.length === 0) return summary;

  try {
    await db.batch(work.flatMap((w) => w.statements));
    for (const { message } of work) message.ack();
    summary.counted += work.length;
    return summary;
  } catch (error) {
    if (work.length === 1) {
      retry(work[0]!.message, error);
      return summary;
    }
    log("warn", "scan_batch_split", { size: work.length, error: String(error) });
  }
  for (const { message, statements } of work) {
    try {
      await db.batch(statements);
      message.ack();
      summary.counted++;
    } catch (error) {
      retry(message, error);
    }
  }
  return summary;
}

/** Deletes raw events counted longer ago than the retention, a chunk at a time so no statement runs long. */
export async function pruneScanEvents(db: D1Database, now = Date.now()): Promise<number> {
  const cutoff = now - RAW_EVENT_RETENTION_DAYS * DAY_MS;
  let deleted = 0;
  for (let round = 0; round < PRUNE_MAX_ROUNDS; round++) {
    const result = await db
      .prepare("DELETE FROM scan_events WHERE id IN (SELECT id FROM scan_events WHERE received_at < ?1 LIMIT ?2)")
      .bind(cutoff, PRUNE_CHUNK)
      .run();
    deleted += result.meta.changes;
    if (result.meta.changes < PRUNE_CHUNK) break;
  }
  return deleted;
}

/**
 * Deletes the fingerprints of visits written more than an hour ago (`VISIT_RETENTION_MS`). Run after
 * every batch and by the daily cron, so a fingerprint lives about an hour in D1, never a day.
 */
export async function pruneScanVisits(db: D1Database, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < PRUNE_MAX_ROUNDS; round++) {
    const result = await db
      .prepare("DELETE FROM scan_visits WHERE rowid IN (SELECT rowid FROM scan_visits WHERE inserted_at < ?1 LIMIT ?2)")
      .bind(now - VISIT_RETENTION_MS, PRUNE_CHUNK)
      .run();
    deleted += result.meta.changes;
    if (result.meta.changes < PRUNE_CHUNK) break;
  }
  return deleted;
}
