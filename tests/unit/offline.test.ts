import { gzipSync } from "node:zlib";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { offlinePlan, PAGE_BYTES_ESTIMATE, type PlannedStop } from "~/offline/manifest";
import { plannedStop } from "~/offline/manifest.server";
import { OFFLINE_BOOTSTRAP, SAVE_SCRIPT, SERVICE_WORKER } from "~/offline/scripts";
import { issueOfflinePass, readOfflinePass } from "~/offline/pass";
import { copyWindow, OFFLINE_VISIT_WINDOW_MS, offlineViewId, offlineViewsSchema, refusedTime, tourAddress } from "~/offline/views";
import { scanEventSchema } from "~/queue/scan-event";
import { scanEventFor } from "~/visitor/scan.server";

const DAY = 86_400_000;
const ORIGIN = "https://musee.example";

const stop = (position: number, extra: Partial<PlannedStop> = {}): PlannedStop => ({
  position,
  stopNumber: null,
  images: [],
  subtitles: [],
  videos: 0,
  ...extra,
});
const tour = { link: "AbC123xy", name: "Les maîtres", museum: { slug: "louvre-lens", sourceLang: "fr" } };

describe("offline manifest (decision 087)", () => {
  it("lists the tour page, every shown stop in order, the keypad, then each file once, with known sizes", () => {
    const plan = offlinePlan({
      tour,
      lang: "en",
      stops: [
        stop(1, { stopNumber: 12, images: ["/media/a.jpg", "/media/b.jpg"] }),
        stop(2, { images: ["/media/a.jpg"], subtitles: ["/media/s.vtt"], videos: 1 }),
        stop(3, { stopNumber: 7 }),
      ],
      bytes: new Map([
        ["/media/a.jpg", 100_000],
        ["/media/b.jpg", 50_000],
        ["/media/s.vtt", 2_000],
      ]),
      strings: { video: "Needs a connection", narration: "Not saved" },
    });
    expect(plan.entries.map((e) => [e.kind, e.url, e.key, e.bytes])).toEqual([
      ["page", "/t/AbC123xy?lang=en", "/t/AbC123xy", null],
      ["page", "/t/AbC123xy/1?lang=en", "/t/AbC123xy/1", null],
      ["page", "/t/AbC123xy/2?lang=en", "/t/AbC123xy/2", null],
      ["page", "/t/AbC123xy/3?lang=en", "/t/AbC123xy/3", null],
      ["page", "/v/louvre-lens/n?lang=en&tour=AbC123xy", "/v/louvre-lens/n", null],
      ["image", "/media/a.jpg", "/media/a.jpg", 100_000],
      ["image", "/media/b.jpg", "/media/b.jpg", 50_000],
      ["subtitles", "/vtt?src=%2Fmedia%2Fs.vtt&lang=en", "/vtt?src=%2Fmedia%2Fs.vtt&lang=en", 2_000],
    ]);
    expect(plan.keypad).toEqual({ page: "/v/louvre-lens/n", numbers: { "12": "/t/AbC123xy/1", "7": "/t/AbC123xy/3" } });
    expect(plan.offlinePage).toMatchObject({ url: "/offline?tour=AbC123xy&lang=en", key: "/offline/AbC123xy" });
    expect(plan.bytes).toEqual({ known: 152_000, estimated: 152_000 + 6 * PAGE_BYTES_ESTIMATE });
    expect(plan).toMatchObject({ stops: 3, videos: 1, days: 30, lang: "en", link: "AbC123xy" });
  });

  it("saves the stops' narrations once each, counted in the size shown before saving (decision 113)", () => {
    const narrations = [
      { url: "/narration/n/1/2/a.mp3", bytes: 400_000 },
      { url: "/narration/n/1/3/b.wav", bytes: 2_400_000 },
      { url: "/narration/n/1/2/a.mp3", bytes: 400_000 },
    ];
    const plan = offlinePlan({
      tour: { ...tour, museum: { slug: "m", sourceLang: "fr" } },
      lang: "en",
      stops: [stop(1), stop(2)],
      bytes: new Map(),
      narrations,
      strings: { video: "x", narration: "y" },
    });
    expect(plan.entries.filter((e) => e.kind === "narration").map((e) => [e.url, e.key, e.bytes])).toEqual([
      ["/narration/n/1/2/a.mp3", "/narration/n/1/2/a.mp3", 400_000],
      ["/narration/n/1/3/b.wav", "/narration/n/1/3/b.wav", 2_400_000],
    ]);
    expect(plan.bytes.known).toBe(2_800_000);
    expect(plan.bytes.estimated).toBe(2_800_000 + 5 * PAGE_BYTES_ESTIMATE);
  });

  it("keeps the original subtitle file in the museum's own language, and escapes odd slugs", () => {
    const plan = offlinePlan({
      tour: { ...tour, museum: { slug: "musée d'art", sourceLang: "fr" } },
      lang: "fr",
      stops: [stop(1, { subtitles: ["/media/s.vtt"] })],
      bytes: new Map(),
      strings: { video: "x", narration: "y" },
    });
    expect(plan.entries.map((e) => e.url)).toContain("/media/s.vtt");
    expect(plan.keypad.page).toBe("/v/mus%C3%A9e%20d'art/n");
    expect(plan.entries.find((e) => e.kind === "subtitles")!.bytes).toBeNull();
  });

  it("reads a stop's images (nested details, link images), subtitles and videos; ignores outside files and damaged rows", () => {
    const content = [
      { type: "text", content: "Titre" },
      { type: "image", src: "/media/one.webp" },
      { type: "image", src: "https://elsewhere.example/x.jpg" },
      { type: "link", link: "https://x.example", src: "/media/two.png" },
      { type: "video", src: "/media/v.mp4", subtitles: "/media/v.vtt" },
      { type: "details", details: [{ type: "image", src: "/media/three.jpg" }, null, 5] },
    ];
    const base = { position: 2, articleId: 1, slug: "s", name: "n", stopNumber: 4 };
    expect(plannedStop({ ...base, publishedContent: JSON.stringify(content) })).toEqual({
      position: 2,
      stopNumber: 4,
      images: ["/media/one.webp", "/media/two.png", "/media/three.jpg"],
      subtitles: ["/media/v.vtt"],
      videos: 1,
    });
    expect(plannedStop({ ...base, publishedContent: "{not json" })).toMatchObject({ images: [], videos: 0 });
  });
});

