// Issue 31 §2 (decision 133): the visitor page as named steps renders the same bytes, headers, counts and
// Server-Timing figures as the one function it replaced (a frozen copy in app/visitor/legacy-133, removed after the comparison), page by page.
import { env, SELF } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { readConfig } from "~/config.server";
import { createDb } from "~/db/client.server";
import { RequestTiming } from "~/visitor-cache/timing";
import { visitorPage } from "~/visitor/page.server";
import { atAddress, atLink, type Located } from "~/visitor/place.server";
import { locateStop } from "~/visitor/tour/page.server";
import { legacyVisitorPage } from "~/visitor/legacy-133/page.server";
import { BASE, publishArticle, recordingScans, staffSession, texts } from "./helpers";
import { mp3Bytes } from "./narration-helpers";
import { insertTour } from "./tour-helpers";

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";

type Page = typeof visitorPage;

/** One call of a page function with a context of its own: its answer, its Server-Timing counts, its queued events. */
async function call(page: Page, url: string, headers: Record<string, string>, locate: (context: AppLoadContext) => Promise<Located>, method = "GET") {
  const scheduled: Promise<unknown>[] = [];
  const scans = recordingScans<Record<string, unknown>>();
  const context = {
    cloudflare: { env, ctx: { waitUntil: (p: Promise<unknown>) => void scheduled.push(p), passThroughOnException: () => undefined } },
    db: createDb(env.DB),
    kv: env.KV,
    timing: new RequestTiming(),
    media: env.MEDIA,
    scans: scans.env.SCANS,
    ai: env.AI,
    config: readConfig(env as unknown as Record<string, unknown>),
    cspNonce: "nonce-ab",
    visitorSnapshots: true,
    // Every call checks the stamp: the calls' counts do not depend on how far apart they ran (decision 133).
    sessionCookie: true,
  } as unknown as AppLoadContext;
  const located = await locate(context);
  const response = await page(new Request(`${BASE}${url}`, { method, headers: { "User-Agent": PHONE, ...headers } }), context, located);
  const html = await response.text();
  await Promise.all(scheduled);
  const events = scans.sent.map(({ id: _id, at: _at, fingerprint: _fingerprint, ...rest }) => rest);
  const counts = context.timing.header().replace(/dur=[\d.]+;?/g, "");
  return { status: response.status, headers: [...response.headers].map(([k, v]) => `${k}: ${v}`), html, counts, events };
}

