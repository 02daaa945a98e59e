import { createExecutionContext, createMessageBatch, env, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { dayNumber } from "~/lib/dates";
import type { QueuedEvent } from "~/queue/scan-event";
import { pseudoTranslate } from "~/translation/engines/pseudo";
import worker from "../../workers/app";
import consumer from "../../workers/stats-consumer/index";
import { snapshotKey } from "~/visitor-cache/snapshot.server";
import { BASE, createTour, get, publishArticle, recordingScans, staffSession, type StaffSession, texts } from "./helpers";
import { setStopNumber } from "./tour-helpers";

// The visitor side of tours (issue 21 part 2, decisions 076, 084-086): the tour page, its stops, the
// keypad and the tour statistics, against the real app Worker, D1, KV and the pseudo engine.

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const FR = { "Accept-Language": "fr" };
const EN = { "Accept-Language": "en" };

/** A museum with three published articles (their first line is their name) in a tour, in that order. */
async function museumWithTour(s?: StaffSession) {
  const session = s ?? (await staffSession());
  const vase = await publishArticle(session, texts(["Vase à figures rouges", "Athènes, vers 450 avant notre ère."]));
  const stele = await publishArticle(session, texts(["Stèle funéraire", "Marbre du Pentélique."]));
  const kouros = await publishArticle(session, texts(["Kouros", "Statue d'un jeune homme."]));
  const tour = await createTour(session.user.museumId, [vase.articleId, stele.articleId, kouros.articleId], {
    name: "Le parcours grec",
    description: "Trois œuvres de la Grèce antique.\n\nComptez une heure.",
    minutes: 45,
  });
  return { session, vase, stele, kouros, tour, museumSlug: session.user.museumSlug };
}

type TourMuseum = Awaited<ReturnType<typeof museumWithTour>>;

// One museum with its tour for the tests that only read it, and one whose labels are numbered (12 and 7) for the
// keypad's read-only tests: made once per file (storage is kept between the tests of a file). A test that views
// a tour's pages gets a tour of its own (`ownTour`: one D1 row, so its addresses, snapshots and cached
// translations are its own); a test that changes a museum (trash, stop numbers, statistics, snapshots ended by a
// write) still makes its own museum.
let shared: TourMuseum;
let sharedNumbered: TourMuseum;
beforeAll(async () => {
  shared = await museumWithTour();
  sharedNumbered = await numbered();
});

/** A tour of its own over the shared museum's three articles (vase, stèle, kouros), named as museumWithTour names it. */
async function ownTour(m: TourMuseum = shared) {
  return createTour(m.session.user.museumId, [m.vase.articleId, m.stele.articleId, m.kouros.articleId], {
    name: "Le parcours grec",
    description: "Trois œuvres de la Grèce antique.\n\nComptez une heure.",
    minutes: 45,
  });
}

/** A museum with its tour whose stèle has the number 12 and kouros 7. */
async function numbered() {
  const m = await museumWithTour();
  await setStopNumber(m.stele.articleId, 12);
  await setStopNumber(m.kouros.articleId, 7);
  return m;
}

const html = async (response: Response) => response.text();
const stopLinks = (page: string) =>
  [...page.matchAll(/<ol class="v-stops">([\s\S]*?)<\/ol>/g)].flatMap((m) => [...m[1]!.matchAll(/href="([^"]+)"/g)].map((h) => h[1]));

describe("the tour page /t/{link}", () => {
  it("shows the tour in French: name, description, duration, numbered stops, the offline control and its bootstrap only", async () => {
    const tour = await ownTour();
    const response = await get(`/t/${tour.link}`, undefined, FR);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const page = await html(response);
    expect(page).toMatch(/<html lang="fr" dir="ltr">/);
    expect(page).toContain("<h1>Le parcours grec</h1>");
    expect(page).toContain("Trois œuvres de la Grèce antique.");
    expect(page).toContain("Comptez une heure.");
    expect(page).toContain("Environ 45 min");
    expect(page).toContain('id="v-offline"');
    // The only script: the offline control's inline bootstrap (decision 087), which loads more only when asked.
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]![1]).not.toContain("src=");
    expect(scripts[0]![2]).toContain("v-offline-save");
    expect(stopLinks(page)).toEqual([`/t/${tour.link}/1`, `/t/${tour.link}/2`, `/t/${tour.link}/3`]);
    const names = [...page.matchAll(/<span class="v-stop-name">([^<]*)<\/span>/g)].map((m) => m[1]);
    expect(names).toEqual(["Vase à figures rouges", "Stèle funéraire", "Kouros"]);
    expect(page).toContain(`href="/t/${tour.link}/languages?lang=fr"`);
  });

  it("translates name, description and stop names into English once, then from the cache", async () => {
    const tour = await ownTour();
    const page = await html(await get(`/t/${tour.link}`, undefined, EN));
    expect(page).toMatch(/<html lang="en" dir="ltr">/);
    expect(page).toContain(`<h1>${pseudoTranslate("Le parcours grec", "en")}</h1>`);
    expect(page).toContain(pseudoTranslate("Stèle funéraire", "en"));
    expect(page).toContain(pseudoTranslate("Comptez une heure.", "en"));
    expect(page).toContain("About 45 min");
    const keys = await env.KV.list({ prefix: `tour:v1:${tour.id}:en:` });
    expect(keys.keys).toHaveLength(1);
    // The second view reads the cache: no engine call (Server-Timing counts them).
    const again = await get(`/t/${tour.link}`, undefined, EN);
    expect(await again.text()).toContain(pseudoTranslate("Kouros", "en"));
  });

  it("is right to left in Arabic", async () => {
    const tour = await ownTour();
    const page = await html(await get(`/t/${tour.link}?lang=ar`));
    expect(page).toMatch(/<html lang="ar" dir="rtl">/);
    expect(page).toContain(pseudoTranslate("Le parcours grec", "ar"));
  });

  it("answers the visitor 404 page for an unknown or malformed link, 405 for a POST", async () => {
    for (const link of ["zzzzzzzz", "abc", "%F0%9F%98%80", "IIIIIIII", "a".repeat(300)]) {
      const response = await get(`/t/${link}`, undefined, FR);
      expect(response.status, link).toBe(404);
      expect(await response.text()).toContain("Cette page n’existe pas");
    }
    const tour = await ownTour();
    const post = await fetchApp(`/t/${tour.link}`, { method: "POST" });
    expect(post.status).toBe(405);
  });

  it("says so when no stop is visible, and skips unpublished and trashed articles, renumbering the rest", async () => {
    const s = await staffSession();
    const empty = await createTour(s.user.museumId, []);
    const emptyPage = await html(await get(`/t/${empty.link}`, undefined, FR));
    expect(emptyPage).toContain("pas encore d");
    expect(emptyPage).not.toContain('class="v-stops"');

    const { vase, stele, kouros } = await museumWithTour(s);
    const draft = await s.call("add_article", { pathArray: [] });
    const tour = await createTour(s.user.museumId, [vase.articleId, draft.body.id as number, stele.articleId, kouros.articleId]);
    expect((await s.call("delete_item", { type: "article", id: stele.articleId, pathArray: [] })).status).toBe(200);
    const page = await html(await get(`/t/${tour.link}`, undefined, FR));
    expect(stopLinks(page)).toEqual([`/t/${tour.link}/1`, `/t/${tour.link}/2`]);
    const second = await html(await get(`/t/${tour.link}/2`, undefined, FR));
    expect(second).toContain("Kouros");
    expect(second).toContain("Étape 2 sur 2");
    expect((await get(`/t/${tour.link}/3`, undefined, FR)).status).toBe(404);
  });

  it("never shows a stop of another museum's article", async () => {
    const mine = await ownTour();
    const other = sharedNumbered;
    // A stop row naming another museum's article (only a broken writer could do it) is not shown.
    await env.DB.prepare("INSERT INTO tour_stops (tour_id, position, article_id, museum_id) VALUES (?, 4, ?, ?)")
      .bind(mine.id, other.vase.articleId, shared.session.user.museumId)
      .run();
    const page = await html(await get(`/t/${mine.link}`, undefined, FR));
    expect(stopLinks(page)).toHaveLength(3);
  });
});

