import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { auditEntries, get, postJson, publishArticle, staffSession, texts, type StaffSession } from "./helpers";

// Tours, staff side (issue 21 part 1; decisions 076, 081–083): the API's rules, tenancy, races.

type Json = Record<string, unknown>;
interface Stop {
  position: number;
  articleId: number;
  name: string;
  published: boolean;
  trashed: boolean;
  stopNumber: number | null;
}
interface Tour {
  id: number;
  link: string;
  name: string;
  version: number;
  stops: Stop[];
  description: string;
  cover: string | null;
  minutes: number | null;
}

const newArticle = async (s: StaffSession, pathArray: string[] = []) => {
  const r = await s.call("add_article", { pathArray });
  expect(r.status).toBe(200);
  return r.body.id as number;
};
const rename = async (s: StaffSession, articleId: number, newName: string) => expect((await s.call("rename_article", { articleId, newName })).status).toBe(200);
const readTour = async (s: StaffSession, id: number) => {
  const r = await s.read(`/api/read/tour?id=${id}`);
  expect(r.status).toBe(200);
  return r.body as Tour;
};
const auditCount = async (museumId: number, action: string) => (await auditEntries(museumId, { action })).length;

describe("tours API", () => {
  let s: StaffSession;
  let other: StaffSession;
  let a: number, b: number, c: number;

  beforeAll(async () => {
    s = await staffSession();
    other = await staffSession();
    a = await newArticle(s);
    b = await newArticle(s);
    c = await newArticle(s);
  });

  it("creates a tour with a fresh link, lists it and reads it; the audit records it", async () => {
    const created = await s.call("add_tour", { name: "  Cafe\u0301 des Arts  " });
    expect(created.status).toBe(200);
    const tour = created.body as unknown as Tour;
    expect(tour.name).toBe("Café des Arts"); // NFC, trimmed
    expect(tour.link).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/);
    expect(tour.version).toBe(1);
    expect(tour.stops).toEqual([]);
    const list = (await s.read("/api/read/tours")).body as Json[];
    expect(list.find((t) => t.id === tour.id)).toMatchObject({ link: tour.link, stops: 0, version: 1 });
    const read = (await s.read(`/api/read/tour?id=${tour.id}`)).body as Json;
    expect(read.url).toBe(`http://localhost/t/${tour.link}`);
    expect(await auditCount(s.user.museumId, "tour.add")).toBeGreaterThanOrEqual(1);
    const entry = (await auditEntries(s.user, { action: "tour.add" })).at(-1);
    expect(entry!.target).toBe(`tour:${tour.id}`);
  });

  it("refuses bad input with 400 naming the field, never 500", async () => {
    const cases: [string, unknown, string][] = [
      ["add_tour", {}, "name"],
      ["add_tour", { name: "" }, "name"],
      ["add_tour", { name: "x".repeat(121) }, "name"],
      ["add_tour", { name: "a\u202Eb" }, "name"],
      ["add_tour", { name: "\ud800" }, "name"],
      ["add_tour", { name: 12 }, "name"],
      ["add_tour", { name: "ok", extra: 1 }, ""],
      ["update_tour", { id: "abc", version: 1 }, "id"],
      ["update_tour", { id: 1 }, "version"],
      ["update_tour", { id: 1, version: 1, minutes: 0 }, "minutes"],
      ["update_tour", { id: 1, version: 1, minutes: 601 }, "minutes"],
      ["update_tour", { id: 1, version: 1, minutes: 1.5 }, "minutes"],
      ["update_tour", { id: 1, version: 1, description: "d".repeat(1001) }, "description"],
      ["update_tour", { id: 1, version: 1, description: "bell\u0007" }, "description"],
      ["update_tour", { id: 1, version: 1, cover: "https://evil.example/a.png" }, "cover"],
      ["update_tour", { id: 1, version: 1, cover: "javascript:alert(1)" }, "cover"],
      ["update_tour", { id: 1, version: 1, cover: "/media/../secret" }, "cover"],
      ["update_tour", { id: 1, version: 1, articleIds: "1,2" }, "articleIds"],
      ["update_tour", { id: 1, version: 1, articleIds: new Array(201).fill(a) }, "articleIds"],
      ["update_tour", { id: 1, version: 1, articleIds: [0] }, "articleIds.0"],
      ["update_stop_number", { articleId: a }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: 0 }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: 10000 }, "stopNumber"],
      ["update_stop_number", { articleId: a, stopNumber: "12" }, "stopNumber"],
      ["delete_tour", { id: -1 }, "id"],
    ];
    for (const [call, body, field] of cases) {
      const r = await s.call(call, body);
      expect(r.status, `${call} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      const error = r.body.error as Json;
      expect(error.code).toBe("invalid_input");
      if (field) expect(error.field, `${call} ${JSON.stringify(body).slice(0, 80)}`).toBe(field);
    }
    for (const raw of ["{", "[]", "null", '"x"', '{"name": "\u0000"}']) {
      const r = await postJson("/api/manage/add_tour", raw, { Cookie: s.cookie });
      expect(r.status).toBe(400);
    }
    const huge = await postJson("/api/manage/update_stop_number", `{"articleId": ${a}, "stopNumber": 1e400}`, { Cookie: s.cookie });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: Json }).error.field).toBe("stopNumber");
    const badQuery = await s.read("/api/read/tour?id=1e3");
    expect(badQuery.status).toBe(400);
  });

  it("saves fields and stops (duplicates allowed), checks the version, and names the stale one", async () => {
    const tour = (await s.call("add_tour", { name: "Chefs-d'œuvre" })).body as unknown as Tour;
    const saved = await s.call("update_tour", { id: tour.id, version: 1, description: "Ligne 1\r\nLigne 2 🏛️", minutes: 45, articleIds: [a, b, a] });
    expect(saved.status).toBe(200);
    const t = saved.body as unknown as Tour;
    expect(t.version).toBe(2);
    expect(t.description).toBe("Ligne 1\nLigne 2 🏛️");
    expect(t.minutes).toBe(45);
    expect(t.stops.map((x) => [x.position, x.articleId])).toEqual([
      [1, a],
      [2, b],
      [3, a],
    ]);
    // Fields not given stay as they were.
    const renamed = (await s.call("update_tour", { id: tour.id, version: 2, name: "Chefs-d'œuvre (2)" })).body as unknown as Tour;
    expect(renamed.stops).toHaveLength(3);
    expect(renamed.minutes).toBe(45);
    const stale = await s.call("update_tour", { id: tour.id, version: 2, minutes: null });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: "conflict",
      field: "version",
      reason: "stale_version",
      current: { version: 3, savedBy: { email: s.user.email } },
    });
    expect((await readTour(s, tour.id)).minutes).toBe(45);
    const cleared = await s.call("update_tour", { id: tour.id, version: 3, minutes: null, cover: null, description: "", articleIds: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ minutes: null, cover: null, description: "", stops: [] });
    expect(await auditCount(s.user.museumId, "tour.update")).toBeGreaterThanOrEqual(3);
  });

  it("takes a cover only from the museum's own images", async () => {
    const tour = (await s.call("add_tour", { name: "Couverture" })).body as unknown as Tour;
    const key = `museum-${s.user.museumId}/tour-cover-${Date.now()}.webp`;
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/webp', 10)")
      .bind(s.user.museumId, key)
      .run();
    const foreignKey = `museum-${other.user.museumId}/other-${Date.now()}.webp`;
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/webp', 10)")
      .bind(other.user.museumId, foreignKey)
      .run();
    const foreign = await s.call("update_tour", { id: tour.id, version: 1, cover: `/media/${foreignKey}` });
    expect(foreign.status).toBe(404);
    expect((foreign.body.error as Json).field).toBe("cover");
    const own = await s.call("update_tour", { id: tour.id, version: 1, cover: `/media/${key}` });
    expect(own.status).toBe(200);
    expect(own.body.cover).toBe(`/media/${key}`);
  });

  it("refuses articles that are not live articles of the museum, naming the position", async () => {
    const tour = (await s.call("add_tour", { name: "Refus" })).body as unknown as Tour;
    const foreignArticle = await newArticle(other);
    const r = await s.call("update_tour", { id: tour.id, version: 1, articleIds: [a, foreignArticle] });
    expect(r.status).toBe(404);
    expect((r.body.error as Json).field).toBe("articleIds.1");
    const gone = await newArticle(s);
    expect((await s.call("delete_item", { type: "article", id: gone })).status).toBe(200);
    const trashed = await s.call("update_tour", { id: tour.id, version: 1, articleIds: [gone] });
    expect(trashed.status).toBe(404);
    expect((await readTour(s, tour.id)).version).toBe(1);
  });

  it("another museum's tours and articles are 404, and its lists never show them", async () => {
    const mine = (await s.call("add_tour", { name: "Privé" })).body as unknown as Tour;
    expect((await other.read(`/api/read/tour?id=${mine.id}`)).status).toBe(404);
    expect((await other.read(`/api/read/tour_qrcode?id=${mine.id}&format=svg`)).status).toBe(404);
    expect((await other.call("update_tour", { id: mine.id, version: 1, name: "Volé" })).status).toBe(404);
    expect((await other.call("delete_tour", { id: mine.id })).status).toBe(404);
    expect((await other.call("update_stop_number", { articleId: a, stopNumber: 77 })).status).toBe(404);
    expect(((await other.read("/api/read/tours")).body as Json[]).some((t) => t.id === mine.id)).toBe(false);
    expect((await readTour(s, mine.id)).name).toBe("Privé");
    expect((await get(`/api/read/tours`)).status).toBe(401);
  });

  it("two conflicting reorders from the same version: exactly one wins, the other gets 409, the stops are one of the two", async () => {
    const tour = (await s.call("add_tour", { name: "Course" })).body as unknown as Tour;
    expect((await s.call("update_tour", { id: tour.id, version: 1, articleIds: [a, b, c] })).status).toBe(200);
    const orders = [
      [c, b, a],
      [b, a, c],
    ];
    const results = await Promise.all(orders.map((articleIds) => s.call("update_tour", { id: tour.id, version: 2, articleIds })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = orders[results.findIndex((r) => r.status === 200)]!;
    const now = await readTour(s, tour.id);
    expect(now.version).toBe(3);
    expect(now.stops.map((x) => x.articleId)).toEqual(winner);
    expect(now.stops.map((x) => x.position)).toEqual([1, 2, 3]);
  });

  it("50 parallel claims of one stop number on different articles: exactly one 200, the rest 409 naming the winner", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) ids.push(await newArticle(s));
    const results = await Promise.all(ids.map((articleId) => s.call("update_stop_number", { articleId, stopNumber: 4242 })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    const winner = ok[0]!.body.articleId as number;
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.error).toMatchObject({ code: "conflict", field: "stopNumber", reason: "name_taken", article: { id: winner } });
    }
    const held = await env.DB.prepare("SELECT count(*) AS n FROM articles WHERE museum_id = ? AND stop_number = 4242")
      .bind(s.user.museumId)
      .first<{ n: number }>();
    expect(held!.n).toBe(1);
    expect(await auditCount(s.user.museumId, "article.stop_number")).toBe(1);
    // The same number in another museum is free.
    expect((await other.call("update_stop_number", { articleId: await newArticle(other), stopNumber: 4242 })).status).toBe(200);
    // Setting it again to the same article changes nothing (no new audit entry); null frees it.
    expect((await s.call("update_stop_number", { articleId: winner, stopNumber: 4242 })).status).toBe(200);
    expect(await auditCount(s.user.museumId, "article.stop_number")).toBe(1);
    expect((await s.call("update_stop_number", { articleId: winner, stopNumber: null })).body).toEqual({ articleId: winner, stopNumber: null });
    expect((await s.call("update_stop_number", { articleId: ids[1], stopNumber: 4242 })).status).toBe(200);
  });

  it("a trashed article frees its number and leaves its tours for visitors; the stop stays marked trashed for staff; restoring does not take the number back", async () => {
    const x = await newArticle(s);
    await rename(s, x, "Vase trashed");
    expect((await s.call("update_stop_number", { articleId: x, stopNumber: 31 })).status).toBe(200);
    const tour = (await s.call("add_tour", { name: "Poubelle" })).body as unknown as Tour;
    expect((await s.call("update_tour", { id: tour.id, version: 1, articleIds: [a, x] })).status).toBe(200);
    expect((await s.call("delete_item", { type: "article", id: x })).status).toBe(200);
    const after = await readTour(s, tour.id);
    expect(after.stops.find((st) => st.articleId === x)).toMatchObject({ trashed: true, stopNumber: null });
    const row = await env.DB.prepare("SELECT stop_number FROM articles WHERE id = ?").bind(x).first<{ stop_number: number | null }>();
    expect(row!.stop_number).toBeNull();
    const [trashEntry] = await auditEntries(s.user, { action: "item.delete", target: `article:${x}` });
    expect(trashEntry!.detail).toMatchObject({ stopNumber: 31 });
    // Another article may take 31 now; reordering the tour may keep the trashed stop.
    expect((await s.call("update_stop_number", { articleId: b, stopNumber: 31 })).status).toBe(200);
    expect((await s.call("update_tour", { id: tour.id, version: 2, articleIds: [x, a] })).status).toBe(200);
    expect((await s.call("restore_item", { type: "article", id: x })).status).toBe(200);
    const restored = await readTour(s, tour.id);
    expect(restored.stops.map((st) => [st.articleId, st.trashed, st.stopNumber])).toEqual([
      [x, false, null],
      [a, false, null],
    ]);
  });

  it("trashing a folder frees the numbers of the articles inside it", async () => {
    expect((await s.call("add_folder", { pathArray: [], id: "Réserve" })).status).toBe(200);
    expect((await s.call("add_folder", { pathArray: ["Réserve"], id: "Caisse" })).status).toBe(200);
    const inner = await newArticle(s, ["Réserve", "Caisse"]);
    expect((await s.call("update_stop_number", { articleId: inner, stopNumber: 88 })).status).toBe(200);
    expect((await s.call("delete_item", { type: "folder", id: "Réserve", pathArray: [] })).status).toBe(200);
    const row = await env.DB.prepare("SELECT stop_number FROM articles WHERE id = ?").bind(inner).first<{ stop_number: number | null }>();
    expect(row!.stop_number).toBeNull();
  });

  it("turns a folder into a tour: its live articles in tree order, sub-folders first; published flags shown", async () => {
    expect((await s.call("add_folder", { pathArray: [], id: "Salle 3" })).status).toBe(200);
    expect((await s.call("add_folder", { pathArray: ["Salle 3"], id: "Vitrine" })).status).toBe(200);
    const z = await newArticle(s, ["Salle 3"]);
    await rename(s, z, "Zeus");
    const al = await newArticle(s, ["Salle 3"]);
    await rename(s, al, "Athéna");
    const v = await newArticle(s, ["Salle 3", "Vitrine"]);
    await rename(s, v, "Vase");
    const binned = await newArticle(s, ["Salle 3"]);
    expect((await s.call("delete_item", { type: "article", id: binned })).status).toBe(200);
    const published = await publishArticle(s, texts(["Une stèle."]));
    await rename(s, published.articleId, "Stèle");
    expect(
      (await s.call("move_item", { type: "article", itemId: published.articleId, fromPathArray: [], toPathArray: ["Salle 3"], toFolderId: "Vitrine" })).status,
    ).toBe(200);
    const r = await s.call("add_tour", { name: "Salle 3", folderId: "Salle 3", pathArray: [] });
    expect(r.status).toBe(200);
    const tour = r.body as unknown as Tour;
    // Tree order: the sub-folder "Vitrine" first (Stèle, Vase by name), then Athéna, Zeus; the trashed one left out.
    expect(tour.stops.map((x) => x.articleId)).toEqual([published.articleId, v, al, z]);
    expect(tour.stops.find((x) => x.articleId === published.articleId)!.published).toBe(true);
    expect(tour.stops.find((x) => x.articleId === z)!.published).toBe(false);
    expect((await s.call("add_tour", { name: "Nulle part", folderId: "Absent", pathArray: [] })).status).toBe(404);
    expect((await s.call("add_tour", { name: "Ailleurs", folderId: "Salle 3", pathArray: ["Absent"] })).status).toBe(404);
  });

  it("deletes a tour and its stops; the articles stay; a second delete is 404", async () => {
    const tour = (await s.call("add_tour", { name: "Éphémère" })).body as unknown as Tour;
    expect((await s.call("update_tour", { id: tour.id, version: 1, articleIds: [a, b] })).status).toBe(200);
    expect((await s.call("delete_tour", { id: tour.id })).status).toBe(200);
    expect((await s.read(`/api/read/tour?id=${tour.id}`)).status).toBe(404);
    expect((await s.call("delete_tour", { id: tour.id })).status).toBe(404);
    const stops = await env.DB.prepare("SELECT count(*) AS n FROM tour_stops WHERE tour_id = ?").bind(tour.id).first<{ n: number }>();
    expect(stops!.n).toBe(0);
    expect((await s.read(`/api/read/article?articleId=${a}`)).status).toBe(200);
    expect(await auditCount(s.user.museumId, "tour.delete")).toBe(1);
  });

  it("the tour's QR code is an image of its /t/ address", async () => {
    const tour = (await s.call("add_tour", { name: "Image" })).body as unknown as Tour;
    const svg = await get(`/api/read/tour_qrcode?id=${tour.id}&format=svg`, s.cookie);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("Content-Type")).toContain("image/svg+xml");
    expect(svg.headers.get("Content-Disposition")).toContain(`tour-${tour.link}.svg`);
    expect(await svg.text()).toContain("<svg");
    const png = await get(`/api/read/tour_qrcode?id=${tour.id}`, s.cookie);
    expect(png.headers.get("Content-Type")).toBe("image/png");
  });

  it("a tour write marks the museum changed for visitor snapshots (decision 081)", async () => {
    const tour = (await s.call("add_tour", { name: "Cache" })).body as unknown as Tour;
    // The museum's stamp set a minute back (as if its last change were then): the write must move it to its own time.
    const key = `visitor:v1:changed:${s.user.museumId}`;
    const before = Date.now();
    await env.KV.put(key, String(before - 60_000));
    expect((await s.call("update_tour", { id: tour.id, version: 1, name: "Cache 2" })).status).toBe(200);
    const after = Number(await env.KV.get(key));
    expect(after).toBeGreaterThanOrEqual(before);
  });
});