async function upload(cookie: string, fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await SELF.fetch(`${BASE}/api/upload/narration`, { method: "POST", body: form, headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
}

describe("the article page as steps renders what the one function rendered", () => {
  it("article, easy-to-read, translated, right to left, narrated, original, tour stop, draft preview, placeholders, 404", async () => {
    const s = await staffSession();
    const p = await publishArticle(s, [
      ...texts(["L'amphore attique", "Vers 530 avant notre ère, le peintre Amasis décore cette amphore.", "Deux guerriers se font face."]),
      { type: "image", src: "", alt: "Une amphore noire et rouge." },
    ]);
    expect((await s.call("generate_easy_read", { articleId: p.articleId, version: 0 })).status).toBe(200);
    expect((await s.call("approve_easy_read", { articleId: p.articleId, version: 1 })).status).toBe(200);
    await upload(s.cookie, { articleId: String(p.articleId), lang: "de", narration: new File([mp3Bytes()], "guide.mp3", { type: "audio/mpeg" }) });
    // An article never published, behind a code; a code linked to nothing.
    const added = await s.call("add_article", { pathArray: [] });
    const draft = (await s.read(`/api/read/article?articleId=${added.body.id}`)).body as { content: unknown[]; version: number };
    await s.call("update_article", { articleId: added.body.id, version: draft.version, newContent: [draft.content[0], ...texts(["Brouillon."])] });
    const hidden = await s.call("add_qrcode", {});
    await s.call("update_qrcode", { qrcodeId: hidden.body.id, articleId: added.body.id });
    const empty = await s.call("add_qrcode", {});
    const other = await publishArticle(s, texts(["Le cratère", "Un grand vase à mélanger le vin."]));
    const tour = await insertTour(s.user.museumId, [p.articleId, other.articleId]);

    const byLink = (link: string) => (context: AppLoadContext) => atLink(context, { link });
    const at = byLink(p.link);
    const params = { museum: s.user.museumSlug, slug: p.slug };
    const cases: [string, string, Record<string, string>, (context: AppLoadContext) => Promise<Located>, string?][] = [
      ["scan in French", `/r/${p.link}`, { "Accept-Language": "fr-FR" }, at],
      ["German, narrated", `/r/${p.link}?lang=de`, {}, at],
      ["German by the browser", `/r/${p.link}`, { "Accept-Language": "de-DE,de;q=0.9" }, at],
      ["Arabic, right to left", `/r/${p.link}?lang=ar`, {}, at],
      ["Arabic, easy to read", `/r/${p.link}?lang=ar&easy=1`, {}, at],
      ["German, the original", `/r/${p.link}?lang=de&original=1`, {}, at],
      ["easy to read asked", `/r/${p.link}?easy=1`, { "Accept-Language": "fr" }, at],
      ["easy to read remembered", `/r/${p.link}`, { Cookie: "muselingo_easy=1; muselingo_lang=fr" }, at],
      ["easy to read left", `/r/${p.link}?easy=0`, { Cookie: "muselingo_easy=1" }, at],
      ["display choices, staff preview", `/r/${p.link}?lang=en&ignoreStats=true`, { Cookie: "muselingo_display=t2.c.s" }, at],
      ["English", `/r/${p.link}?lang=en`, {}, at],
      ["by address", `/v/${s.user.museumSlug}/${p.slug}?lang=de`, {}, (context) => atAddress(context, params)],
      ["draft preview", `/v/${s.user.museumSlug}/${p.slug}?preview=draft`, {}, (context) => atAddress(context, params, s.user.museumId)],
      ["tour stop", `/t/${tour.link}/1?lang=de`, {}, (context) => locateStop(context, tour.link, "1")],
      ["tour stop in French", `/t/${tour.link}/2`, { "Accept-Language": "fr" }, (context) => locateStop(context, tour.link, "2")],
      ["not available yet", `/r/${hidden.body.link}?lang=de`, {}, byLink(hidden.body.link as string)],
      ["leads nowhere yet", `/r/${empty.body.link}`, { "Accept-Language": "fr" }, byLink(empty.body.link as string)],
      ["404", `/r/zzzzzzzz?lang=ar`, {}, byLink("zzzzzzzz")],
      ["HEAD", `/r/${p.link}`, {}, at, "HEAD"],
      ["POST", `/r/${p.link}`, {}, at, "POST"],
    ];
    // A language neither has seen: the new steps first (the engine, the cache written), then the old function.
    const spanishNew = await call(visitorPage, `/r/${p.link}?lang=es`, {}, at);
    const spanishOld = await call(legacyVisitorPage, `/r/${p.link}?lang=es`, {}, at);
    expect(spanishNew.html).toBe(spanishOld.html);
    expect(spanishNew.status).toBe(spanishOld.status);
    expect(spanishNew.events).toEqual(spanishOld.events);
    const seen = new Map<string, Awaited<ReturnType<typeof call>>>();
    for (const [name, url, headers, locate, method] of cases) {
      // Warmed by the old function (snapshot, translation cache), then each once, the new one first.
      await call(legacyVisitorPage, url, headers, locate, method);
      const after = await call(visitorPage, url, headers, locate, method);
      const before = await call(legacyVisitorPage, url, headers, locate, method);
      expect({ name, ...after }).toEqual({ name, ...before });
      seen.set(name, after);
    }
    // The cases are what they say (the comparison above is not between two empty pages).
    expect(seen.get("German, narrated")!.html).toContain('<source src="/narration/');
    expect(seen.get("Arabic, right to left")!.html).toMatch(/^<!DOCTYPE html><html lang="ar" dir="rtl"/);
    expect(seen.get("easy to read asked")!.html).toContain("▸");
    expect(seen.get("Arabic, easy to read")!.html).toContain("▸");
    expect(seen.get("tour stop")!.html).toContain(`/t/${tour.link}/2`);
    expect(seen.get("draft preview")!.headers).toContain("x-robots-tag: noindex, nofollow");
    expect(seen.get("display choices, staff preview")!.html).toContain('class="v-text-2 v-contrast v-spacing"');
    expect([seen.get("not available yet")!.status, seen.get("leads nowhere yet")!.status, seen.get("404")!.status]).toEqual([404, 200, 404]);
    expect([seen.get("HEAD")!.status, seen.get("POST")!.status]).toEqual([200, 405]);
    expect(seen.get("scan in French")!.events).toEqual([expect.objectContaining({ type: "scan", lang: "fr" })]);
    expect(seen.get("easy to read remembered")!.events).toEqual([expect.objectContaining({ type: "scan", easyRead: true })]);
  });
});