describe("a stop /t/{link}/{position}", () => {
  it("is the article's page with Stop n of N, the tour's name, previous and next", async () => {
    const tour = await ownTour();
    const first = await html(await get(`/t/${tour.link}/1`, undefined, FR));
    expect(first).toContain("Vase à figures rouges");
    expect(first).toContain("Étape 1 sur 3");
    expect(first).toContain(`<a class="v-tour-name" href="/t/${tour.link}">Le parcours grec</a>`);
    // In Arabic the tour's name is translated, as on the tour page (decision 113).
    const arabic = await html(await get(`/t/${tour.link}/1?lang=ar`));
    expect(arabic).toMatch(/<html lang="ar" dir="rtl">/);
    expect(arabic).toContain(`<a class="v-tour-name" href="/t/${tour.link}">${pseudoTranslate("Le parcours grec", "ar")}</a>`);
    expect(first).not.toContain('rel="prev"');
    expect(first).toContain(`rel="next" href="/t/${tour.link}/2"`);

    const middle = await get(`/t/${tour.link}/2`, undefined, EN);
    expect(middle.status).toBe(200);
    expect(middle.headers.get("Server-Timing")).toBeTruthy();
    const text = await middle.text();
    expect(text).toContain(pseudoTranslate("Stèle funéraire", "en"));
    expect(text).toContain("Stop 2 of 3");
    expect(text).toContain(`<a class="v-tour-name" href="/t/${tour.link}">${pseudoTranslate("Le parcours grec", "en")}</a>`);
    expect(text).toContain(`rel="prev" href="/t/${tour.link}/1"`);
    expect(text).toContain(`rel="next" href="/t/${tour.link}/3"`);
    expect(text).toContain(`href="/t/${tour.link}/2/languages?lang=en"`);

    const last = await html(await get(`/t/${tour.link}/3`, undefined, FR));
    expect(last).toContain("Étape 3 sur 3");
    expect(last).not.toContain('rel="next"');
    expect(last).toContain(`<a class="v-button" href="/t/${tour.link}">Retour au parcours</a>`);
  });

  it("answers 404 out of range or for a position that is not a plain number", async () => {
    const tour = await ownTour();
    for (const position of ["0", "4", "01", "-1", "1.0", "abc", "99999", "%D9%A1", "1%00"]) {
      expect((await get(`/t/${tour.link}/${position}`, undefined, FR)).status, position).toBe(404);
    }
    expect((await get(`/t/zzzzzzzz/1`, undefined, FR)).status).toBe(404);
  });

  it("shows none of the tour at /r/{code} and /v/{museum}/{slug}", async () => {
    const { stele, museumSlug } = shared;
    for (const path of [`/r/${stele.link}`, `/v/${museumSlug}/${stele.slug}`]) {
      const page = await html(await get(path, undefined, FR));
      expect(page, path).toContain("Stèle funéraire");
      expect(page, path).not.toContain('<nav class="v-tour"');
      expect(page, path).not.toContain("Étape");
      expect(page, path).not.toContain("Le parcours grec");
    }
  });

  it("has its language picker and its report form under the stop's address", async () => {
    const tour = await ownTour();
    const picker = await get(`/t/${tour.link}/2/languages`, undefined, FR);
    expect(picker.status).toBe(200);
    expect(await picker.text()).toContain(`href="/t/${tour.link}/2?lang=de"`);
    const tourPicker = await html(await get(`/t/${tour.link}/languages`, undefined, FR));
    expect(tourPicker).toContain(`href="/t/${tour.link}?lang=fr">Retour au parcours</a>`);
    expect((await get(`/t/${tour.link}/9/languages`, undefined, FR)).status).toBe(404);
    const page = await html(await get(`/t/${tour.link}/2?lang=en`));
    expect(page).toContain(`action="/t/${tour.link}/2/report"`);
    expect((await get(`/t/${tour.link}/2/report?lang=en`)).status).toBe(200);
  });
});

