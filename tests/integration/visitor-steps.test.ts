// The steps of an article's visitor page that read the bindings (issue 31 §2, decision 133), against the real
// local KV, D1 and queue: the snapshot's stamp check and its bound, the translation step, the count step.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pseudoTranslate } from "~/translation/engines";
import { changedKey, snapshotTarget, STAMP_CHECK_MS, type SnapshotDeps } from "~/visitor-cache/snapshot.server";
import { RequestTiming, timedKv } from "~/visitor-cache/timing";
import { countVisit } from "~/visitor/article/count.server";
import { narrate } from "~/visitor/article/narration.server";
import { chooseText } from "~/visitor/article/text";
import { interfaceWords, translateText } from "~/visitor/article/translation.server";
import { visitOf } from "~/visitor/article/visit.server";
import { atLink } from "~/visitor/place.server";
import { usedDb } from "~/load-context";
import { stepContext } from "./builders";
import { BASE, get, publishArticle, recordingScans, staffSession, texts } from "./helpers";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the snapshot's stamp check, remembered in the isolate for STAMP_CHECK_MS", () => {
  /** A museum of its own (the isolate's snapshots outlive a test file) and a counting loader. */
  function fixture() {
    const museumId = 2_000_000 + Math.floor(Math.random() * 1_000_000);
    const address = `test/${crypto.randomUUID()}`;
    const loads = { n: 0 };
    const load = async () => ({ museum: { id: museumId }, version: ++loads.n });
    return { museumId, address, loads, load };
  }
  const pending: Promise<unknown>[] = [];
  const depsAt = (now: () => number, freshStamp = false) => {
    const timing = new RequestTiming();
    const deps: SnapshotDeps = { kv: timedKv(env.KV, timing), waitUntil: (p) => void pending.push(p), timing, now, freshStamp };
    return { deps, timing };
  };

  it("within the bound no KV read at all; past it the stamp is read, and a newer one sends the view to D1", async () => {
    const { museumId, address, loads, load } = fixture();
    let clock = Date.now();
    const first = depsAt(() => clock);
    expect((await snapshotTarget(first.deps, address, load)).target).toEqual({ museum: { id: museumId }, version: 1 });
    expect(first.timing.snapshot).toBe("d1");
    // Another location's change, arriving in this location's KV just after the snapshot's read.
    await env.KV.put(changedKey(museumId), String(clock + 1));
    clock += STAMP_CHECK_MS - 1;
    const within = depsAt(() => clock);
    expect((await snapshotTarget(within.deps, address, load)).target).toMatchObject({ version: 1 });
    expect([within.timing.snapshot, within.timing.kv.count, loads.n]).toEqual(["isolate", 0, 1]);
    clock += 1;
    const past = depsAt(() => clock);
    expect((await snapshotTarget(past.deps, address, load)).target).toMatchObject({ version: 2 });
    expect(past.timing.snapshot).toBe("d1");
    expect(past.timing.kv.count).toBeGreaterThanOrEqual(1);
    // The new snapshot was just read from D1: served from the isolate again, without a read.
    const again = depsAt(() => clock + 10);
    expect((await snapshotTarget(again.deps, address, load)).target).toMatchObject({ version: 2 });
    expect([again.timing.snapshot, again.timing.kv.count]).toEqual(["isolate", 0]);
    await Promise.all(pending.splice(0));
  });

  it("a stamp read that finds the snapshot valid starts the bound again; a staff view reads the stamp every time", async () => {
    const { museumId, address, loads, load } = fixture();
    let clock = Date.now();
    await snapshotTarget(depsAt(() => clock).deps, address, load);
    clock += STAMP_CHECK_MS + 5;
    const checked = depsAt(() => clock);
    await snapshotTarget(checked.deps, address, load);
    expect([checked.timing.snapshot, checked.timing.kv.count, loads.n]).toEqual(["isolate", 1, 1]);
    await env.KV.put(changedKey(museumId), String(clock + 1));
    clock += STAMP_CHECK_MS - 1;
    expect((await snapshotTarget(depsAt(() => clock).deps, address, load)).target).toMatchObject({ version: 1 });
    const staff = depsAt(() => clock, true);
    expect((await snapshotTarget(staff.deps, address, load)).target).toMatchObject({ version: 2 });
    expect(staff.timing.snapshot).toBe("d1");
    await Promise.all(pending.splice(0));
  });

  it("50 views at once past the bound, the stamp moved meanwhile: all answer the new target", async () => {
    const { museumId, address, load } = fixture();
    let clock = Date.now();
    await snapshotTarget(depsAt(() => clock).deps, address, load);
    await env.KV.put(changedKey(museumId), String(clock + 1));
    clock += STAMP_CHECK_MS;
    const found = await Promise.all(Array.from({ length: 50 }, () => snapshotTarget(depsAt(() => clock).deps, address, load)));
    for (const one of found) expect((one.target as { version: number }).version).toBeGreaterThan(1);
    await Promise.all(pending.splice(0));
  });

  it("a change behind the app's back: visitors see it once the bound has passed, staff at once", async () => {
    const s = await staffSession();
    const { link, slug } = await publishArticle(s, texts(["Un texte."]));
    const name = async (path: string, headers: Record<string, string> = {}) =>
      /<p class="v-museum">([^<]*)<\/p>/.exec(await (await get(path, undefined, headers)).text())?.[1];
    const [r, v] = [`/r/${link}`, `/v/${s.user.museumSlug}/${slug}`];
    const warmed = Date.now();
    const before = await name(r);
    expect(await name(v)).toBe(before);
    // Written straight to D1 and its stamp straight to KV, as another location's Worker would (decision 039).
    await env.DB.prepare("UPDATE museums SET name = 'Musée renommé ailleurs' WHERE id = ?").bind(s.user.museumId).run();
    await env.KV.put(changedKey(s.user.museumId), String(Date.now() + 1));
    const asked = Date.now();
    const seen = await name(r);
    // Within the bound of its last check (the first view's D1 read) this isolate still shows the page it checked.
    expect([before, "Musée renommé ailleurs"]).toContain(seen);
    if (asked - warmed < STAMP_CHECK_MS) expect(seen).toBe(before);
    // A request with a session cookie checks the stamp: a staff member's preview shows the change at once.
    expect(await name(v, { Cookie: s.cookie })).toBe("Musée renommé ailleurs");
    await sleep(STAMP_CHECK_MS + 10);
    expect(await name(r)).toBe("Musée renommé ailleurs");
  });
});

