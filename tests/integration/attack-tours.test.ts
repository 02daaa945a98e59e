import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { tourStats } from "~/tours/stats.server";
import { visibleStops } from "~/tours/stops.server";
import { auditEntries, createTour, get, postJson, publishArticle, staffSession, texts, type StaffSession } from "./helpers";

// Audit of issue 21's staff side of tours (audit22): tenancy, odd input and races on add/update/delete_tour,
// update_stop_number, the tour reads, the QR code, the statistics and the /tours pages. Whatever a careless
// client sends is a 400 naming the field (never 500); another museum's ids are 404 as everywhere else.

type Json = Record<string, unknown>;

const newArticle = async (s: StaffSession) => {
  const r = await s.call("add_article", { pathArray: [] });
  expect(r.status).toBe(200);
  return r.body.id as number;
};
const newTour = async (s: StaffSession, name = "Parcours") => {
  const r = await s.call("add_tour", { name });
  expect(r.status).toBe(200);
  return r.body as { id: number; link: string; version: number };
};
const auditCount = async (museumId: number, action: string, target: string) => (await auditEntries(museumId, { action, target })).length;

describe("attack: tours, staff side", () => {
  let s: StaffSession;
  let other: StaffSession;
  let a: number;
  let foreignArticle: number;

  beforeAll(async () => {
    s = await staffSession();
    other = await staffSession();
    a = await newArticle(s);
    foreignArticle = await newArticle(other);
  });

  it("another museum's tour, article, folder and image are 404 on every call and page", async () => {
    const theirs = await newTour(other, "Leur parcours");
    const mine = await newTour(s);
    const key = `${other.user.museumId}/cover-${Date.now()}.webp`;
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/webp', 10)")
      .bind(other.user.museumId, key)
      .run();
    await other.call("add_folder", { pathArray: [], folderName: "Salle B" });
    const calls: [string, Json, string][] = [
      ["update_tour", { id: theirs.id, version: 1, name: "Volé" }, "id"],
      ["delete_tour", { id: theirs.id }, "id"],
      ["update_tour", { id: mine.id, version: 1, articleIds: [a, foreignArticle] }, "articleIds.1"],
      ["update_tour", { id: mine.id, version: 1, cover: `/media/${key}` }, "cover"],
      ["update_stop_number", { articleId: foreignArticle, stopNumber: 7 }, "articleId"],
      ["add_tour", { name: "Du dossier", folderId: "Salle B" }, "folderId"],
    ];
    for (const [call, body, field] of calls) {
      const r = await s.call(call, body);
      expect([call, r.status, (r.body.error as Json | undefined)?.field]).toEqual([call, 404, field]);
    }
    for (const path of [`/api/read/tour?id=${theirs.id}`, `/api/read/tour_qrcode?id=${theirs.id}&format=svg`]) {
      expect([path, (await get(path, s.cookie)).status]).toEqual([path, 404]);
    }
    expect((await get(`/tours/${theirs.id}`, s.cookie)).status).toBe(404);
    // Nothing of theirs moved.
    const still = await env.DB.prepare("SELECT name, version, cover FROM tours WHERE id = ?").bind(theirs.id).first();
    expect(still).toEqual({ name: "Leur parcours", version: 1, cover: null });
    const number = await env.DB.prepare("SELECT stop_number FROM articles WHERE id = ?").bind(foreignArticle).first<{ stop_number: number | null }>();
    expect(number!.stop_number).toBeNull();
  });

  it("odd input: wrong shapes, odd numbers and odd Unicode are 400 naming the field, never 500", async () => {
    const tour = await newTour(s);
    const cases: [string, unknown, string][] = [
      ["add_tour", { name: ["Parcours"] }, "name"],
      ["add_tour", { name: { text: "Parcours" } }, "name"],
      ["add_tour", { name: "x".repeat(10_000) }, "name"],
      ["add_tour", { name: "Nul\u0000" }, "name"],
      ["add_tour", { name: "\u200f\u200f" }, "name"],
      ["add_tour", { name: "\u0301\u200e" }, "name"],
      ["add_tour", { name: "ok", folderId: 12 }, "folderId"],
      ["add_tour", { name: "ok", folderId: "Salle", pathArray: "Salle" }, "pathArray"],
      ["update_tour", { id: [tour.id], version: 1 }, "id"],
      ["update_tour", { id: tour.id, version: "1" }, "version"],
      ["update_tour", { id: tour.id, version: 1.5 }, "version"],
      ["update_tour", { id: tour.id, version: -1 }, "version"],
      ["update_tour", { id: "0", version: 1 }, "id"],
      ["update_tour", { id: "1.5", version: 1 }, "id"],
      ["update_tour", { id: 2 ** 60, version: 1 }, "id"],
      ["update_tour", { id: tour.id, version: 1, name: null }, "name"],
      ["update_tour", { id: tour.id, version: 1, description: "\ud83d" }, "description"],
      ["update_tour", { id: tour.id, version: 1, description: "d\u202ed" }, "description"],
      ["update_tour", { id: tour.id, version: 1, description: "é".repeat(600).normalize("NFD") + "x".repeat(401) }, "description"],
      ["update_tour", { id: tour.id, version: 1, minutes: "45" }, "minutes"],
      ["update_tour", { id: tour.id, version: 1, minutes: -5 }, "minutes"],
      ["update_tour", { id: tour.id, version: 1, cover: { src: "/media/x" } }, "cover"],
      ["update_tour", { id: tour.id, version: 1, cover: "/media/" + "a".repeat(3000) }, "cover"],
      ["update_tour", { id: tour.id, version: 1, articleIds: { 0: a } }, "articleIds"],
      ["update_tour", { id: tour.id, version: 1, articleIds: ["1e3"] }, "articleIds.0"],
      ["update_tour", { id: tour.id, version: 1, articleIds: [a, 1.5] }, "articleIds.1"],
      ["update_tour", { id: tour.id, version: 1, articleIds: [a, -1] }, "articleIds.1"],
      ["update_stop_number", { articleId: a, stopNumber: -1 }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: 1.5 }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: 1e9 }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: [12] }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: "١٢" }, "stopNumber"],
      ["update_stop_number", { articleId: "abc", stopNumber: 12 }, "articleId"],
      ["delete_tour", { id: null }, "id"],
      ["delete_tour", { id: "12abc" }, "id"],
    ];
    for (const [call, body, field] of cases) {
      const r = await s.call(call, body);
      const label = `${call} ${JSON.stringify(body).slice(0, 90)}`;
      expect([label, r.status, (r.body.error as Json | undefined)?.field]).toEqual([label, 400, field]);
    }
    for (const raw of ['[{"name":"x"}]', '{"name": "x"', "\u0000", '{"id": 1, "version": 1, "name": "x", "name": 5}']) {
      const r = await postJson("/api/manage/update_tour", raw, { Cookie: s.cookie });
      expect([raw, r.status]).toEqual([raw, 400]);
    }
    for (const query of ["id=", "id=-1", "id=0x10", "id=1e3", "id=9007199254740993", "id=%00", "id=1&id=2x", "id=%F0%9F%98%80"]) {
      const r = await get(`/api/read/tour?${query}`, s.cookie);
      expect([query, r.status]).toEqual([query, 400]);
    }
    for (const query of [`id=${tour.id}&format=gif`, `id=${tour.id}&format=`, `id=${tour.id}&format=PNG`]) {
      expect([query, (await get(`/api/read/tour_qrcode?${query}`, s.cookie)).status]).toEqual([query, 400]);
    }
    for (const query of ["from=2026-02-30", "from=2026-13-01", "from=20260101", "to=2026-01-01&from=2026-02-01", "from=2020-01-01&to=2026-01-01", "from=%00"]) {
      const r = await get(`/api/stats/tours?${query}`, s.cookie);
      expect([query, r.status]).toEqual([query, 400]);
    }
    // The tour page's address takes any text: never a 500, not found for anything but a tour id of the museum.
    for (const id of ["abc", "0", "-1", "1e3", "99999999999999999999", "%ED%A0%80", "%25", encodeURIComponent("١")]) {
      expect([id, (await get(`/tours/${id}`, s.cookie)).status]).toEqual([id, 404]);
    }
  });

  it("odd but valid names keep their letters: RTL text, combining marks, emoji ZWJ", async () => {
    const tour = await newTour(s);
    const name = "جولة المتحف 👩‍🎨 Cafe\u0301";
    const r = await s.call("update_tour", { id: tour.id, version: 1, name, description: "Ligne 1\r\nLigne 2 \u05e9\u05dc\u05d5\u05dd" });
    expect(r.status).toBe(200);
    expect(r.body.name).toBe(name.normalize("NFC"));
    expect(r.body.description).toBe("Ligne 1\nLigne 2 \u05e9\u05dc\u05d5\u05dd");
  });

  it("50 identical saves from one version: one 200, 49 x 409, one audit entry", async () => {
    const tour = await newTour(s);
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("update_tour", { id: tour.id, version: 1, name: "Même nom", articleIds: [a] })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(49).fill(409)]);
    const row = await env.DB.prepare("SELECT version, name FROM tours WHERE id = ?").bind(tour.id).first();
    expect(row).toEqual({ version: 2, name: "Même nom" });
    const stops = await env.DB.prepare("SELECT count(*) AS n FROM tour_stops WHERE tour_id = ?").bind(tour.id).first<{ n: number }>();
    expect(stops!.n).toBe(1);
    expect(await auditCount(s.user.museumId, "tour.update", `tour:${tour.id}`)).toBe(1);
  });

  it("50 identical deletes: one 200, 49 x 404, one audit entry; a save racing a delete never leaves stops behind", async () => {
    const tour = await newTour(s);
    await s.call("update_tour", { id: tour.id, version: 1, articleIds: [a] });
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("delete_tour", { id: tour.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(49).fill(404)]);
    expect(await auditCount(s.user.museumId, "tour.delete", `tour:${tour.id}`)).toBe(1);

    const raced = await newTour(s);
    const [saved, deleted] = await Promise.all([
      s.call("update_tour", { id: raced.id, version: 1, articleIds: [a, a] }),
      s.call("delete_tour", { id: raced.id }),
    ]);
    expect(deleted.status).toBe(200);
    expect([200, 404]).toContain(saved.status);
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM tours WHERE id = ?1) AS tours, (SELECT count(*) FROM tour_stops WHERE tour_id = ?1) AS stops",
    )
      .bind(raced.id)
      .first();
    expect(left).toEqual({ tours: 0, stops: 0 });
  });

  it("50 identical adds make 50 tours with 50 distinct links (no lost or shared link)", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("add_tour", { name: "Rafale" })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.link)).size).toBe(50);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(50);
  });

  it("a busy museum's tour statistics cost the same few D1 queries with 40 tours as with one, and keep each tour's stops", async () => {
    const busy = await staffSession();
    const one = await publishArticle(busy, texts(["Salle une"]));
    const two = await publishArticle(busy, texts(["Salle deux"]));
    const hidden = await newArticle(busy); // never published: not a shown stop
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const order = i % 2 ? [two.articleId, hidden, one.articleId] : [one.articleId];
      const tour = await createTour(busy.user, order, { name: `Parcours ${i}`, link: `b${busy.user.museumId}x${i}`, description: "", minutes: null });
      ids.push(tour.id);
    }
    let queries = 0;
    const counting = new Proxy(env.DB, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key === "prepare") queries++;
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const stats = await tourStats(createDb(counting), busy.user.museumId, { from: "2026-01-01", to: "2026-01-10" });
    expect(stats.tours).toHaveLength(40);
    expect(queries).toBeLessThanOrEqual(6);
    // The same stops as the visitor's rule, tour by tour.
    for (const id of [ids[0]!, ids[1]!]) {
      const expected = (await visibleStops(createDb(env.DB), busy.user.museumId, id)).map((stop) => stop.name);
      expect(stats.tours.find((t) => t.id === id)!.stops.map((stop) => stop.name)).toEqual(expected);
    }
    const nameOf = async (id: number) =>
      (await env.DB.prepare("SELECT unformatted_name AS name FROM articles WHERE id = ?").bind(id).first<{ name: string }>())!.name;
    expect(stats.tours.find((t) => t.id === ids[1])!.stops.map((stop) => stop.name)).toEqual([await nameOf(two.articleId), await nameOf(one.articleId)]);
  });
});
