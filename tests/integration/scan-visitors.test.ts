import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { consumeScanBatch, pruneScanVisits, VISIT_RETENTION_MS, VISIT_WINDOW_MS } from "~/queue/scan-stats.server";
import type { ScanEvent } from "~/queue/scan-event";
import worker from "../../workers/app";
import consumer from "../../workers/stats-consumer/index";
import { BASE, publishArticle, recordingScans, staffSession, texts } from "./helpers";

// What a scan counts (decision 032), from the visitor's request to the counters: the real app Worker
// answers /r/{link} with a queue that records what it is sent, then the real consumer reads those
// bodies as the runtime would deliver them, against the real local D1.

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const MINUTE = 60_000;

/** The app Worker's env with a SCANS queue that keeps what it is sent, as the queue would (a copy). */
function recordingApp() {
  const { sent, env: appEnv } = recordingScans<ScanEvent>();
  /** One visitor request, waited on until its queued event (sent after the response) is out. */
  const open = async (path: string, headers: Record<string, string>) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch!(new Request(`${BASE}${path}`, { headers }) as Request<unknown, IncomingRequestCfProperties>, appEnv, ctx);
    await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    expect(response.status, path).toBe(200);
  };
  return { sent, open };
}

let sequence = 0;
/** Delivers bodies to the consumer Worker in batches of at most `size` (the queue's max_batch_size is 100). */
async function deliver(bodies: readonly unknown[], size = 100) {
  const batches: unknown[][] = [];
  for (let i = 0; i < bodies.length; i += size) batches.push(bodies.slice(i, i + size));
  await Promise.all(
    batches.map(async (bodiesOfBatch) => {
      const batch = createMessageBatch(
        "muselingo-scans",
        bodiesOfBatch.map((body) => ({ id: `v-${++sequence}`, timestamp: new Date(), attempts: 1, body })),
      );
      await consumer.queue(batch, env);
    }),
  );
}

async function totals(museumId: number) {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(scans), 0) AS scans, COALESCE(SUM(views), 0) AS views FROM daily_stats WHERE museum_id = ?")
    .bind(museumId)
    .first<{ scans: number; views: number }>();
  return row!;
}

/** A museum with an article linked to a QR code. */
async function published() {
  const s = await staffSession();
  const { articleId, link } = await publishArticle(s, texts(["Un vase grec."]));
  return { museumId: s.user.museumId, articleId, link };
}