describe("offline views (decision 088)", () => {
  it("accepts only a tour's addresses", () => {
    expect(tourAddress("/t/AbC123xy")).toEqual({ link: "AbC123xy", position: 0 });
    expect(tourAddress("/t/AbC123xy/12")).toEqual({ link: "AbC123xy", position: 12 });
    expect(tourAddress("/t/%41bc/3/")).toEqual({ link: "Abc", position: 3 });
    for (const bad of ["/r/AbC123xy", "/t/AbC123xy/0", "/t/AbC123xy/10000", "/t/a/b/c", "/t/%E0%A4%A", "/t//1", "t/x/1", "/t/x/1?lang=en"])
      expect(tourAddress(bad), bad).toBeNull();
  });

  it("refuses views older than 30 days or more than a day ahead", () => {
    const now = Date.UTC(2026, 10, 24);
    expect(refusedTime(now - 30 * DAY, now)).toBeNull();
    expect(refusedTime(now - 30 * DAY - 1, now)).toMatch(/older/);
    expect(refusedTime(now + DAY + 1, now)).toMatch(/future/);
  });

  it("gives a copy's page one queue id per visit window, whatever else the view says, valid for the queue", async () => {
    const id = await offlineViewId("copy-AAAAAAAAAAAAAAAAAA", 2, 0);
    expect(await offlineViewId("copy-AAAAAAAAAAAAAAAAAA", 2, 0)).toBe(id);
    expect(await offlineViewId("copy-AAAAAAAAAAAAAAAAAB", 2, 0)).not.toBe(id);
    expect(await offlineViewId("copy-AAAAAAAAAAAAAAAAAA", 3, 0)).not.toBe(id);
    expect(await offlineViewId("copy-AAAAAAAAAAAAAAAAAA", 2, 1)).not.toBe(id);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(scanEventSchema.safeParse({ id, type: "view", museumId: 1, articleId: 2, qrcodeId: null, lang: "ar", at: 1 }).success).toBe(true);
  });

  it("holds a view's time between the save and now, and counts windows from the save", () => {
    const savedAt = Date.UTC(2026, 10, 24, 10);
    const now = savedAt + 2 * 3_600_000;
    // 100 times 31 minutes apart before the save (the inflating batch): all in the save's first window.
    for (let k = 0; k < 100; k++) expect(copyWindow(now - k * 31 * 60_000 - 3 * 3_600_000, savedAt, now)).toEqual({ at: savedAt, window: 0 });
    expect(copyWindow(savedAt + OFFLINE_VISIT_WINDOW_MS - 1, savedAt, now).window).toBe(0);
    expect(copyWindow(savedAt + OFFLINE_VISIT_WINDOW_MS, savedAt, now).window).toBe(1);
    // A time ahead of the server is the batch's arrival: the last window there is.
    expect(copyWindow(now + 86_000_000, savedAt, now)).toEqual({ at: now, window: 4 });
    const windows = new Set(Array.from({ length: 1000 }, (_, k) => copyWindow(savedAt + k * 31 * 60_000, savedAt, now).window));
    expect(windows.size).toBe(5);
  });

  it("reads only the passes it signed, as they were signed", async () => {
    const pass = await issueOfflinePass("secret-one", 42, 1_764_000_000_000);
    const read = await readOfflinePass("secret-one", pass);
    expect(read).toMatchObject({ tourId: 42, savedAt: 1_764_000_000_000 });
    expect(read!.copy).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await issueOfflinePass("secret-one", 42, 1_764_000_000_000)).not.toBe(pass);
    expect(await readOfflinePass("secret-two", pass)).toBeNull();
    const [tour, savedAt, copy, mac] = pass.split(".");
    for (const forged of [
      `43.${savedAt}.${copy}.${mac}`,
      `${tour}.${Number(savedAt) - 86_400_000}.${copy}.${mac}`,
      `${tour}.${savedAt}.${copy!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}.${mac}`,
      `${tour}.${savedAt}.${copy}.${mac!.replace(/^./, (c) => (c === "0" ? "1" : "0"))}`,
      `${pass}.`,
      ` ${pass}`,
      pass.toUpperCase(),
      "",
      `99999999999999999.${savedAt}.${copy}.${mac}`,
    ])
      expect(await readOfflinePass("secret-one", forged), forged).toBeNull();
  });

  it("parses batches strictly", () => {
    const ok = { client: "abcdefghijklmnop", views: [{ path: "/t/x/1", lang: "zh-Hant-TW", at: 1 }] };
    expect(offlineViewsSchema.safeParse(ok).success).toBe(true);
    expect(offlineViewsSchema.safeParse({ ...ok, views: [] }).success).toBe(false);
    expect(offlineViewsSchema.safeParse({ ...ok, client: "short" }).success).toBe(false);
    expect(offlineViewsSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(offlineViewsSchema.safeParse({ ...ok, views: [{ ...ok.views[0], lang: "fr<script>" }] }).success).toBe(false);
    expect(offlineViewsSchema.safeParse({ ...ok, views: Array.from({ length: 101 }, () => ok.views[0]) }).success).toBe(false);
  });
});

