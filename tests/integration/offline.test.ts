import { createExecutionContext, createMessageBatch, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { isoDay } from "~/lib/dates";
import { randomLink } from "~/models/qrcodes.server";
import { issueOfflinePass } from "~/offline/pass";
import type { QueuedEvent } from "~/queue/scan-event";
import worker from "../../workers/app";
import consumer from "../../workers/stats-consumer/index";
import { BASE, createTour, get, publishArticle, recordingScans, staffSession, texts, type StaffSession } from "./helpers";
import { mp3Bytes } from "./narration-helpers";

// The offline visit (issue 21 §3, decisions 087-088): the manifest a phone saves, the offline page, the
// scripts' headers, and the views made offline, from the request to the counters through the real consumer.

type Json = Record<string, unknown>;
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const DAY = 86_400_000;

/** A tour of `articleIds` in this order, with neither description nor duration. */
const makeTour = (museumId: number, articleIds: number[], name = "Les incontournables") =>
  createTour(museumId, articleIds, { name, description: "", minutes: null });

/** Uploads one of the demo museum's illustrations for `articleId`; its /media/ address. */
async function uploadDemoImage(s: StaffSession, articleId: number, index: number) {
  const images = env.DEMO_SEED.files.filter((f) => f.contentType === "image/webp");
  const f = images[index % images.length]!;
  const form = new FormData();
  form.append("articleId", String(articleId));
  form.append("image", new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], `demo-${index}.webp`, { type: "image/webp" }));
  const response = await SELF.fetch(`${BASE}/api/upload/image`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
  const body = (await response.json()) as Json;
  if (response.status !== 200) throw new Error(`upload: ${response.status} ${JSON.stringify(body)}`);
  return String(body.mediaUrl);
}

const manifest = async (link: string, lang = "en") => {
  const response = await get(`/t/${link}/offline.json?lang=${lang}`);
  return {
    status: response.status,
    body: (await response.json()) as Json & {
      entries: Json[];
      keypad: { page: string; numbers: Record<string, string> };
      bytes: { known: number; estimated: number };
    },
  };
};