describe("the keypad /v/{museum}/n", () => {
  it("is a numeric form with a label, in the visitor's language", async () => {
    const { museumSlug } = sharedNumbered;
    const response = await get(`/v/${museumSlug}/n`, undefined, EN);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('<label for="v-number">Enter the number on the label</label>');
    expect(page).toMatch(/<input id="v-number" name="number" type="text" inputMode="numeric" pattern="\[0-9\]\*" autoComplete="off"/i);
    expect(page).toContain(`action="/v/${museumSlug}/n"`);
    expect(page).not.toContain("<script");
    const fr = await html(await get(`/v/${museumSlug}/n`, undefined, FR));
    expect(fr).toContain("Saisissez le numéro indiqué sur le cartel");
  });

  it("leads (303) to the article with that number, keeping lang; digits of other scripts and leading zeros too", async () => {
    const { museumSlug, stele, kouros } = sharedNumbered;
    const found = await get(`/v/${museumSlug}/n?number=12`, undefined, FR);
    expect(found.status).toBe(303);
    expect(found.headers.get("Location")).toBe(`/v/${museumSlug}/${stele.slug}`);
    const withLang = await get(`/v/${museumSlug}/n?number=12&lang=de`);
    expect(withLang.headers.get("Location")).toBe(`/v/${museumSlug}/${stele.slug}?lang=de`);
    for (const typed of [" 12 ", "012", "١٢", "۱۲", "１２", "1 2"]) {
      const response = await get(`/v/${museumSlug}/n?number=${encodeURIComponent(typed)}`, undefined, FR);
      expect(response.status, typed).toBe(303);
      expect(response.headers.get("Location"), typed).toBe(`/v/${museumSlug}/${stele.slug}`);
    }
    expect((await get(`/v/${museumSlug}/n?number=7`)).headers.get("Location")).toBe(`/v/${museumSlug}/${kouros.slug}`);
  });

  it("says an unknown number is unknown (404) and a non-number is not a number (400), in the visitor's language", async () => {
    const { museumSlug } = sharedNumbered;
    for (const typed of ["13", "0", "10000", "99999999"]) {
      const response = await get(`/v/${museumSlug}/n?number=${typed}`, undefined, EN);
      expect(response.status, typed).toBe(404);
      const page = await response.text();
      expect(page).toContain("No stop has this number");
      expect(page).toContain('role="alert"');
    }
    for (const typed of ["", "abc", "12a", "-3", "1.5", "1e3", "%ED%A0%80", "%00", "1".repeat(40), "%E2%80%AE12"]) {
      const response = await get(`/v/${museumSlug}/n?number=${typed}`, undefined, FR);
      expect(response.status, typed).toBe(400);
      expect(await response.text(), typed).toContain("en chiffres uniquement");
    }
  });

  it("never finds another museum's number, a trashed or an unpublished article's", async () => {
    const mine = await numbered();
    const other = await museumWithTour();
    await setStopNumber(other.vase.articleId, 55);
    expect((await get(`/v/${mine.museumSlug}/n?number=55`)).status).toBe(404);
    expect((await get(`/v/${other.museumSlug}/n?number=55`)).status).toBe(303);
    expect((await mine.session.call("delete_item", { type: "article", id: mine.kouros.articleId, pathArray: [] })).status).toBe(200);
    await setStopNumber(mine.kouros.articleId, 7);
    expect((await get(`/v/${mine.museumSlug}/n?number=7`)).status).toBe(404);
    const draft = await mine.session.call("add_article", { pathArray: [] });
    await setStopNumber(draft.body.id as number, 8);
    expect((await get(`/v/${mine.museumSlug}/n?number=8`)).status).toBe(404);
    expect((await get(`/v/no-such-museum/n?number=12`)).status).toBe(404);
  });

  it("reserves the address n: an article cannot take it", async () => {
    // A new article of the shared museum, refused the address n (nothing else of the museum changes).
    const s = shared.session;
    const a = await publishArticle(s, texts(["Un article"]));
    const current = (await s.read(`/api/read/article?articleId=${a.articleId}`)).body as { content: Record<string, unknown>[]; version: number };
    const saved = await s.call("update_article", {
      articleId: a.articleId,
      version: current.version,
      newContent: [{ ...current.content[0], url: "n" }, ...current.content.slice(1)],
    });
    expect(saved.status).toBe(400);
    expect(JSON.stringify(saved.body)).toContain('"field":"newContent.0.url"');
  });

  it("is linked from the tour page and its stops once the museum numbers its labels", async () => {
    const tour = await ownTour();
    expect(await html(await get(`/t/${tour.link}`, undefined, FR))).not.toContain(`/v/${shared.museumSlug}/n`);
    const m = sharedNumbered;
    expect(await html(await get(`/t/${m.tour.link}`, undefined, FR))).toContain(`href="/v/${m.museumSlug}/n?tour=${m.tour.link}"`);
    expect(await html(await get(`/t/${m.tour.link}/1`, undefined, FR))).toContain(`href="/v/${m.museumSlug}/n?tour=${m.tour.link}"`);
  });

  it("opened from a tour, leads to the number's stop in that tour (Stop n of N, previous, next), as a saved tour does offline", async () => {
    const m = await numbered();
    const keypad = `/v/${m.museumSlug}/n`;
    // The form and its language picker keep the tour.
    const form = await html(await get(`${keypad}?tour=${m.tour.link}`, undefined, FR));
    expect(form).toContain(`<input type="hidden" name="tour" value="${m.tour.link}"/>`);
    expect(form).toContain(`href="${keypad}/languages?lang=fr&amp;tour=${m.tour.link}"`);
    expect(await html(await get(`${keypad}/languages?tour=${m.tour.link}`, undefined, FR))).toContain(`href="${keypad}?lang=de&amp;tour=${m.tour.link}"`);

    const jump = await get(`${keypad}?tour=${m.tour.link}&number=12&lang=en`);
    expect(jump.status).toBe(303);
    expect(jump.headers.get("Location")).toBe(`/t/${m.tour.link}/2?lang=en`);
    const stop = await html(await get(jump.headers.get("Location")!));
    expect(stop).toContain("Stop 2 of 3");
    expect(stop).toContain(`rel="next" href="/t/${m.tour.link}/3"`);
    expect((await get(`${keypad}?tour=${m.tour.link}&number=7`)).headers.get("Location")).toBe(`/t/${m.tour.link}/3`);

    // A number this tour does not show leads to the article's page; so does a keypad opened from no tour,
    // from a tour of another museum, or with a malformed tour.
    const outside = await publishArticle(m.session, texts(["Hors parcours"]));
    await setStopNumber(outside.articleId, 40);
    expect((await get(`${keypad}?tour=${m.tour.link}&number=40`)).headers.get("Location")).toBe(`/v/${m.museumSlug}/${outside.slug}`);
    const other = await museumWithTour();
    await setStopNumber(other.stele.articleId, 12);
    for (const tour of ["", `&tour=${other.tour.link}`, "&tour=%00", "&tour=zzz", `&tour=${"a".repeat(300)}`, `&tour=x&tour=${m.tour.link}`]) {
      const response = await get(`${keypad}?number=12${tour}`);
      expect(response.status, tour).toBe(303);
      expect(response.headers.get("Location"), tour).toBe(`/v/${m.museumSlug}/${m.stele.slug}`);
    }
    expect((await get(`${keypad}?tour=${m.tour.link}&number=99`)).status).toBe(404);
  });
});