describe("saving is not visiting", () => {
  it("does not count a page the service worker fetches to save a tour", () => {
    const target = {
      museum: { id: 1, name: "M", slug: "m", sourceLang: "fr" },
      article: { id: 2 },
      qrcodeId: null,
      glossary: [],
      images: {},
    } as unknown as Parameters<typeof scanEventFor>[1];
    const open = (headers: Record<string, string>) =>
      scanEventFor(new Request(`${ORIGIN}/v/m/a`, { headers }), target, { base: "/v/m/a", scannable: false }, "en");
    const phone = { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1" };
    expect(open(phone)).toMatchObject({ type: "view", articleId: 2 });
    expect(open({ ...phone, "X-Muselingo-Save": "1" })).toBeNull();
  });
});

describe("offline scripts budget", () => {
  it("keeps the service worker, the save script and the bootstrap under 6 KB gzipped together", () => {
    const gz = (s: string) => gzipSync(Buffer.from(s), { level: 9 }).length;
    const total = gz(SERVICE_WORKER) + gz(SAVE_SCRIPT) + gz(OFFLINE_BOOTSTRAP);
    console.log(`offline JS gzip: sw ${gz(SERVICE_WORKER)} B, save ${gz(SAVE_SCRIPT)} B, bootstrap ${gz(OFFLINE_BOOTSTRAP)} B, total ${total} B`);
    expect(total).toBeLessThanOrEqual(6 * 1024);
    // Served without comments.
    expect(SERVICE_WORKER).not.toMatch(/^\/\//m);
  });
});

// ---------------------------------------------------------------------------------------------------
// The service worker itself, run in a fresh context with an in-memory Cache Storage that follows the
// Cache API (https://w3c.github.io/ServiceWorker/#cache-interface: keys are absolute request URLs, a
// string is resolved against the worker's location, `match` ignores nothing by default).

class FakeCache {
  entries = new Map<string, Response>();
  private url(r: string | Request) {
    return new URL(typeof r === "string" ? r : r.url, ORIGIN).href;
  }
  async match(r: string | Request) {
    return this.entries.get(this.url(r))?.clone();
  }
  async put(r: string | Request, response: Response) {
    this.entries.set(this.url(r), response.clone());
  }
  async delete(r: string | Request) {
    return this.entries.delete(this.url(r));
  }
  async keys() {
    return [...this.entries.keys()].map((u) => new Request(u));
  }
}

function worker(server: (url: URL, init?: RequestInit) => Response | Promise<Response>) {
  const stores = new Map<string, FakeCache>();
  const caches = {
    open: async (n: string) => stores.get(n) ?? stores.set(n, new FakeCache()).get(n)!,
    has: async (n: string) => stores.has(n),
    delete: async (n: string) => stores.delete(n),
    keys: async () => [...stores.keys()],
  };
  const listeners: Record<string, (e: unknown) => void> = {};
  let online = true;
  const posted: unknown[] = [];
  const fetch = async (input: string | Request, init?: RequestInit) => {
    if (!online) throw new TypeError("Failed to fetch");
    const url = new URL(typeof input === "string" ? input : input.url, ORIGIN);
    posted.push({
      url: url.pathname + url.search,
      method: init?.method ?? "GET",
      body: init?.body,
      saving: (init?.headers as Record<string, string> | undefined)?.["X-Muselingo-Save"],
    });
    return server(url, init);
  };
  const self = {
    location: { origin: ORIGIN },
    crypto: { randomUUID: () => "0f0e0d0c-0b0a-4998-8776-655443322110" },
    clients: { claim: async () => undefined },
    skipWaiting: () => undefined,
    addEventListener: (type: string, fn: (e: unknown) => void) => (listeners[type] = fn),
  };
  const context = runInNewContext(`${SERVICE_WORKER}\n;({ expired, pruned, keypadTarget, ordered, withoutVideos })`, {
    self,
    caches,
    fetch,
    Response,
    Request,
    URL,
    Blob,
    Promise,
    setTimeout,
    JSON,
    Date,
    Object,
    String,
  });
  const waits: Promise<unknown>[] = [];
  const message = async (data: unknown) => {
    const told: Record<string, unknown>[] = [];
    listeners.message!({ data, source: { postMessage: (m: Record<string, unknown>) => told.push(m) }, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
    return told;
  };
  const navigate = async (path: string) => {
    let answer: Promise<Response> | undefined;
    // A navigation (Node's Request cannot take mode "navigate": a stand-in with the fields the worker reads).
    const request = { url: `${ORIGIN}${path}`, method: "GET", mode: "navigate" };
    listeners.fetch!({ request, respondWith: (p: Promise<Response>) => (answer = p), waitUntil: (p: Promise<unknown>) => waits.push(p) });
    return answer;
  };
  const file = async (path: string, headers: Record<string, string> = {}) => {
    let answer: Promise<Response> | undefined;
    listeners.fetch!({
      request: new Request(`${ORIGIN}${path}`, { headers }),
      respondWith: (p: Promise<Response>) => (answer = p),
      waitUntil: (p: Promise<unknown>) => waits.push(p),
    });
    return answer;
  };
  return { stores, listeners, posted, context, message, navigate, file, waits, setOnline: (v: boolean) => (online = v) };
}

const MANIFEST = {
  link: "AbC123xy",
  lang: "en",
  name: "Masters",
  version: "v1",
  stops: 2,
  videos: 1,
  entries: [
    { url: "/t/AbC123xy?lang=en", key: "/t/AbC123xy", kind: "page", bytes: null },
    { url: "/t/AbC123xy/1?lang=en", key: "/t/AbC123xy/1", kind: "page", bytes: null },
    { url: "/t/AbC123xy/2?lang=en", key: "/t/AbC123xy/2", kind: "page", bytes: null },
    { url: "/v/louvre/n?lang=en&tour=AbC123xy", key: "/v/louvre/n", kind: "page", bytes: null },
    { url: "/media/a.jpg", key: "/media/a.jpg", kind: "image", bytes: 3 },
    { url: "/narration/n/1/2/a.wav", key: "/narration/n/1/2/a.wav", kind: "narration", bytes: 10 },
  ],
  keypad: { page: "/v/louvre/n", numbers: { "12": "/t/AbC123xy/2" } },
  offlinePage: { url: "/offline?tour=AbC123xy&lang=en", key: "/offline/AbC123xy", kind: "page", bytes: null },
  bytes: { known: 3, estimated: 100 },
  strings: { video: "Needs <a> connection", narration: "Narration <not> saved" },
  days: 30,
};

/** What a Worker would answer; records what the worker sent. */
function site(state: { version: string; failOn?: string; passes?: number }) {
  return (url: URL) => {
    // A pass only when asked for (`pass=1`), a new one each time, as the server gives them (decision 118).
    if (url.pathname.endsWith("/offline.json"))
      return Response.json({
        ...MANIFEST,
        version: state.version,
        ...(url.searchParams.get("pass") === "1" ? { pass: `pass-${(state.passes = (state.passes ?? 0) + 1)}` } : {}),
      });
    if (url.pathname === state.failOn) return new Response("no", { status: 500 });
    if (url.pathname === "/api/visit/offline_views") return Response.json({ counted: 1 }, { status: 202 });
    if (url.pathname.startsWith("/media/")) return new Response("JPG", { headers: { "Content-Type": "image/jpeg" } });
    if (url.pathname.startsWith("/narration/")) return new Response("RIFF012345", { headers: { "Content-Type": "audio/wav" } });
    // Stop 1 plays the narration the manifest lists; stop 2 one it does not (generated after the manifest was read).
    const narration = { "/t/AbC123xy/1": "/narration/n/1/2/a.wav", "/t/AbC123xy/2": "/narration/n/1/3/b.wav" }[url.pathname];
    if (narration) {
      return new Response(
        `<html><body>${url.pathname} ${url.search}<div class="v-listen"><p id="v-listen-label">Listen <time>0:26</time></p><audio id="v-audio" controls preload="none"><source src="${narration}" type="audio/wav"/></audio></div></body></html>`,
        {
          headers: { "Content-Type": "text/html; charset=utf-8" },
        },
      );
    }
    return new Response(`<html><body>${url.pathname} ${url.search}<video src="/media/v.mp4"><track src="/vtt"/></video></body></html>`, {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  };
}

describe("the service worker", () => {
  it("has pure rules for expiry, the queue and the keypad", () => {
    const { context } = worker(site({ version: "v1" }));
    const now = Date.UTC(2026, 10, 24);
    expect(context.expired({ savedAt: now - 30 * DAY }, now)).toBe(false);
    expect(context.expired({ savedAt: now - 30 * DAY - 1 }, now)).toBe(true);
    const views = [{ at: now - 31 * DAY }, ...Array.from({ length: 600 }, (_, i) => ({ at: now - i }))];
    expect(context.pruned(views, now)).toHaveLength(500);
    expect(context.pruned(views, now)[0].at).toBe(now - 100);
    const saved = [{ keypad: MANIFEST.keypad }];
    expect(context.keypadTarget(saved, "/v/louvre/n", "12")).toBe("/t/AbC123xy/2");
    expect(context.keypadTarget(saved, "/v/louvre/n", " 012 ")).toBe("/t/AbC123xy/2");
    expect(context.keypadTarget(saved, "/v/louvre/n", "13")).toBeNull();
    expect(context.keypadTarget(saved, "/v/louvre/n", "constructor")).toBeNull();
    expect(context.keypadTarget(saved, "/v/other/n", "12")).toBeNull();
    // Two saved tours of one museum: the keypad opened from a tour (`?tour=`) leads into it, as online
    // (decision 113); a number only the other has leads there; without a tour, the last saved first.
    const two = () => [
      { link: "AAAAAAAA", savedAt: 2, keypad: { page: "/v/louvre/n", numbers: { "12": "/t/AAAAAAAA/2" } } },
      { link: "BBBBBBBB", savedAt: 1, keypad: { page: "/v/louvre/n", numbers: { "12": "/t/BBBBBBBB/5", "8": "/t/BBBBBBBB/1" } } },
    ];
    expect(context.keypadTarget(context.ordered(two(), "BBBBBBBB"), "/v/louvre/n", "12")).toBe("/t/BBBBBBBB/5");
    expect(context.keypadTarget(context.ordered(two(), null), "/v/louvre/n", "12")).toBe("/t/AAAAAAAA/2");
    expect(context.keypadTarget(context.ordered(two(), "AAAAAAAA"), "/v/louvre/n", "8")).toBe("/t/BBBBBBBB/1");
    expect(context.keypadTarget(context.ordered(two(), "zzzzzzzz"), "/v/louvre/n", "13")).toBeNull();
    expect(context.withoutVideos('a<video src="x"><track/>old</video>b', "<b>&")).toBe('a<p class="v-notice" role="note">&#60;b&#62;&#38;</p>b');
  });

  it("saves a tour with progress, answers offline from it, queues the views and sends them once when back online", async () => {
    const w = worker(site({ version: "v1" }));
    const told = await w.message({ type: "save", link: "AbC123xy", lang: "en" });
    expect(told.filter((m) => m.type === "progress").map((m) => m.done)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(told.at(-1)).toMatchObject({ type: "saved", link: "AbC123xy" });
    const cache = w.stores.get("muselingo-tour-AbC123xy@v1")!;
    expect([...cache.entries.keys()].map((u) => u.slice(ORIGIN.length)).sort()).toEqual([
      "/media/a.jpg",
      "/narration/n/1/2/a.wav",
      "/offline/AbC123xy",
      "/t/AbC123xy",
      "/t/AbC123xy/1",
      "/t/AbC123xy/2",
      "/v/louvre/n",
    ]);
    const otherPage = await (await cache.match("/t/AbC123xy"))!.text();
    expect(otherPage).toContain("?lang=en");
    expect(otherPage).not.toContain("<video");
    expect(otherPage).toContain("Needs &#60;a&#62; connection");
    // The narration the manifest lists is saved and its player kept; one it does not list becomes a notice (decision 113).
    const narrated = await (await cache.match("/t/AbC123xy/1"))!.text();
    expect(narrated).toContain('<source src="/narration/n/1/2/a.wav"');
    const unsaved = await (await cache.match("/t/AbC123xy/2"))!.text();
    expect(unsaved).not.toContain("<audio");
    expect(unsaved).not.toContain("0:26");
    expect(unsaved).toContain('<p class="v-notice" role="note">Narration &#60;not&#62; saved</p>');
    // The save's own fetches are marked so the server does not count them as visits.
    const pages = (w.posted as { url: string; saving?: string }[]).filter((p) => !p.url.includes("offline.json"));
    expect(pages).toHaveLength(7);
    expect(pages.every((p) => p.saving === "1")).toBe(true);
    w.posted.length = 0;

    w.setOnline(false);
    // Offline, the saved narration plays: whole, or the byte range the player asks for (206), as the server answers.
    expect(await (await w.file("/narration/n/1/2/a.wav"))!.text()).toBe("RIFF012345");
    const part = (await w.file("/narration/n/1/2/a.wav", { Range: "bytes=4-" }))!;
    expect([part.status, part.headers.get("Content-Range"), await part.text()]).toEqual([206, "bytes 4-9/10", "012345"]);
    const tail = (await w.file("/narration/n/1/2/a.wav", { Range: "bytes=-3" }))!;
    expect([tail.status, tail.headers.get("Content-Range"), await tail.text()]).toEqual([206, "bytes 7-9/10", "345"]);
    expect((await w.file("/narration/n/1/2/a.wav", { Range: "bytes=10-" }))!.status).toBe(416);
    expect((await w.file("/narration/n/1/3/b.wav"))!.status).toBe(503);
    expect(await (await w.navigate("/t/AbC123xy/2"))!.text()).toContain("/t/AbC123xy/2 ?lang=en");
    expect(await (await w.navigate("/t/AbC123xy/1?lang=en"))!.text()).toContain("/t/AbC123xy/1 ");
    const keyed = (await w.navigate("/v/louvre/n?number=12"))!;
    expect([keyed.status, keyed.headers.get("Location")]).toEqual([302, `${ORIGIN}/t/AbC123xy/2`]);
    expect(await (await w.navigate("/v/louvre/n"))!.text()).toContain("/v/louvre/n ");
    expect(await (await w.navigate("/v/louvre/n?number=99"))!.text()).toContain("/offline ?tour=AbC123xy");
    expect(await (await w.navigate("/r/ZZZZ1234"))!.text()).toContain("/offline ?tour=AbC123xy");
    await Promise.all(w.waits);
    const queued = (await (await w.stores.get("muselingo-offline-meta")!.match("/__queue"))!.json()) as { path: string }[];
    expect(queued.map((v: { path: string }) => v.path)).toEqual(["/t/AbC123xy/2", "/t/AbC123xy/1"]);
    expect(w.posted).toEqual([]);

    w.setOnline(true);
    await w.navigate("/t/AbC123xy/1");
    await Promise.all(w.waits);
    const sent = w.posted.filter((p) => (p as { url: string }).url === "/api/visit/offline_views") as { body: string }[];
    expect(sent).toHaveLength(1);
    const batch = JSON.parse(sent[0]!.body);
    expect(batch.client).toBe("0f0e0d0c-0b0a-4998-8776-655443322110");
    expect(batch.views.map((v: { path: string; lang: string }) => `${v.path} ${v.lang}`)).toEqual(["/t/AbC123xy/2 en", "/t/AbC123xy/1 en"]);
    expect(await (await w.stores.get("muselingo-offline-meta")!.match("/__queue"))!.json()).toEqual([]);
    // Nothing more to send on the next page.
    await w.navigate("/t/AbC123xy");
    await Promise.all(w.waits);
    expect(w.posted.filter((p) => (p as { url: string }).url === "/api/visit/offline_views")).toHaveLength(1);
  });

  it("keeps the pass its copy was given, sends it with each view, keeps it on a refresh, and fetches one for a copy without", async () => {
    const state = { version: "v1" };
    const w = worker(site(state));
    await w.message({ type: "save", link: "AbC123xy", lang: "en" });
    const meta = w.stores.get("muselingo-offline-meta")!;
    const manifests = () => (w.posted as { url: string }[]).filter((p) => p.url.includes("offline.json")).map((p) => p.url);
    expect(manifests()).toEqual(["/t/AbC123xy/offline.json?lang=en&pass=1"]);
    const record = (await (await meta.match("/__tour/AbC123xy"))!.json()) as { pass: string; checkedAt: number };
    expect(record.pass).toBe("pass-1");
    w.setOnline(false);
    await w.navigate("/t/AbC123xy/2");
    await Promise.all(w.waits);
    expect(await (await meta.match("/__queue"))!.json()).toEqual([{ path: "/t/AbC123xy/2", lang: "en", at: expect.any(Number), pass: "pass-1" }]);
    // Staff changed the tour: the refresh keeps the copy's pass (its views count from its first save).
    w.setOnline(true);
    state.version = "v2";
    await meta.put("/__tour/AbC123xy", Response.json({ ...record, checkedAt: record.checkedAt - 3_600_001 }));
    w.posted.length = 0;
    await w.navigate("/t/AbC123xy");
    await Promise.all(w.waits);
    await Promise.all(w.waits);
    expect(manifests()).toEqual(["/t/AbC123xy/offline.json?lang=en", "/t/AbC123xy/offline.json?lang=en"]);
    expect((await (await meta.match("/__tour/AbC123xy"))!.json()) as { pass: string; version: string }).toMatchObject({ pass: "pass-1", version: "v2" });
    const sent = (w.posted as { url: string; body: string }[]).filter((p) => p.url === "/api/visit/offline_views");
    expect(JSON.parse(sent[0]!.body).views.map((v: { pass: string }) => v.pass)).toEqual(["pass-1"]);
    // A copy saved before passes existed asks for one at its next hourly check, and keeps it.
    const older = (await (await meta.match("/__tour/AbC123xy"))!.json()) as Record<string, unknown>;
    await meta.put("/__tour/AbC123xy", Response.json({ ...older, pass: undefined, checkedAt: Date.now() - 3_600_001 }));
    w.posted.length = 0;
    await w.navigate("/t/AbC123xy");
    await Promise.all(w.waits);
    await Promise.all(w.waits);
    expect(manifests()).toEqual(["/t/AbC123xy/offline.json?lang=en&pass=1"]);
    expect(((await (await meta.match("/__tour/AbC123xy"))!.json()) as { pass: string }).pass).toBe("pass-2");
  });

  it("refreshes a saved tour whose version changed, keeps its date, and removes it on request or after 30 days", async () => {
    const state = { version: "v1" };
    const w = worker(site(state));
    await w.message({ type: "save", link: "AbC123xy", lang: "en" });
    const meta = w.stores.get("muselingo-offline-meta")!;
    const first = (await (await meta.match("/__tour/AbC123xy"))!.json()) as { checkedAt: number; savedAt: number };
    // An hour later staff changed the tour: the next page online saves it again under the new version.
    state.version = "v2";
    await meta.put("/__tour/AbC123xy", Response.json({ ...first, checkedAt: first.checkedAt - 3_600_001 }));
    await w.navigate("/t/AbC123xy");
    await Promise.all(w.waits);
    await Promise.all(w.waits);
    const second = (await (await meta.match("/__tour/AbC123xy"))!.json()) as Record<string, unknown>;
    expect(second).toMatchObject({ version: "v2", cache: "muselingo-tour-AbC123xy@v2", savedAt: first.savedAt });
    expect(w.stores.has("muselingo-tour-AbC123xy@v1")).toBe(false);
    // 30 days after the save, the next page online removes it.
    await meta.put("/__tour/AbC123xy", Response.json({ ...second, savedAt: Date.now() - 30 * DAY - 1 }));
    await w.navigate("/t/AbC123xy");
    await Promise.all(w.waits);
    expect(await meta.match("/__tour/AbC123xy")).toBeUndefined();
    expect(w.stores.has("muselingo-tour-AbC123xy@v2")).toBe(false);
    // Saved again, then removed on request.
    await w.message({ type: "save", link: "AbC123xy", lang: "en" });
    expect((await w.message({ type: "remove", link: "AbC123xy" })).at(-1)).toMatchObject({ type: "removed" });
    expect([...w.stores.keys()].filter((n) => n.startsWith("muselingo-tour-"))).toEqual([]);
  });

  it("reports a failed save and leaves no half-saved copy", async () => {
    const w = worker(site({ version: "v1", failOn: "/media/a.jpg" }));
    const told = await w.message({ type: "save", link: "AbC123xy", lang: "en" });
    expect(told.at(-1)).toMatchObject({ type: "failed" });
    expect(w.stores.has("muselingo-tour-AbC123xy@v1")).toBe(false);
    expect(await w.stores.get("muselingo-offline-meta")?.match("/__tour/AbC123xy")).toBeUndefined();
  });
});