describe("the steps that read the bindings", () => {
  const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
  it("translation: the engine once, then the cached translation and its rendering; count: one view, marked easy-to-read", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Le vase", "Une amphore attique."]));
    const scans = recordingScans<Record<string, unknown>>();
    const steps = async (url: string) => {
      const request = new Request(`${BASE}${url}`, { headers: { "User-Agent": PHONE } });
      const { context, settle } = stepContext(request, { scans: scans.env.SCANS, snapshots: true });
      const located = await atLink(context, { link: p.link });
      const visit = visitOf(request, context, { ...located, target: located.target! });
      const text = chooseText(visit, located.target!.article!);
      const translated = await translateText(visit, text, interfaceWords(visit));
      countVisit(visit, located.target!.article!, text);
      const narration = await narrate(visit, located.target!.article!, translated);
      await settle();
      return { translated, narration, engine: context.timing.engine.count };
    };
    const first = await steps(`/r/${p.link}?lang=de`);
    expect(first.translated).toMatchObject({ lang: "de", translated: { status: "machine", engines: ["pseudo"] } });
    expect(first.engine).toBeGreaterThan(0);
    expect(first.narration).toBeNull();
    const cached = await steps(`/r/${p.link}?lang=de`);
    expect(cached.engine).toBe(0);
    expect(cached.translated.html).toContain(pseudoTranslate("Une amphore attique.", "de"));
    expect(cached.translated.media).toEqual({});
    // The original asked for: the text as written, the page in the museum's language.
    const original = await steps(`/r/${p.link}?lang=de&original=1`);
    expect(original.translated).toMatchObject({ lang: "fr", translated: { status: "original" } });
    expect(original.translated.html).toBeUndefined();
    expect(scans.sent.map((e) => [e.type, e.lang])).toEqual([
      ["view", "de"],
      ["view", "de"],
      ["view", "de"],
    ]);
  });

  it("the page through the Worker still answers a malformed or hostile request with a page", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, texts(["Texte ‮ avec ‭ contrôles et 𝒜 hors du plan de base."]));
    for (const query of ["?lang=%E0%A4%A", "?easy=%00", "?original=1&original=0", "?lang=de&lang=ar", `?lang=${"x".repeat(5000)}`]) {
      const response = await SELF.fetch(`${BASE}/r/${p.link}${query}`, { headers: { "User-Agent": PHONE, Cookie: "muselingo_easy=%; muselingo_lang=%E0" } });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("𝒜");
    }
  });
});

describe("a visitor path no visitor route answers (the smaller route table, decision 133)", () => {
  it("renders the app's not-found page, in French and English, not a 500 for a module the renderer lacks", async () => {
    for (const [path, lang, text] of [
      ["/v/sw.js", "fr", "rien par ici"],
      ["/r/a/b/c/d", "en", "Nothing there"],
      ["/t/%F0%9F%98%80/x/y/z", "fr", "rien par ici"],
    ] as const) {
      const response = await SELF.fetch(`${BASE}${path}`, { headers: { "Accept-Language": lang } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("Content-Type"), path).toContain("text/html");
      expect(await response.text(), path).toContain(text);
    }
  });
});

describe("the request's D1 handle (decision 139)", () => {
  it("is made on first use only: a request that reads no D1 has nothing to publish", async () => {
    // A link no test has named, so this isolate has not cached its museum yet (decision 142).
    const request = new Request(`${BASE}/r/nothing-${crypto.randomUUID().slice(0, 8)}`);
    const { context } = stepContext(request, { scans: env.SCANS, snapshots: true });
    expect(usedDb(context)).toBeUndefined();
    const db = context.db;
    expect(usedDb(context)).toBe(db);
    expect(context.db).toBe(db);
    expect(context.timing.d1.count).toBe(0);
    // The first statement finds the link's museum in the directory first (decision 142); the isolate keeps it.
    await db.$client.prepare("SELECT 1").first();
    expect(context.timing.d1.count).toBe(2);
    await db.$client.prepare("SELECT 1").first();
    expect(context.timing.d1.count).toBe(3);
  });
});