/** The app Worker with its real SCANS queue, whose messages are also kept for the consumer (recordingScans). */
function recordingApp() {
  const { sent, env: appEnv } = recordingScans<QueuedEvent>();
  const open = async (path: string, headers: Record<string, string> = {}) => {
    const ctx = createExecutionContext();
    const response = await worker.fetch!(
      new Request(`${BASE}${path}`, { headers: { "User-Agent": PHONE, ...headers } }) as Request<unknown, IncomingRequestCfProperties>,
      appEnv,
      ctx,
    );
    await response.arrayBuffer();
    await waitOnExecutionContext(ctx);
    return response.status;
  };
  return { sent, open };
}

async function fetchApp(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await worker.fetch!(new Request(`${BASE}${path}`, init) as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

let sequence = 0;
async function deliver(bodies: readonly unknown[]) {
  const batch = createMessageBatch(
    "muselingo-scans",
    bodies.map((body) => ({ id: `t-${++sequence}`, timestamp: new Date(), attempts: 1, body })),
  );
  await consumer.queue(batch, env);
}

async function tourRows(museumId: number) {
  const { results } = await env.DB.prepare(
    "SELECT tour_id, position, SUM(views) AS views FROM tour_daily_stats WHERE museum_id = ? GROUP BY tour_id, position ORDER BY position",
  )
    .bind(museumId)
    .all<{ tour_id: number; position: number; views: number }>();
  return results.map((r) => [r.position, r.views]);
}

describe("tour statistics", () => {
  it("queues a start for the tour page and a view with the tour position for a stop; the consumer counts them once per visitor", async () => {
    const { tour, stele, session } = await museumWithTour();
    const museumId = session.user.museumId;
    const app = recordingApp();
    expect(await app.open(`/t/${tour.link}`, EN)).toBe(200);
    expect(await app.open(`/t/${tour.link}/2`, EN)).toBe(200);
    expect(app.sent).toHaveLength(2);
    expect(app.sent[0]).toMatchObject({ type: "start", museumId, tour: { id: tour.id, position: 0 }, lang: "en" });
    expect(app.sent[1]).toMatchObject({ type: "view", museumId, articleId: stele.articleId, qrcodeId: null, tour: { id: tour.id, position: 2 } });
    expect(app.sent.every((e) => typeof e.fingerprint === "string")).toBe(true);

    // The same visitor again within the window, a redelivery, and 50 identical deliveries at once.
    expect(await app.open(`/t/${tour.link}/2`, EN)).toBe(200);
    const bodies = [...app.sent, app.sent[1]!];
    await deliver(bodies);
    await Promise.all(Array.from({ length: 50 }, () => deliver([app.sent[0]!])));
    expect(await tourRows(museumId)).toEqual([
      [0, 1],
      [2, 1],
    ]);
    // The stop's open is also an article view, as at /v/.
    const views = await env.DB.prepare("SELECT SUM(views) AS views FROM daily_stats WHERE museum_id = ? AND article_id = ?")
      .bind(museumId, stele.articleId)
      .first<{ views: number }>();
    expect(views!.views).toBe(1);

    // Another visitor counts again; the same article opened at /v/ adds an article view but no tour view.
    const other = recordingApp();
    await other.open(`/t/${tour.link}/2`, { ...EN, "User-Agent": PHONE.replace("17_5", "18_0"), "CF-Connecting-IP": "203.0.113.9" });
    await other.open(`/v/${session.user.museumSlug}/${stele.slug}`, { ...EN, "CF-Connecting-IP": "203.0.113.10" });
    await deliver(other.sent);
    expect(await tourRows(museumId)).toEqual([
      [0, 1],
      [2, 2],
    ]);
  });

  it("counts nothing for a bot or a staff preview, and keeps old events valid", async () => {
    const tour = await ownTour();
    const app = recordingApp();
    await app.open(`/t/${tour.link}`, { "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    await app.open(`/t/${tour.link}/1?ignoreStats=true`);
    await app.open(`/t/${tour.link}?ignoreStats=true`);
    expect(app.sent).toHaveLength(0);
  });
});

describe("GET /api/stats/tours", () => {
  async function day(museumId: number, dayText: string, tourId: number, position: number, views: number) {
    await env.DB.prepare("INSERT INTO tour_daily_stats (museum_id, day, tour_id, position, views) VALUES (?, ?, ?, ?, ?)")
      .bind(museumId, dayNumber(dayText), tourId, position, views)
      .run();
  }

  it("gives starts, views per stop and where visitors leave, over the days asked, for this museum's tours only", async () => {
    const { session, tour } = await museumWithTour();
    const museumId = session.user.museumId;
    // Another museum's tour with views in the window: the shared museum, on a tour of this test's own.
    const otherTour = await ownTour();
    await day(museumId, "2026-03-01", tour.id, 0, 10);
    await day(museumId, "2026-03-02", tour.id, 0, 5);
    await day(museumId, "2026-03-01", tour.id, 1, 12);
    await day(museumId, "2026-03-02", tour.id, 2, 8);
    await day(museumId, "2026-03-02", tour.id, 3, 2);
    await day(museumId, "2026-02-27", tour.id, 0, 100); // before the window
    await day(shared.session.user.museumId, "2026-03-01", otherTour.id, 0, 77);

    const answer = await session.read("/api/stats/tours?from=2026-03-01&to=2026-03-07");
    expect(answer.status).toBe(200);
    const body = answer.body as {
      from: string;
      to: string;
      tours: { id: number; name: string; starts: number; stops: { position: number; name: string | null; views: number; left: number }[] }[];
    };
    expect(body.from).toBe("2026-03-01");
    expect(body.to).toBe("2026-03-07");
    expect(body.tours.map((t) => t.id)).toEqual([tour.id]);
    expect(body.tours[0]!.starts).toBe(15);
    expect(body.tours[0]!.stops.map((s) => [s.position, s.views, s.left])).toEqual([
      [1, 12, 3],
      [2, 8, 4],
      [3, 2, 6],
    ]);
    expect(body.tours[0]!.stops.every((s) => typeof s.name === "string")).toBe(true);

    // Without dates: the last 10 days, which holds none of these.
    const recent = (await session.read("/api/stats/tours")).body as { tours: { starts: number }[] };
    expect(recent.tours[0]!.starts).toBe(0);
  });

  it("refuses malformed or reversed dates with the field, and needs a session", async () => {
    const s = shared.session;
    for (const [query, field] of [
      ["from=2026-02-30", "from"],
      ["to=yesterday", "to"],
      ["from=2026-03-05&to=2026-03-01", "from"],
      ["from=2020-01-01&to=2026-01-01", "from"],
      ["from=%F0%9F%98%80", "from"],
    ] as const) {
      const answer = await s.read(`/api/stats/tours?${query}`);
      expect(answer.status, query).toBe(400);
      expect(JSON.stringify(answer.body), query).toContain(`"field":"${field}"`);
    }
    expect((await get("/api/stats/tours")).status).toBe(401);
  });

  it("shows a Tours section on /stats", async () => {
    const { session } = shared;
    const tour = await createTour(session.user.museumId, [shared.vase.articleId], { name: "Le parcours des statistiques" });
    await day(session.user.museumId, new Date().toISOString().slice(0, 10), tour.id, 0, 4);
    const page = await (await get("/stats", session.cookie, FR)).text();
    expect(page).toContain('id="tour-stats-title"');
    expect(page).toContain("Parcours « Le parcours des statistiques »");
  });
});

// Decision 101: the tour pages and the keypad go through the visitor snapshot (decision 039) like the
// article pages: a cached view reads nothing from D1, and the staff API's next write shows on the next view.
describe("a cached tour page, stop page and keypad read nothing from D1", () => {
  /** The D1 round trips a response says it made (`d1;dur=…;desc="n"`), and where its snapshot came from. */
  function figures(response: Response) {
    const header = response.headers.get("Server-Timing") ?? "";
    return { d1: /d1;dur=[\d.]+;desc="(\d+)"/.exec(header)?.[1], snapshot: /snapshot;desc="([^"]*)"/.exec(header)?.[1] };
  }
  /** A clock tick: a snapshot counts only when its D1 read began after the museum's last change (strictly). */
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
  async function view(path: string, headers: Record<string, string> = FR) {
    const response = await get(path, undefined, headers);
    return { status: response.status, location: response.headers.get("Location"), page: await response.text(), ...figures(response) };
  }
  /** Views until the page comes from its snapshots (D1 once, then the translation and the stop's article filling). */
  async function cached(path: string, headers: Record<string, string> = FR) {
    let last = await view(path, headers);
    for (let i = 0; i < 3 && last.d1 !== "0"; i++) {
      await tick();
      last = await view(path, headers);
    }
    return last;
  }
  const names = (page: string) => [...page.matchAll(/<span class="v-stop-name">([^<]*)<\/span>/g)].map((m) => m[1]);

  it("the first view reads D1, the next none: /t/{link}, /t/{link}/{n}, their pickers, the keypad and its numbers", async () => {
    const m = await museumWithTour();
    await setStopNumber(m.stele.articleId, 12);
    const first = await view(`/t/${m.tour.link}`);
    expect(first.status).toBe(200);
    expect(Number(first.d1)).toBeGreaterThan(0);
    expect(first.snapshot).toBe("d1");
    await tick();
    const second = await view(`/t/${m.tour.link}`);
    expect(second).toMatchObject({ status: 200, d1: "0", snapshot: "isolate" });
    expect(names(second.page)).toEqual(["Vase à figures rouges", "Stèle funéraire", "Kouros"]);
    expect(second.page).toContain(`href="/v/${m.museumSlug}/n?tour=${m.tour.link}"`);
    for (const path of [
      `/t/${m.tour.link}/2`,
      `/t/${m.tour.link}?lang=en`,
      `/t/${m.tour.link}/3?lang=en`,
      `/t/${m.tour.link}/languages`,
      `/t/${m.tour.link}/2/languages`,
      `/v/${m.museumSlug}/n`,
      `/v/${m.museumSlug}/n/languages`,
    ]) {
      const again = await cached(path);
      expect(again.status, path).toBe(200);
      expect(again.d1, path).toBe("0");
    }
    expect((await cached(`/t/${m.tour.link}/2`)).page).toContain("Marbre du Pentélique.");
    for (const number of ["12", "١٢"]) {
      const jump = await cached(`/v/${m.museumSlug}/n?number=${encodeURIComponent(number)}`);
      expect(jump).toMatchObject({ status: 303, location: `/v/${m.museumSlug}/${m.stele.slug}`, d1: "0" });
    }
    expect(await cached(`/v/${m.museumSlug}/n?number=13`)).toMatchObject({ status: 404, d1: "0" });
  });

  it("a cached tour page in another language reads no KV either: the tour's translation is kept with its snapshot", async () => {
    const m = await museumWithTour();
    const kv = (response: Response) => /kv;dur=[\d.]+;desc="(\d+)"/.exec(response.headers.get("Server-Timing") ?? "")?.[1];
    const german = async () => {
      const response = await get(`/t/${m.tour.link}`, undefined, { "Accept-Language": "de" });
      return { kv: kv(response), page: await response.text() };
    };
    expect((await cached(`/t/${m.tour.link}`, { "Accept-Language": "de" })).d1).toBe("0");
    const again = await german();
    expect(again.kv).toBe("0");
    expect(again.page).toContain('<html lang="de"');
    // The kept translation dies with the snapshot: a renamed tour is translated anew on the next view.
    expect((await m.session.call("update_tour", { id: m.tour.id, version: 1, name: "Le parcours renommé" })).status).toBe(200);
    const renamed = await german();
    expect(renamed.page).not.toContain(again.page.match(/<h1>([^<]*)<\/h1>/)![1]);
  });

  it("a tour page is replayed to the identical requests of the next moment, each start counted (decision 141)", async () => {
    const m = await museumWithTour();
    const { sent, env: appEnv } = recordingScans<QueuedEvent>();
    const open = async (headers: Record<string, string>) => {
      const ctx = createExecutionContext();
      const request = new Request(`${BASE}/t/${m.tour.link}`, { headers }) as Request<unknown, IncomingRequestCfProperties>;
      const response = await worker.fetch!(request, appEnv, ctx);
      const page = await response.text();
      await waitOnExecutionContext(ctx);
      const nonce = /nonce="([^"]+)"/.exec(page)?.[1];
      return { page, nonce, replayed: (response.headers.get("Server-Timing") ?? "").includes('page;desc="replayed"') };
    };
    const visitor = { "Accept-Language": "de", "User-Agent": PHONE };
    // Settled first: the first German view stores the tour's translation, a write that ends the snapshot.
    expect((await cached(`/t/${m.tour.link}`, { "Accept-Language": "de" })).d1).toBe("0");
    const views = [await open(visitor), await open(visitor), await open(visitor)];
    expect(views.map((v) => v.replayed)).toEqual([false, true, true]);
    expect(views[2]!.page).toBe(views[1]!.page.replaceAll(views[1]!.nonce!, views[2]!.nonce!));
    expect(views[2]!.page).toContain("<h1>");
    await open({ ...visitor, "User-Agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" });
    expect(sent.map((e) => [e.type, e.lang, e.tour?.id])).toEqual(Array(3).fill(["start", "de", m.tour.id]));
    // Staff's change ends it at once.
    expect((await m.session.call("update_tour", { id: m.tour.id, version: 1, name: "Le parcours renommé" })).status).toBe(200);
    const after = await open(visitor);
    expect(after.replayed).toBe(false);
    expect(after.page).toContain(pseudoTranslate("Le parcours renommé", "de"));
  });

  it("update_tour (rename, reorder, a stop removed) shows on the next view of the tour and of its stops", async () => {
    const m = await museumWithTour();
    expect((await cached(`/t/${m.tour.link}`)).d1).toBe("0");
    expect((await cached(`/t/${m.tour.link}/1`)).page).toContain("Athènes, vers 450 avant notre ère.");
    expect((await cached(`/t/${m.tour.link}/3`)).status).toBe(200);
    const saved = await m.session.call("update_tour", {
      id: m.tour.id,
      version: 1,
      name: "Le parcours renommé",
      articleIds: [m.kouros.articleId, m.vase.articleId],
    });
    expect(saved.status).toBe(200);
    const after = await view(`/t/${m.tour.link}`);
    expect(after.snapshot).toBe("d1");
    expect(after.page).toContain("<h1>Le parcours renommé</h1>");
    expect(names(after.page)).toEqual(["Kouros", "Vase à figures rouges"]);
    const stop = await view(`/t/${m.tour.link}/1`);
    expect(stop.page).toContain("jeune homme.");
    expect(stop.page).toContain("Le parcours renommé");
    expect((await view(`/t/${m.tour.link}/3`)).status).toBe(404);
    expect((await cached(`/t/${m.tour.link}`)).d1).toBe("0");
    // Deleted: the printed code leads to "not found" at once, not to the kept tour.
    expect((await m.session.call("delete_tour", { id: m.tour.id })).status).toBe(200);
    expect((await view(`/t/${m.tour.link}`)).status).toBe(404);
    expect((await view(`/t/${m.tour.link}/1`)).status).toBe(404);
  });

  it("update_stop_number shows on the next keypad answer and on the tour page's keypad link", async () => {
    const m = await museumWithTour();
    expect((await cached(`/t/${m.tour.link}`)).page).not.toContain(`/v/${m.museumSlug}/n`);
    expect(await cached(`/v/${m.museumSlug}/n?number=12`)).toMatchObject({ status: 404, d1: "0" });
    expect((await m.session.call("update_stop_number", { articleId: m.stele.articleId, stopNumber: 12 })).status).toBe(200);
    expect(await view(`/v/${m.museumSlug}/n?number=12`)).toMatchObject({ status: 303, location: `/v/${m.museumSlug}/${m.stele.slug}`, snapshot: "d1" });
    expect((await view(`/t/${m.tour.link}`)).page).toContain(`href="/v/${m.museumSlug}/n?tour=${m.tour.link}"`);
    expect(await cached(`/v/${m.museumSlug}/n?number=12`)).toMatchObject({ status: 303, d1: "0" });
    expect((await m.session.call("update_stop_number", { articleId: m.stele.articleId, stopNumber: 13 })).status).toBe(200);
    expect((await view(`/v/${m.museumSlug}/n?number=12`)).status).toBe(404);
    expect(await view(`/v/${m.museumSlug}/n?number=13`)).toMatchObject({ status: 303, location: `/v/${m.museumSlug}/${m.stele.slug}` });
    // Another museum's write does not end this museum's snapshots; this museum's numbers never answer there.
    const other = await museumWithTour();
    expect((await other.session.call("update_stop_number", { articleId: other.vase.articleId, stopNumber: 13 })).status).toBe(200);
    expect(await cached(`/v/${m.museumSlug}/n?number=13`)).toMatchObject({ status: 303, location: `/v/${m.museumSlug}/${m.stele.slug}`, d1: "0" });
    expect(await view(`/v/${other.museumSlug}/n?number=13`)).toMatchObject({ status: 303, location: `/v/${other.museumSlug}/${other.vase.slug}` });
  });

  // In two tests (the tour's, the keypad's): eleven plants and four museums in one test outran its time limit
  // on a busy machine.
  it("a malformed, foreign or old-shaped tour snapshot in KV is read again from D1, never served and never a crash", async () => {
    // The shared museum: each planted value is for a tour of this test's own.
    const m = shared;
    const future = Date.now() + 3_600_000;
    const museum = { id: m.session.user.museumId, name: "Planté", slug: m.museumSlug, sourceLang: "fr" };
    const stops = [m.vase.articleId, m.stele.articleId, m.kouros.articleId];
    const tourValues: ((address: string, link: string) => unknown)[] = [
      () => "{not json",
      () => "null",
      (address) => ({ v: 1, address, readAt: future, target: { museum, view: { stops: "x" } } }),
      (address) => ({ v: 1, address, readAt: future, target: { museum, view: null } }),
      (address, link) => ({
        v: 1,
        address,
        readAt: future,
        target: {
          museum,
          view: { tour: { id: 1, link, name: "Ancien", description: "", minutes: null, museum }, cover: null, numbered: false, stops: [{ position: 1 }] },
        },
      }),
      (_, link) => ({
        v: 1,
        address: `t/${m.tour.link}`,
        readAt: future,
        target: { museum, view: { tour: { id: 1, link, name: "Ancien", description: "", minutes: null, museum }, cover: null, numbered: false, stops: [] } },
      }),
      (address) => ({ v: 2, address, readAt: future, target: null }),
    ];
    // A fresh tour (address) per value: this isolate has never kept it, so the page reads KV first.
    for (const value of tourValues) {
      const tour = await createTour(m.session.user.museumId, stops, { name: "Le parcours grec" });
      const planted = value(`t/${tour.link}`, tour.link);
      await env.KV.put(await snapshotKey(`t/${tour.link}`), typeof planted === "string" ? planted : JSON.stringify(planted));
      const page = await view(`/t/${tour.link}`);
      expect(page.status, JSON.stringify(planted)).toBe(200);
      expect(page.snapshot).toBe("d1");
      expect(page.page).not.toContain("Ancien");
      expect(names(page.page)).toEqual(["Vase à figures rouges", "Stèle funéraire", "Kouros"]);
    }
  });

  it("a malformed, foreign or old-shaped keypad snapshot in KV is read again from D1, never served and never a crash", async () => {
    const future = Date.now() + 3_600_000;
    // As the tour test's: the shared museum's slug, with the id of the museum asked.
    const museum = { name: "Planté", slug: shared.museumSlug, sourceLang: "fr" };
    const numberValues: ((address: string, id: number) => unknown)[] = [
      () => "[1,2",
      (address, id) => ({ v: 1, address, readAt: future, target: { museum: { ...museum, id }, numbers: null } }),
      (address, id) => ({ v: 1, address, readAt: future, target: { museum: { ...museum, id }, numbers: { 12: 42 } } }),
      (address) => ({ v: 1, address, readAt: future, target: { museum: { id: "1" }, numbers: {} } }),
    ];
    for (const value of numberValues) {
      const s = await staffSession();
      const a = await publishArticle(s, texts(["Une œuvre numérotée"]));
      await setStopNumber(a.articleId, 12);
      const planted = value(`n/${s.user.museumSlug}`, s.user.museumId);
      await env.KV.put(await snapshotKey(`n/${s.user.museumSlug}`), typeof planted === "string" ? planted : JSON.stringify(planted));
      const jump = await view(`/v/${s.user.museumSlug}/n?number=12`);
      expect(jump, JSON.stringify(planted)).toMatchObject({ status: 303, location: `/v/${s.user.museumSlug}/${a.slug}`, snapshot: "d1" });
      expect((await view(`/v/${s.user.museumSlug}/n`)).page).not.toContain("Planté");
    }
  });

  it("50 simultaneous first views of a tour all answer the same stops", async () => {
    const tour = await ownTour();
    const pages = await Promise.all(Array.from({ length: 50 }, () => view(`/t/${tour.link}`)));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(names(page.page)).toEqual(["Vase à figures rouges", "Stèle funéraire", "Kouros"]);
    }
  });
});
