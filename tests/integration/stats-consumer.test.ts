import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ScanEvent } from "~/queue/scan-event";
import { dayInTimeZone, dayNumber, isoDay } from "~/lib/dates";
import { consumeScanBatch, RAW_EVENT_RETENTION_DAYS, retryDelaySeconds } from "~/queue/scan-stats.server";
import consumer from "../../workers/stats-consumer/index";
import { createMuseumWithUser } from "./helpers";

// The consumer Worker's handlers, called as the runtime calls them, against the real local D1.
const QUEUE = "muselingo-scans";
const DAY = 86_400_000;

function scan(museumId: number, overrides: Partial<ScanEvent> = {}): ScanEvent {
  return { id: crypto.randomUUID(), type: "scan", museumId, articleId: 1, qrcodeId: 1, lang: "en", at: Date.now(), ...overrides };
}

let sequence = 0;
async function deliver(bodies: unknown[], consumerEnv: ConsumerEnv = env, attempts = 1) {
  const batch = createMessageBatch(
    QUEUE,
    bodies.map((body) => ({ id: `m-${++sequence}`, timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await consumer.queue(batch, consumerEnv);
  return getQueueResult(batch, ctx);
}

async function counts(museumId: number) {
  const { results } = await env.DB.prepare(
    "SELECT day, article_id AS articleId, lang, scans, views FROM daily_stats WHERE museum_id = ? ORDER BY day, article_id, lang",
  )
    .bind(museumId)
    .all<{ day: number; articleId: number; lang: string; scans: number; views: number }>();
  // Stored as a day number (0014): read back as the calendar day it is.
  return results.map((row) => ({ ...row, day: isoDay(row.day) }));
}

async function museum(timezone = "Europe/Paris") {
  const user = await createMuseumWithUser();
  await env.DB.prepare("UPDATE museums SET timezone = ? WHERE id = ?").bind(timezone, user.museumId).run();
  return user.museumId;
}

/** The real D1, except that `batch` fails while `failures` says so: a D1 outage as the consumer sees it. */
function flakyDb(shouldFail: (statements: D1PreparedStatement[]) => boolean): D1Database {
  return new Proxy(env.DB, {
    get(target, key) {
      if (key === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (shouldFail(statements)) throw new Error("D1_ERROR: simulated outage");
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("stats consumer", () => {
  it("counts a scan and a view on the museum's day, and acknowledges both", async () => {
    const museumId = await museum();
    const result = await deliver([scan(museumId), scan(museumId, { type: "view", qrcodeId: null, lang: "pt-br" })]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toEqual([]);
    const today = dayInTimeZone(Date.now(), "Europe/Paris");
    expect(await counts(museumId)).toEqual([
      { day: today, articleId: 1, lang: "en", scans: 1, views: 0 },
      // Tags are stored canonical: "pt-br" and "pt-BR" are one series.
      { day: today, articleId: 1, lang: "pt-BR", scans: 0, views: 1 },
    ]);
  });

  it("counts an event delivered twice once, in the same batch or in a later one", async () => {
    const museumId = await museum();
    const event = scan(museumId);
    const first = await deliver([event, event, { ...event }]);
    expect(first.explicitAcks).toHaveLength(3);
    const again = await deliver([event, scan(museumId)]);
    expect(again.explicitAcks).toHaveLength(2);
    const rows = await counts(museumId);
    expect(rows.map((r) => r.scans)).toEqual([2]);
    const stored = await env.DB.prepare("SELECT qrcode_id AS q, kind FROM scan_events WHERE id = ?").bind(event.id).first();
    expect(stored).toEqual({ q: 1, kind: "scan" });
  });

  it("keeps exact counts whatever the order, duplication and grouping of 300 deliveries", async () => {
    const museumId = await museum();
    const events = Array.from({ length: 120 }, (_, i) =>
      scan(museumId, { articleId: 1 + (i % 3), lang: ["fr", "de", "es"][i % 2]!, type: i % 5 === 0 ? "view" : "scan" }),
    );
    // Every event at least once, 180 duplicates, shuffled, in uneven batches, some batches in parallel.
    const deliveries = [...events, ...events, ...events.slice(0, 60)].sort(() => Math.random() - 0.5);
    const batches: ScanEvent[][] = [];
    for (let i = 0; i < deliveries.length; i += 1 + (i % 37)) batches.push(deliveries.slice(i, i + 1 + (i % 37)));
    await Promise.all(batches.map((b) => deliver(b)));
    const rows = await counts(museumId);
    const total = rows.reduce((n, r) => n + r.scans + r.views, 0);
    expect(total).toBe(120);
    expect(rows.reduce((n, r) => n + r.views, 0)).toBe(24);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM scan_events WHERE museum_id = ?").bind(museumId).first<{ n: number }>();
    expect(stored?.n).toBe(120);
  });

  it("acknowledges malformed messages without counting them, and counts the valid ones beside them", async () => {
    const museumId = await museum();
    const good = scan(museumId);
    const result = await deliver([
      "not an object",
      null,
      { ...scan(museumId), id: "not-a-uuid" },
      { ...scan(museumId), lang: "x" },
      { ...scan(museumId), lang: "en-" },
      { ...scan(museumId), museumId: "1" },
      { ...scan(museumId), at: Date.now() - 31 * DAY },
      { ...scan(museumId), at: Date.now() + 2 * DAY },
      { ...scan(museumId), type: "click" },
      scan(2_000_000_000),
      good,
    ]);
    expect(result.explicitAcks).toHaveLength(11);
    expect(result.retryMessages).toEqual([]);
    expect((await counts(museumId)).map((r) => r.scans)).toEqual([1]);
  });

  it("retries a message with backoff when D1 fails, and counts it once when D1 is back", async () => {
    const museumId = await museum();
    const event = scan(museumId);
    const failing = flakyDb(() => true);
    const failed = await deliver([event], { ...env, DB: failing }, 3);
    expect(failed.explicitAcks).toEqual([]);
    expect(failed.retryMessages).toEqual([{ msgId: expect.any(String) }]);
    // getQueueResult does not report the delay: a stand-in message shows what the consumer asks for.
    const asked: unknown[] = [];
    const message = { id: "m", body: event, attempts: 3, ack: () => asked.push("ack"), retry: (o?: unknown) => asked.push(o) };
    await consumeScanBatch([message], failing);
    expect(asked).toEqual([{ delaySeconds: 40 }]);
    expect(retryDelaySeconds(1)).toBe(10);
    expect(retryDelaySeconds(3)).toBe(40);
    expect(retryDelaySeconds(20)).toBe(600);
    expect(await counts(museumId)).toEqual([]);
    const retried = await deliver([event], env, 4);
    expect(retried.explicitAcks).toHaveLength(1);
    expect((await counts(museumId)).map((r) => r.scans)).toEqual([1]);
  });

  it("retries only the message whose write fails; the rest of the batch is counted", async () => {
    const museumId = await museum();
    const events = [scan(museumId), scan(museumId, { articleId: 2 }), scan(museumId, { articleId: 3 })];
    // The whole-batch transaction fails, then so does the one for article 2 (6 statements vs 2).
    let calls = 0;
    const db = flakyDb((statements) => {
      calls++;
      return statements.length > 2 || calls === 3;
    });
    const result = await deliver(events, { ...env, DB: db });
    expect(result.explicitAcks).toHaveLength(2);
    expect(result.retryMessages).toHaveLength(1);
    expect((await counts(museumId)).map((r) => r.articleId)).toEqual([1, 3]);
  });

  it("puts a scan on the museum's calendar day: Paris and UTC differ around midnight", async () => {
    const paris = await museum("Europe/Paris");
    const utc = await museum("UTC");
    // Yesterday 23:30 UTC: still yesterday in UTC, already today in Paris (UTC+1 or +2).
    const yesterday = new Date(Date.now() - DAY);
    const at = Date.UTC(yesterday.getUTCFullYear(), yesterday.getUTCMonth(), yesterday.getUTCDate(), 23, 30);
    await deliver([scan(paris, { at }), scan(utc, { at })]);
    expect((await counts(paris))[0]?.day).toBe(new Date(at + DAY).toISOString().slice(0, 10));
    expect((await counts(utc))[0]?.day).toBe(yesterday.toISOString().slice(0, 10));
    // Fixed instants, checked on their own: summer time too.
    expect(dayInTimeZone(Date.UTC(2026, 2, 14, 23, 30), "Europe/Paris")).toBe("2026-03-15");
    expect(dayInTimeZone(Date.UTC(2026, 2, 14, 23, 30), "UTC")).toBe("2026-03-14");
    expect(dayInTimeZone(Date.UTC(2026, 6, 1, 21, 59), "Europe/Paris")).toBe("2026-07-01");
    expect(dayInTimeZone(Date.UTC(2026, 6, 1, 22, 0), "Europe/Paris")).toBe("2026-07-02");
    expect(dayInTimeZone(Date.UTC(2026, 6, 1, 22, 0), "Not/AZone")).toBe("2026-07-01");
  });

  it("prunes raw events counted more than 5 days ago on the cron, whenever they happened, keeping the counters", async () => {
    const museumId = await museum();
    const now = Date.now();
    const old = [1, 2, 3].map(() => crypto.randomUUID());
    const recent = crypto.randomUUID();
    const insert = env.DB.prepare(
      "INSERT INTO scan_events (id, museum_id, article_id, lang, kind, occurred_at, received_at) VALUES (?, ?, 1, 'fr', 'scan', ?, ?)",
    );
    await env.DB.batch([
      // Counted past the retention, one of them only minutes after it happened.
      ...old.map((id, i) => insert.bind(id, museumId, now - (RAW_EVENT_RETENTION_DAYS + 1 + i) * DAY, now - (RAW_EVENT_RETENTION_DAYS + 1) * DAY)),
      // An offline view from 20 days ago, counted yesterday: kept, so the phone re-sending it counts it once.
      insert.bind(recent, museumId, now - 20 * DAY, now - DAY),
    ]);
    expect(RAW_EVENT_RETENTION_DAYS).toBe(5);
    await env.DB.prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans) VALUES (?, ?, 1, 'fr', 3)")
      .bind(museumId, dayNumber("2020-01-01"))
      .run();
    await consumer.scheduled(createScheduledController({ scheduledTime: new Date(now), cron: "15 3 * * *" }), env);
    const { results } = await env.DB.prepare("SELECT id FROM scan_events WHERE museum_id = ?").bind(museumId).all<{ id: string }>();
    expect(results.map((r) => r.id)).toEqual([recent]);
    expect((await counts(museumId)).map((r) => r.scans)).toEqual([3]);
  });
});