/** 50 identical requests at once, `times` times over. */
async function hammer(open: (path: string, headers: Record<string, string>) => Promise<void>, path: string, headers: Record<string, string>, times: number) {
  for (let round = 0; round < times / 50; round++) await Promise.all(Array.from({ length: 50 }, () => open(path, headers)));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("what a scan counts", () => {
  it("counts 200 GETs of one code from one phone as one scan, and a redelivery of them all as nothing more", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    const client = { "CF-Connecting-IP": "203.0.113.7", "User-Agent": PHONE, "Accept-Language": "de" };
    await hammer(open, `/r/${link}`, client, 200);
    // Every request still queues its event; the consumer is where they are told apart.
    expect(sent).toHaveLength(200);
    expect(new Set(sent.map((e) => e.fingerprint)).size).toBe(1);
    expect(sent[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // Neither the address nor the User-Agent travels on the queue.
    expect(JSON.stringify(sent)).not.toMatch(/203\.0\.113|iPhone|Mozilla/);

    await deliver(sent);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 0 });
    // The queue delivers at least once: the same 200 messages again, in other batches.
    await deliver([...sent].reverse(), 37);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 0 });

    // Nothing in D1 holds the address or the User-Agent.
    const stored = await env.DB.prepare("SELECT * FROM scan_visits").all();
    expect(stored.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored.results)).not.toMatch(/203\.0\.113|iPhone|Mozilla/);
  });

  it("counts two clients twice: another address, or another browser behind the same one", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    await open(`/r/${link}`, { "CF-Connecting-IP": "203.0.113.7", "User-Agent": PHONE });
    await open(`/r/${link}`, { "CF-Connecting-IP": "198.51.100.20", "User-Agent": PHONE });
    await open(`/r/${link}`, { "CF-Connecting-IP": "203.0.113.7", "User-Agent": ANDROID });
    await open(`/r/${link}`, { "CF-Connecting-IP": "198.51.100.20", "User-Agent": PHONE });
    await deliver(sent);
    expect(await totals(museumId)).toEqual({ scans: 3, views: 0 });
  });

  it("treats an IPv6 /64 as one client: a rotated interface identifier is not a new visitor", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    for (const address of ["2001:db8:85a3:42:1:2:3:4", "2001:DB8:85A3:42::beef", "2001:db8:85a3:42:ffff:ffff:ffff:ffff"]) {
      await open(`/r/${link}`, { "CF-Connecting-IP": address, "User-Agent": PHONE });
    }
    await deliver(sent);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 0 });
    // The neighbouring /64 is another subscriber.
    await open(`/r/${link}`, { "CF-Connecting-IP": "2001:db8:85a3:43::1", "User-Agent": PHONE });
    await deliver(sent.slice(3));
    expect(await totals(museumId)).toEqual({ scans: 2, views: 0 });
  });

  it("counts the same phone again once 30 minutes have passed, not before", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    const client = { "CF-Connecting-IP": "203.0.113.9", "User-Agent": PHONE };
    // Midday UTC: the day's salt is the same all along.
    const start = new Date(`${new Date().toISOString().slice(0, 10)}T11:00:00Z`).getTime() - 86_400_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    for (const minutes of [0, 10, 29, 30, 45, 59, 60]) {
      vi.setSystemTime(start + minutes * MINUTE);
      await open(`/r/${link}`, client);
    }
    expect(sent.map((e) => e.at - start)).toEqual([0, 10, 29, 30, 45, 59, 60].map((m) => m * MINUTE));
    vi.setSystemTime(start + 61 * MINUTE);
    // Delivered one by one in order, as a quiet queue would: counted at 0, 30 and 60 minutes.
    for (const event of sent) await deliver([event]);
    expect(await totals(museumId)).toEqual({ scans: 3, views: 0 });
  });

  it("does not count a request without a User-Agent, nor one whose User-Agent is blank", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    await open(`/r/${link}`, { "CF-Connecting-IP": "203.0.113.7", "User-Agent": "" });
    await open(`/r/${link}`, { "CF-Connecting-IP": "203.0.113.7", "User-Agent": "   " });
    await open(`/r/${link}`, { "CF-Connecting-IP": "203.0.113.7" });
    expect(sent).toEqual([]);
    await deliver(sent);
    expect(await totals(museumId)).toEqual({ scans: 0, views: 0 });
  });

  it("counts a scan and a language change of one visitor once each: one scan, one view", async () => {
    const { museumId, link } = await published();
    const { sent, open } = recordingApp();
    const client = { "CF-Connecting-IP": "203.0.113.7", "User-Agent": PHONE };
    await open(`/r/${link}`, client);
    await open(`/r/${link}`, client);
    for (const lang of ["en", "de", "ja", "en"]) await open(`/r/${link}?lang=${lang}`, client);
    await deliver(sent);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 1 });
    // The first language change is the one counted.
    const rows = await env.DB.prepare("SELECT lang, scans, views FROM daily_stats WHERE museum_id = ? AND views > 0").bind(museumId).all();
    expect(rows.results).toEqual([{ lang: "en", scans: 0, views: 1 }]);
  });
});