const views = (body: unknown, headers: Record<string, string> = {}) =>
  SELF.fetch(`${BASE}/api/visit/offline_views`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": PHONE, "CF-Connecting-IP": "198.51.100.7", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

/** The app Worker with a SCANS queue that keeps what it is sent (recordingScans, as scan-visitors.test.ts). */
function recordingApp() {
  const { sent, env: appEnv } = recordingScans<QueuedEvent>();
  const post = async (body: unknown, ip: string) => {
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/api/visit/offline_views`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": PHONE, "CF-Connecting-IP": ip },
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
async function deliver(bodies: readonly unknown[]) {
  for (let i = 0; i < bodies.length; i += 100) {
    const batch = createMessageBatch(
      "muselingo-scans",
      bodies.slice(i, i + 100).map((body) => ({ id: `o-${++sequence}`, timestamp: new Date(), attempts: 1, body })),
    );
    await consumer.queue(batch, env);
  }
}

const viewsOf = async (museumId: number, articleId: number) =>
  (await env.DB.prepare("SELECT COALESCE(SUM(views), 0) AS views FROM daily_stats WHERE museum_id = ? AND article_id = ?")
    .bind(museumId, articleId)
    .first<{ views: number }>())!.views;

describe("offline manifest", () => {
  it("lists the tour page, the shown stops renumbered, their images with sizes, subtitles, the keypad and its numbers; a version that follows changes", async () => {
    const s = await staffSession();
    const first = await publishArticle(s, texts(["Première salle"]));
    const hidden = (await s.call("add_article", { pathArray: [] })).body.id as number; // never published: not shown
    const second = await publishArticle(s, texts(["Deuxième salle"]));
    const image = await uploadDemoImage(s, second.articleId, 4);
    await second.edit([
      { type: "image", src: image, alt: "Mosaïque" },
      { type: "video", src: "/media/none.mp4", videoId: "abc123", subtitles: "/media/none.vtt" },
    ]);
    await env.DB.prepare("UPDATE articles SET stop_number = ? WHERE id = ?").bind(12, second.articleId).run();
    await env.DB.prepare("UPDATE articles SET stop_number = ? WHERE id = ?").bind(3, hidden).run();
    const tour = await makeTour(s.user.museumId, [first.articleId, hidden, second.articleId]);

    const { status, body } = await manifest(tour.link, "en");
    expect(status).toBe(200);
    const t = `/t/${tour.link}`;
    expect(body.entries.map((e) => e.url)).toEqual([
      `${t}?lang=en`,
      `${t}/1?lang=en`,
      `${t}/2?lang=en`,
      `/v/${encodeURIComponent(s.user.museumSlug)}/n?lang=en&tour=${tour.link}`,
      image,
      "/vtt?src=%2Fmedia%2Fnone.vtt&lang=en",
    ]);
    const row = await env.DB.prepare("SELECT bytes FROM media WHERE r2_key = ?").bind(image.slice("/media/".length)).first<{ bytes: number }>();
    expect(body.entries.find((e) => e.url === image)!.bytes).toBe(row!.bytes);
    expect(body.keypad.numbers).toEqual({ "12": `${t}/2` });
    expect(body).toMatchObject({ stops: 2, videos: 1, lang: "en", link: tour.link, strings: { video: "This video needs a connection." } });
    expect(body.bytes.known).toBe(row!.bytes);

    // French (the museum's language): French notice, the original subtitle file.
    const fr = await manifest(tour.link, "fr");
    expect(fr.body.entries.map((e) => e.url)).toContain("/media/none.vtt");
    expect(fr.body).toMatchObject({ lang: "fr", strings: { video: "Cette vidéo nécessite une connexion." } });

    // Same content, same version; a new publication, a reorder or a rename of the tour changes it.
    const version = body.version;
    expect((await manifest(tour.link, "en")).body.version).toBe(version);
    await first.edit(texts(["Première salle, revue"]));
    const afterPublish = (await manifest(tour.link, "en")).body.version;
    expect(afterPublish).not.toBe(version);
    await env.DB.prepare("UPDATE tours SET version = version + 1, updated_at = ? WHERE id = ?")
      .bind(Date.now() + 1, tour.id)
      .run();
    expect((await manifest(tour.link, "en")).body.version).not.toBe(afterPublish);
  });

  it("lists each stop's narration in the language asked with its size, counted in the size shown; the saved stop plays that file (decision 113)", async () => {
    const s = await staffSession();
    const first = await publishArticle(s, texts(["Salle des bronzes", "Un guerrier."]));
    const second = await publishArticle(s, texts(["Salle des vases"]));
    const tour = await makeTour(s.user.museumId, [first.articleId, second.articleId]);
    const recording = mp3Bytes(60);
    const form = new FormData();
    form.set("articleId", String(first.articleId));
    form.set("lang", "fr");
    form.set("durationMs", "26000");
    form.set("narration", new File([recording], "guide.mp3", { type: "audio/mpeg" }));
    const uploaded = await SELF.fetch(`${BASE}/api/upload/narration`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);

    const fr = await manifest(tour.link, "fr");
    const narrations = fr.body.entries.filter((e) => e.kind === "narration") as { url: string; key: string; bytes: number }[];
    expect(narrations).toHaveLength(1);
    expect(narrations[0]!.url).toMatch(new RegExp(`^/narration/n/${s.user.museumId}/`));
    expect(narrations[0]).toMatchObject({ key: narrations[0]!.url, bytes: recording.length });
    expect(fr.body.bytes.known).toBe(recording.length);
    expect(String((fr.body.strings as { narration: string }).narration)).toMatch(
      /^Ce commentaire audio n'a pas été enregistré avec le parcours\s?: il nécessite une connexion\.$/u,
    );
    // The page the worker saves plays exactly that file, which answers.
    const page = await (await get(`/t/${tour.link}/1?lang=fr`)).text();
    expect(page).toContain(`<source src="${narrations[0]!.url}"`);
    expect((await get(narrations[0]!.url)).status).toBe(200);
    // No narration in German: nothing listed, nothing counted.
    const de = await manifest(tour.link, "de");
    expect(de.body.entries.filter((e) => e.kind === "narration")).toEqual([]);
    expect(de.body.strings).toMatchObject({ narration: expect.any(String) });
  });

  it("answers 404 for an unknown or malformed tour and never lists another museum's article", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const mine = await publishArticle(a, texts(["A"]));
    const theirs = await publishArticle(b, texts(["B"]));
    const tour = await makeTour(a.user.museumId, [mine.articleId]);
    // A stop row pointing at another museum's article (the API never writes one) is not shown.
    await env.DB.prepare("INSERT INTO tour_stops (tour_id, position, article_id, museum_id) VALUES (?, 2, ?, ?)")
      .bind(tour.id, theirs.articleId, a.user.museumId)
      .run();
    const { body } = await manifest(tour.link);
    expect(body.stops).toBe(1);
    expect(JSON.stringify(body)).not.toContain(theirs.slug);
    for (const link of [randomLink(), "..%2F..", "%F0%9F%98%80", "a".repeat(300)]) {
      const response = await get(`/t/${link}/offline.json`);
      expect(response.status, link).toBe(404);
      expect(((await response.json()) as { error: Json }).error).toMatchObject({ code: "not_found" });
    }
    expect((await SELF.fetch(`${BASE}/t/${tour.link}/offline.json`, { method: "POST" })).status).toBe(405);
  });
});

describe("offline page and scripts", () => {
  it("says 'you are offline' in the visitor's language with a link back to the tour, right to left in Arabic", async () => {
    const s = await staffSession();
    const tour = await makeTour(s.user.museumId, [], "Trésors <du> port");
    const fr = await (await get(`/offline?tour=${tour.link}&lang=fr`)).text();
    expect(fr).toContain("Vous êtes hors connexion");
    expect(fr).toContain(`href="/t/${tour.link}"`);
    expect(fr).toContain("Trésors &lt;du&gt; port");
    const en = await get(`/offline?tour=${tour.link}&lang=en`);
    expect([en.status, en.headers.get("Content-Type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(await en.text()).toContain("You are offline");
    const ar = await (await get(`/offline?tour=${tour.link}&lang=ar`)).text();
    expect(ar).toContain(`<html lang="ar" dir="rtl">`);
    const nowhere = await (await get(`/offline?tour=%00%F0%9F%98%80&lang=en`)).text();
    expect(nowhere).toContain("You are offline");
    expect(nowhere).not.toContain('href="/t/');
  });

  it("serves the service worker and the save script as JavaScript that is revalidated, the worker limited to this site", async () => {
    const sw = await get("/sw.js");
    expect(sw.status).toBe(200);
    expect(sw.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(sw.headers.get("Cache-Control")).toBe("no-cache");
    expect(sw.headers.get("Content-Security-Policy")).toBe("default-src 'none'; connect-src 'self'");
    expect(await sw.text()).toContain('addEventListener("fetch"');
    const page = await get("/offline.js");
    expect([page.status, page.headers.get("Content-Type")]).toEqual([200, "text/javascript; charset=utf-8"]);
  });
});

describe("views made offline", () => {
  it("counts each stop view once, for the stop's article, at its original time, through the real consumer", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Un"]));
    const two = await publishArticle(s, texts(["Deux"]));
    const tour = await makeTour(s.user.museumId, [one.articleId, two.articleId]);
    const app = recordingApp();
    const at = Date.now() - 3 * DAY;
    // The copy was saved just before (its pass, decision 118); the views are in its first visit window.
    const pass = await issueOfflinePass(env.SESSION_SECRET, tour.id, at - 60_000);
    const batch = {
      client: "9b2f7a1c-4d3e-4f5a-8b6c-7d8e9f0a1b2c",
      views: [
        { path: `/t/${tour.link}/1`, lang: "ar", at, pass },
        { path: `/t/${tour.link}/2`, lang: "pt-br", at: at + 60_000, pass },
        { path: `/t/${tour.link}/2`, lang: "pt-br", at: at + 60_000, pass }, // the same view twice in a batch
        { path: `/t/${tour.link}/9`, lang: "en", at, pass }, // no such stop (any more): accepted, not counted
        { path: `/t/${tour.link}`, lang: "en", at, pass }, // the tour page: a start
      ],
    };
    const answer = await app.post(batch, "203.0.113.10");
    expect(answer).toEqual({ status: 202, body: { counted: 3, ignored: 2 } });
    expect(app.sent.map((e) => [e.type === "start" ? null : e.articleId, e.type, e.lang, e.at, e.tour])).toEqual([
      [one.articleId, "view", "ar", at, { id: tour.id, position: 1 }],
      [two.articleId, "view", "pt-br", at + 60_000, { id: tour.id, position: 2 }],
      [null, "start", "en", at, { id: tour.id, position: 0 }],
    ]);
    expect(app.sent.every((e) => /^[0-9a-f]{64}$/.test(e.fingerprint ?? ""))).toBe(true);
    // Sent again (the answer was lost): the same event ids, counted once.
    await app.post(batch, "203.0.113.10");
    await deliver(app.sent);
    expect(await viewsOf(s.user.museumId, one.articleId)).toBe(1);
    expect(await viewsOf(s.user.museumId, two.articleId)).toBe(1);
    const day = await env.DB.prepare("SELECT day, lang FROM daily_stats WHERE article_id = ?").bind(two.articleId).first<{ day: number; lang: string }>();
    expect({ ...day, day: isoDay(day!.day) }).toEqual({ day: new Date(at + 60_000).toLocaleDateString("sv-SE", { timeZone: "Europe/Paris" }), lang: "pt-BR" });
    // The tour's own statistics: the start (position 0) and the two stops, once each.
    const tourRows = await env.DB.prepare("SELECT position, SUM(views) AS views FROM tour_daily_stats WHERE tour_id = ? GROUP BY position ORDER BY position")
      .bind(tour.id)
      .all<{ position: number; views: number }>();
    expect(tourRows.results).toEqual([
      { position: 0, views: 1 },
      { position: 1, views: 1 },
      { position: 2, views: 1 },
    ]);
  });

  it("counts 50 identical batches sent at once as one, and limits batches per network", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Seul"]));
    const tour = await makeTour(s.user.museumId, [one.articleId]);
    const app = recordingApp();
    const pass = await issueOfflinePass(env.SESSION_SECRET, tour.id, Date.now() - 120_000);
    const batch = { client: "same-phone-0123456789", views: [{ path: `/t/${tour.link}/1`, lang: "fr", at: Date.now() - 60_000, pass }] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => app.post(batch, "203.0.113.50")));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((x) => x === 202)).toHaveLength(30);
    expect(statuses.filter((x) => x === 429)).toHaveLength(20);
    expect(answers.find((a) => a.status === 429)!.body).toMatchObject({ error: { code: "rate_limited" } });
    expect(new Set(app.sent.map((e) => e.id)).size).toBe(1);
    await deliver(app.sent);
    expect(await viewsOf(s.user.museumId, one.articleId)).toBe(1);
  });

  it("refuses malformed batches with the field, views older than 30 days or in the future, and never answers 500", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["X"]));
    const tour = await makeTour(s.user.museumId, [one.articleId]);
    const view = { path: `/t/${tour.link}/1`, lang: "fr", at: Date.now() };
    const ok = { client: "abcdefghijklmnop", views: [view] };
    const cases: [unknown, number, string | undefined][] = [
      ["{not json", 400, undefined],
      [[], 400, undefined],
      [{ views: [view] }, 400, "client"],
      [{ ...ok, client: "x".repeat(65) }, 400, "client"],
      [{ ...ok, client: "é".repeat(20) }, 400, "client"],
      [{ ...ok, views: [] }, 400, "views"],
      [{ ...ok, views: Array.from({ length: 101 }, () => view) }, 400, "views"],
      [{ ...ok, views: [{ ...view, path: "/r/ABCDEFGH" }] }, 400, "views.0.path"],
      [{ ...ok, views: [{ ...view, path: "/t/x/1".padEnd(301, "1") }] }, 400, "views.0.path"],
      [{ ...ok, views: [{ ...view, lang: "fr\u0000" }] }, 400, "views.0.lang"],
      [{ ...ok, views: [{ ...view, at: "yesterday" }] }, 400, "views.0.at"],
      [{ ...ok, views: [{ ...view, at: 1.5 }] }, 400, "views.0.at"],
      [{ ...ok, views: [view, { ...view, at: Date.now() - 31 * DAY }] }, 400, "views.1.at"],
      [{ ...ok, views: [{ ...view, at: Date.now() + 2 * DAY }] }, 400, "views.0.at"],
      [{ ...ok, views: [{ ...view, extra: true }] }, 400, "views.0.extra"],
      [{ ...ok, views: [{ ...view, path: "/t/%E0%A4%A/1" }] }, 400, "views.0.path"],
    ];
    for (const [body, status, field] of cases) {
      const response = await views(body, { "CF-Connecting-IP": "198.51.100.99" });
      const json = (await response.json()) as { error?: Json };
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (field) expect(json.error?.field, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    // Odd Unicode in addresses: accepted, leads nowhere, counted nowhere.
    const odd = await views(
      { ...ok, views: ["/t/%F0%9F%98%80/1", "/t/\ud800/1", "/t/é\u200f/2", "/t/\u202e\u0301/1"].map((path) => ({ ...view, path })) },
      { "CF-Connecting-IP": "198.51.100.98" },
    );
    expect([odd.status, await odd.json()]).toEqual([202, { counted: 0, ignored: 4 }]);
    const wrongType = await views(JSON.stringify(ok), { "Content-Type": "text/plain", "CF-Connecting-IP": "198.51.100.97" });
    expect(wrongType.status).toBe(415);
    const huge = await views(JSON.stringify({ ...ok, pad: "x".repeat(70_000) }), { "CF-Connecting-IP": "198.51.100.96" });
    expect(huge.status).toBe(413);
    expect((await get("/api/visit/offline_views")).status).toBe(405);
    // A bot's batch is accepted and not counted.
    const bot = await views(ok, { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)", "CF-Connecting-IP": "198.51.100.95" });
    expect(await bot.json()).toEqual({ counted: 0, ignored: 1 });
  });
});

describe("offline budget", () => {
  it("saves a 12-stop tour of demo-like content (text and one illustration per stop) in under 1.5 MB", async () => {
    const s = await staffSession();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const article = await publishArticle(s, texts([`Salle ${i + 1}`]));
      const image = await uploadDemoImage(s, article.articleId, i);
      await article.edit([
        { type: "image", src: image, alt: `Illustration ${i + 1}` },
        ...texts([
          "Les navires de commerce déchargent leurs amphores avant de repartir avec d'autres marchandises ; les quais de pierre, les entrepôts et la capitainerie occupent tout le front de mer.",
          "Regardez la légende qui court le long du bord : elle nomme souvent l'autorité qui a émis la pièce, et le revers évoque la cité.",
        ]),
      ]);
      await env.DB.prepare("UPDATE articles SET stop_number = ? WHERE id = ?")
        .bind(100 + i, article.articleId)
        .run();
      ids.push(article.articleId);
    }
    const tour = await makeTour(s.user.museumId, ids);
    const { body } = await manifest(tour.link, "en");
    const entries = [...body.entries, body.offlinePage as Json];
    let total = 0;
    const byKind: Record<string, number> = {};
    for (const entry of entries) {
      const response = await get(String(entry.url), undefined, { "User-Agent": PHONE, "X-Muselingo-Save": "1" });
      expect(response.status, String(entry.url)).toBe(200);
      const size = (await response.arrayBuffer()).byteLength;
      total += size;
      byKind[String(entry.kind)] = (byKind[String(entry.kind)] ?? 0) + size;
    }
    console.log(
      `12-stop tour saved offline: ${entries.length} files, ${(total / 1024).toFixed(1)} KiB (${JSON.stringify(byKind)}); shown before saving: ${(body.bytes.estimated / 1024).toFixed(1)} KiB`,
    );
    expect(total).toBeLessThan(1.5 * 1024 * 1024);
    // The size shown before saving is within a factor of two of what is saved.
    expect(body.bytes.estimated / total).toBeGreaterThan(0.5);
    expect(body.bytes.estimated / total).toBeLessThan(2);
  });
});
