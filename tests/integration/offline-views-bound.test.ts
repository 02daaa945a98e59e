import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { issueOfflinePass } from "~/offline/pass";
import type { QueuedEvent } from "~/queue/scan-event";
import worker from "../../workers/app";
import consumer from "../../workers/stats-consumer/index";
import { BASE, createTour, get, publishArticle, recordingScans, staffSession, texts } from "./helpers";

// Statistics stay honest (issue 29 §3, decision 118): the batches that inflated the counts (100 views of one
// stop spread 31 minutes apart, the same again under another User-Agent or client id) are sent as an attacker
// would, through the app Worker and the real consumer; a saved copy counts at most what it can really produce.

type Json = Record<string, unknown>;
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const MINUTE = 60_000;

const makeTour = (museumId: number, articleIds: number[]) => createTour(museumId, articleIds, { name: "Parcours", description: "", minutes: null });

/** The app Worker with a SCANS queue that keeps what it is sent; `post` sends a batch as a phone at `ip` would. */
function recordingApp() {
  const { sent, env: appEnv } = recordingScans<QueuedEvent>();
  const post = async (body: unknown, ip: string, userAgent = IPHONE) => {
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/api/visit/offline_views`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": userAgent, "CF-Connecting-IP": ip },
      body: JSON.stringify(body),
    });
    const response = await worker.fetch!(request as Request<unknown, IncomingRequestCfProperties>, appEnv, ctx);
    const json = (await response.json()) as Json;
    await waitOnExecutionContext(ctx);
    return { status: response.status, body: json };
  };
  return { sent, post };
}

let sequence = 0;
/** Hands what was queued to the real consumer, then empties the list. */
async function deliver(sent: unknown[]) {
  const bodies = sent.splice(0);
  for (let i = 0; i < bodies.length; i += 100) {
    const batch = createMessageBatch(
      "muselingo-scans",
      bodies.slice(i, i + 100).map((body) => ({ id: `b-${++sequence}`, timestamp: new Date(), attempts: 1, body })),
    );
    await consumer.queue(batch, env);
  }
}

const viewsOf = async (articleId: number) =>
  (await env.DB.prepare("SELECT COALESCE(SUM(views), 0) AS v FROM daily_stats WHERE article_id = ?").bind(articleId).first<{ v: number }>())!.v;
const tourViews = async (tourId: number) =>
  (await env.DB.prepare("SELECT COALESCE(SUM(views), 0) AS v FROM tour_daily_stats WHERE tour_id = ?").bind(tourId).first<{ v: number }>())!.v;

/** 100 views of one stop, their times 31 minutes apart back from now (just outside the 30-minute visitor window). */
const spread = (path: string, pass?: string, client = "attacker-0123456789abcdef") => ({
  client,
  views: Array.from({ length: 100 }, (_, k) => ({ path, lang: "fr", at: Date.now() - k * 31 * MINUTE, ...(pass ? { pass } : {}) })),
});

async function passOf(link: string, ip: string): Promise<string | null> {
  const response = await get(`/t/${link}/offline.json?lang=fr&pass=1`, undefined, { "CF-Connecting-IP": ip });
  expect(response.status).toBe(200);
  return ((await response.json()) as { pass?: string | null }).pass ?? null;
}

describe("offline views stay honest", () => {
  it("counts the inflating batches once: 100 views 31 minutes apart, again under another User-Agent and client", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Première salle"]));
    const tour = await makeTour(s.user.museumId, [one.articleId]);
    const app = recordingApp();
    const stop = `/t/${tour.link}/1`;

    // The batches of the issue, as sent then (no pass): accepted, nothing counted.
    const first = await app.post(spread(stop), "203.0.113.71");
    await deliver(app.sent);
    const afterFirst = await viewsOf(one.articleId);
    const second = await app.post(spread(stop), "203.0.113.71", ANDROID);
    await deliver(app.sent);
    const afterSecond = await viewsOf(one.articleId);
    console.log(`inflating batches without a pass: one call counted ${afterFirst}, another User-Agent ${afterSecond - afterFirst} more`);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect([afterFirst, afterSecond]).toEqual([0, 0]);
    expect(first.body).toEqual({ counted: 0, ignored: 100 });

    // With a real pass (the tour just saved): its stop once, whatever the spread, User-Agent or client id.
    const pass = await passOf(tour.link, "203.0.113.71");
    expect(pass).toMatch(/^\d+\.\d+\.[A-Za-z0-9_-]{22}\.[0-9a-f]{64}$/);
    expect((await app.post(spread(stop, pass!), "203.0.113.71")).body).toEqual({ counted: 1, ignored: 99 });
    await deliver(app.sent);
    const withPass = await viewsOf(one.articleId);
    await app.post(spread(stop, pass!), "203.0.113.71", ANDROID);
    await app.post(spread(stop, pass!, "another-client-0123456789"), "198.51.100.72", ANDROID);
    await deliver(app.sent);
    const withPassAgain = (await viewsOf(one.articleId)) - withPass;
    console.log(`inflating batches with a saved copy's pass: one call counted ${withPass}, another User-Agent and client ${withPassAgain} more`);
    expect([withPass, withPassAgain]).toEqual([1, 0]);
    expect(await tourViews(tour.id)).toBe(1);
  });

  it("lets a copy saved two hours ago count each page once per half hour since its save, and no more", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Un"]));
    const two = await publishArticle(s, texts(["Deux"]));
    const tour = await makeTour(s.user.museumId, [one.articleId, two.articleId]);
    const app = recordingApp();
    const savedAt = Date.now() - 2 * 60 * MINUTE - MINUTE;
    const pass = await issueOfflinePass(env.SESSION_SECRET, tour.id, savedAt);
    // A real visit: the tour page, then each stop, 10 minutes apart, then stop 1 again an hour later.
    const visit = [
      { path: `/t/${tour.link}`, at: savedAt + 5 * MINUTE },
      { path: `/t/${tour.link}/1`, at: savedAt + 10 * MINUTE },
      { path: `/t/${tour.link}/2`, at: savedAt + 20 * MINUTE },
      { path: `/t/${tour.link}/1`, at: savedAt + 80 * MINUTE },
    ].map((v) => ({ ...v, lang: "en", pass }));
    expect((await app.post({ client: "honest-phone-0123456789", views: visit }, "203.0.113.81")).body).toEqual({ counted: 4, ignored: 0 });
    expect(app.sent.map((e) => e.at)).toEqual(visit.map((v) => v.at));
    await deliver(app.sent);
    expect([await viewsOf(one.articleId), await viewsOf(two.articleId)]).toEqual([2, 1]);

    // Every stop every minute since the save, from three User-Agents: at most one per window (5 windows) each.
    const flood = Array.from({ length: 2 * 130 }, (_, k) => ({
      path: `/t/${tour.link}/${(k % 2) + 1}`,
      lang: "en",
      at: savedAt + Math.floor(k / 2) * MINUTE,
      pass,
    }));
    for (const [i, agent] of [IPHONE, ANDROID, "curl/8.5"].entries())
      for (let b = 0; b < flood.length; b += 100)
        await app.post({ client: `flood-client-${i}-0123456789`, views: flood.slice(b, b + 100) }, "203.0.113.82", agent);
    await deliver(app.sent);
    expect([await viewsOf(one.articleId), await viewsOf(two.articleId)]).toEqual([5, 5]);
  });

  it("does not count a view with another tour's pass, a forged one or one older than a saved copy lives", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Seul"]));
    const tour = await makeTour(s.user.museumId, [one.articleId]);
    const other = await makeTour(s.user.museumId, [one.articleId]);
    const app = recordingApp();
    const now = Date.now();
    const theirs = await issueOfflinePass(env.SESSION_SECRET, other.id, now - MINUTE);
    const forged = await issueOfflinePass("not-the-server-secret", tour.id, now - MINUTE);
    const old = await issueOfflinePass(env.SESSION_SECRET, tour.id, now - 32 * 86_400_000);
    const views = [theirs, forged, old].map((pass) => ({ path: `/t/${tour.link}/1`, lang: "fr", at: now - 1000, pass }));
    expect((await app.post({ client: "forger-0123456789abcdef", views }, "203.0.113.91")).body).toEqual({ counted: 0, ignored: 3 });
    const malformed = await app.post({ client: "forger-0123456789abcdef", views: [{ ...views[0], pass: `${theirs} ` }] }, "203.0.113.91");
    expect(malformed).toMatchObject({ status: 400, body: { error: { field: "views.0.pass" } } });
    // Another museum's tour address with this museum's pass: nothing for either.
    const b = await staffSession();
    const theirArticle = await publishArticle(b, texts(["B"]));
    const theirTour = await makeTour(b.user.museumId, [theirArticle.articleId]);
    const mine = await issueOfflinePass(env.SESSION_SECRET, tour.id, now - MINUTE);
    expect(
      (await app.post({ client: "forger-0123456789abcdef", views: [{ path: `/t/${theirTour.link}/1`, lang: "fr", at: now, pass: mine }] }, "203.0.113.91"))
        .body,
    ).toEqual({ counted: 0, ignored: 1 });
    expect(app.sent).toEqual([]);
  });

  it("gives 30 passes per network in 15 minutes, then a manifest without one; 50 identical batches at once count once", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Salle"]));
    const tour = await makeTour(s.user.museumId, [one.articleId]);
    const passes = await Promise.all(Array.from({ length: 35 }, () => passOf(tour.link, "203.0.113.101")));
    expect(passes.filter((p) => p !== null)).toHaveLength(30);
    expect(new Set(passes.filter((p) => p !== null)).size).toBe(30);
    // The manifest without `pass=1` (the hourly check, the size shown before saving) gives none and takes none.
    const plain = (await (await get(`/t/${tour.link}/offline.json?lang=fr`, undefined, { "CF-Connecting-IP": "203.0.113.102" })).json()) as Json;
    expect(plain.pass).toBeUndefined();
    expect(await passOf(tour.link, "203.0.113.102")).not.toBeNull();

    const app = recordingApp();
    const batch = { client: "same-phone-0123456789", views: [{ path: `/t/${tour.link}/1`, lang: "fr", at: Date.now(), pass: passes[0]! }] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => app.post(batch, "203.0.113.103")));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(30);
    await deliver(app.sent);
    expect(await viewsOf(one.articleId)).toBe(1);
  });
});