describe("the consumer's visitor window", () => {
  // A fingerprint space of its own for each test: the tests of a file share one D1 (the Workers vitest plugin
  // isolates storage per file), and scan_visits is keyed by fingerprint and article, which these events fix.
  let space = "";
  beforeEach(() => {
    space = crypto.randomUUID().replace(/-/g, "");
  });
  const fp = (n: number) => space + n.toString(16).padStart(32, "0");
  const event = (museumId: number, overrides: Partial<ScanEvent> = {}): ScanEvent => ({
    id: crypto.randomUUID(),
    type: "scan",
    museumId,
    articleId: 7,
    qrcodeId: 1,
    lang: "fr",
    at: Date.now(),
    fingerprint: fp(1),
    ...overrides,
  });

  it("counts 50 events of one visitor once, in one batch or in 50 concurrent batches", async () => {
    const { museumId } = await published();
    const now = Date.now();
    const one = Array.from({ length: 50 }, (_, i) => event(museumId, { at: now - i * 1000 }));
    await deliver(one);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 0 });
    const other = Array.from({ length: 50 }, (_, i) => event(museumId, { fingerprint: fp(2), at: now - i * 1000 }));
    await deliver(other, 1);
    expect(await totals(museumId)).toEqual({ scans: 2, views: 0 });
  });

  it("counts each visitor and article apart, and still counts events without a fingerprint one by one", async () => {
    const { museumId } = await published();
    const now = Date.now();
    await deliver([
      event(museumId, { at: now }),
      event(museumId, { at: now - MINUTE }),
      event(museumId, { articleId: 8, at: now }),
      event(museumId, { fingerprint: fp(3), at: now }),
      // Queued by the previous version, during a deployment: no fingerprint, counted as before.
      ...Array.from({ length: 3 }, () => {
        const { fingerprint: _, ...old } = event(museumId);
        return old;
      }),
    ]);
    expect(await totals(museumId)).toEqual({ scans: 6, views: 0 });
  });

  it("looks both ways in time: an event arriving after a later one of the same visitor is not counted again", async () => {
    const { museumId } = await published();
    const now = Date.now();
    await deliver([event(museumId, { at: now })]);
    await deliver([event(museumId, { at: now - 20 * MINUTE })]);
    expect(await totals(museumId)).toEqual({ scans: 1, views: 0 });
    await deliver([event(museumId, { at: now - VISIT_WINDOW_MS })]);
    expect(await totals(museumId)).toEqual({ scans: 2, views: 0 });
  });

  it("refuses a malformed fingerprint as it refuses any malformed event", async () => {
    const { museumId } = await published();
    const acks: string[] = [];
    const message = (body: unknown) => ({ id: "m", body, attempts: 1, ack: () => acks.push("ack"), retry: () => acks.push("retry") });
    const summary = await consumeScanBatch(
      [
        message(event(museumId, { fingerprint: "203.0.113.7" })),
        message(event(museumId, { fingerprint: fp(1).toUpperCase().replace(/0/g, "A") })),
        message(event(museumId, { fingerprint: "" })),
        message({ ...event(museumId), fingerprint: null }),
      ],
      env.DB,
    );
    expect(summary).toEqual({ counted: 0, dropped: 4, retried: 0 });
    expect(acks).toEqual(["ack", "ack", "ack", "ack"]);
    expect(await totals(museumId)).toEqual({ scans: 0, views: 0 });
  });

  it("forgets a visitor's fingerprint about an hour after counting it, on every batch and on the cron", async () => {
    const { museumId } = await published();
    const now = Date.now();
    const mark = fp(0xabc);
    await consumeScanBatch(
      [{ id: "a", body: event(museumId, { fingerprint: mark }), attempts: 1, ack() {}, retry() {} }],
      env.DB,
      now - VISIT_RETENTION_MS - 1,
    );
    const kept = () => env.DB.prepare("SELECT COUNT(*) AS n FROM scan_visits WHERE fingerprint = ?").bind(mark).first<{ n: number }>();
    expect((await kept())?.n).toBe(1);
    // The next batch, whoever it is from, prunes it.
    await deliver([event(museumId, { fingerprint: fp(0xdef) })]);
    expect((await kept())?.n).toBe(0);
    // The cron, an hour and a minute later, prunes the new one too.
    const later = Date.now() + VISIT_RETENTION_MS + MINUTE;
    expect(await pruneScanVisits(env.DB, later)).toBeGreaterThan(0);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM scan_visits").first<{ n: number }>())?.n).toBe(0);
  });
});
