import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, publishArticle, staffSession, texts } from "./helpers";

// Audit of issue 21 §3 (audit22): the offline manifest of a tour deleted or emptied since it was saved,
// odd `lang`, the service worker's address and headers, and offline view batches a forged client may send.

const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
let ip = 10;
const views = (body: unknown) =>
  SELF.fetch(`${BASE}/api/visit/offline_views`, {
    method: "POST",
    // A fresh network each call, so the per-network limit of other tests never answers first.
    headers: { "Content-Type": "application/json", "User-Agent": PHONE, "CF-Connecting-IP": `198.51.100.${ip++}` },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("attack: the offline visit", () => {
  it("a tour deleted, emptied or unpublished since it was saved: 404, or a manifest without the gone stops", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Salle une"]));
    const two = await publishArticle(s, texts(["Salle deux"]));
    const tour = (await s.call("add_tour", { name: "Visite" })).body as { id: number; link: string };
    expect((await s.call("update_tour", { id: tour.id, version: 1, articleIds: [one.articleId, two.articleId] })).status).toBe(200);
    const before = (await (await get(`/t/${tour.link}/offline.json?lang=fr`)).json()) as { stops: number; version: string };
    expect(before.stops).toBe(2);
    // The second stop goes to the trash: the manifest shrinks and its version moves (the phone saves again).
    expect((await s.call("delete_item", { type: "article", id: two.articleId, pathArray: [] })).status).toBe(200);
    const shrunk = (await (await get(`/t/${tour.link}/offline.json?lang=fr`)).json()) as { stops: number; version: string; entries: { url: string }[] };
    expect(shrunk.stops).toBe(1);
    expect(shrunk.version).not.toBe(before.version);
    expect(shrunk.entries.some((e) => e.url.startsWith(`/t/${tour.link}/2`))).toBe(false);
    // The tour deleted: 404 (the phone then removes its copy), and so is its stop page.
    expect((await s.call("delete_tour", { id: tour.id })).status).toBe(200);
    const gone = await get(`/t/${tour.link}/offline.json?lang=fr`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("Content-Type")).toContain("application/json");
    expect((await get(`/t/${tour.link}/1`)).status).toBe(404);
  });

  it("odd ?lang= on the manifest is the visitor's usual language, never a 500 nor echoed raw", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Salle"]));
    const tour = (await s.call("add_tour", { name: "Visite" })).body as { id: number; link: string };
    await s.call("update_tour", { id: tour.id, version: 1, articleIds: [one.articleId] });
    for (const lang of ["", "zz", "x".repeat(3000), "%ED%A0%80", "%00", "<script>", "fr&lang=en", "AR"]) {
      const r = await get(`/t/${tour.link}/offline.json?lang=${lang}`);
      expect([lang.slice(0, 20), r.status]).toEqual([lang.slice(0, 20), 200]);
      const body = (await r.json()) as { lang: string };
      expect(["fr", "en", "ar"]).toContain(body.lang);
    }
  });

  it("the service worker: one address at the root, JavaScript, revalidated, read-only", async () => {
    const sw = await get("/sw.js");
    expect(sw.status).toBe(200);
    expect(sw.headers.get("Service-Worker-Allowed")).toBeNull(); // its scope is its own folder, the root: no widening header
    for (const method of ["POST", "PUT", "DELETE"]) expect((await SELF.fetch(`${BASE}/sw.js`, { method })).status).toBe(405);
    expect((await SELF.fetch(`${BASE}/sw.js`, { method: "HEAD" })).status).toBe(200);
    // The worker is served from the root only: a nested copy would register with a narrower, surprising scope.
    for (const path of ["/t/sw.js", "/media/sw.js", "/v/sw.js"]) {
      const r = await get(path);
      expect([path, r.status, (r.headers.get("Content-Type") ?? "").includes("javascript")]).toEqual([path, 404, false]);
    }
  });

  it("a forged batch: a language outside the catalogue is refused naming the view; wrong shapes 400; never 500", async () => {
    const s = await staffSession();
    const one = await publishArticle(s, texts(["Salle"]));
    const tour = (await s.call("add_tour", { name: "Visite" })).body as { id: number; link: string };
    await s.call("update_tour", { id: tour.id, version: 1, articleIds: [one.articleId] });
    const view = { path: `/t/${tour.link}/1`, lang: "fr", at: Date.now() - 60_000 };
    const client = "forged-client-0123456789";
    expect((await views({ client, views: [view] })).status).toBe(202);
    for (const lang of ["zz", "lorem", "qaa", "xx-XX", "i-klingon"]) {
      const r = await views({ client, views: [view, { ...view, lang }] });
      expect([lang, r.status]).toEqual([lang, 400]);
      expect(((await r.json()) as { error: { field: string } }).error.field).toBe("views.1.lang");
    }
    // Case and region variants of catalogue languages are languages.
    for (const lang of ["EN", "pt-br", "zh-Hant", "ar"]) expect([lang, (await views({ client, views: [{ ...view, lang }] })).status]).toEqual([lang, 202]);
    for (const body of [
      { client, views: { 0: view } },
      { client: [client], views: [view] },
      { client, views: [[view.path, view.lang, view.at]] },
    ]) {
      expect((await views(body)).status).toBe(400);
    }
    expect((await views(`{"client": "${client}", "views": [{"path": "/t/x/1", "lang": "fr", "at": 1e400}]}`)).status).toBe(400);
    // A deleted tour's views are accepted and not counted (the phone must not retry them forever).
    await s.call("delete_tour", { id: tour.id });
    const late = await views({ client, views: [view] });
    expect(late.status).toBe(202);
    expect(await late.json()).toEqual({ counted: 0, ignored: 1 });
  });
});
