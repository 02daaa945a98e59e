import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOGIN_MAX_FAILURES } from "~/models/rate-limit.server";
import { createMuseumWithUser, get, logIn, postJson, staffSession as staff } from "./helpers";

// The local workerd interleaves the awaits of parallel requests, so a check-then-write race shows up
// here as it would in production: these are the reproductions, kept as tests.

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe("parallel creations", () => {
  it("50 parallel add_article give 50 articles with distinct names and slugs", async () => {
    const s = await staff();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("add_article", { pathArray: [] })));
    expect(statuses(results)).toEqual(Array(50).fill(200));
    const names = new Set(results.map((r) => r.body.unformatted_name));
    const slugs = new Set(results.map((r) => r.body.name));
    expect(names.size).toBe(50);
    expect(slugs.size).toBe(50);
    expect([...names].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `Nouvel article ${i + 1}`).sort());
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM articles WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>())!;
    expect(n).toBe(50);
  });

  it("20 parallel add_folder of one name give one 200 and 409s naming the field", async () => {
    const s = await staff();
    const results = await Promise.all(Array.from({ length: 20 }, () => s.call("add_folder", { pathArray: [], id: "Salle" })));
    expect(statuses(results)).toEqual([200, ...Array(19).fill(409)]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ error: { code: "conflict", field: "id", reason: "name_taken" } });
    }
  });

  it("parallel renames of two folders to one name: one wins, the other gets 409", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "A" });
    await s.call("add_folder", { pathArray: [], id: "B" });
    const results = await Promise.all([
      s.call("rename_folder", { pathArray: [], itemName: "A", newName: "C" }),
      s.call("rename_folder", { pathArray: [], itemName: "B", newName: "C" }),
    ]);
    expect(statuses(results)).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toMatchObject({ error: { code: "conflict", field: "newName" } });
  });

  it("parallel restores of same-named folders each find a free name", async () => {
    const s = await staff();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      await s.call("add_folder", { pathArray: [], id: "Réserve" });
      await s.call("delete_item", { type: "folder", id: "Réserve", pathArray: [] });
      const row = await env.DB.prepare("SELECT id FROM folders WHERE museum_id = ? ORDER BY id DESC LIMIT 1").bind(s.user.museumId).first<{ id: number }>();
      ids.push(row!.id);
    }
    await s.call("add_folder", { pathArray: [], id: "Réserve" });
    const results = await Promise.all(ids.map((id) => s.call("restore_item", { type: "folder", id })));
    expect(statuses(results)).toEqual(Array(5).fill(200));
    expect(new Set(results.map((r) => r.body.name)).size).toBe(5);
    for (const r of results) expect(r.body.name).not.toBe("Réserve");
  });

  it("the same restore sent twice at once succeeds once", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    await s.call("delete_item", { type: "article", id: article.body.id });
    const results = await Promise.all([1, 2].map(() => s.call("restore_item", { type: "article", id: article.body.id })));
    expect(statuses(results)).toEqual([200, 404]);
  });

  it("the same delete sent twice at once succeeds once", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Doublon" });
    const results = await Promise.all([1, 2].map(() => s.call("delete_item", { type: "folder", id: "Doublon", pathArray: [] })));
    expect(statuses(results)).toEqual([200, 404]);
  });
});

describe("crossed folder moves", () => {
  it("P into Q and Q into P at once never make a loop, and the tree keeps answering", async () => {
    const s = await staff();
    for (let round = 0; round < 10; round++) {
      const [p, q] = [`P${round}`, `Q${round}`];
      await s.call("add_folder", { pathArray: [], id: p });
      await s.call("add_folder", { pathArray: [], id: q });
      const results = await Promise.all([
        s.call("move_item", { fromPathArray: [], itemId: p, type: "folder", toPathArray: [], toFolderId: q }),
        s.call("move_item", { fromPathArray: [], itemId: q, type: "folder", toPathArray: [], toFolderId: p }),
      ]);
      // One wins. The other is refused: its destination now lies inside the folder it moves (400), or is
      // no longer at the path it named (404), depending on which of the two reads saw the first write.
      const [won, lost] = [...results].sort((a, b) => a.status - b.status);
      expect(won!.status).toBe(200);
      expect([400, 404]).toContain(lost!.status);
      expect(lost!.body).toMatchObject({ error: { field: "toFolderId" } });
      const rows = await env.DB.prepare("SELECT id, parent_id FROM folders WHERE museum_id = ? AND name IN (?, ?)")
        .bind(s.user.museumId, p, q)
        .all<{ id: number; parent_id: number | null }>();
      expect(rows.results.filter((r) => r.parent_id === null)).toHaveLength(1);
    }
    const tree = await get("/api/read/articles", s.cookie);
    expect(tree.status).toBe(200);
  });

  it("a three-folder rotation sent at once leaves no loop", async () => {
    const s = await staff();
    for (const name of ["A", "B", "C"]) await s.call("add_folder", { pathArray: [], id: name });
    const move = (from: string, to: string) => s.call("move_item", { fromPathArray: [], itemId: from, type: "folder", toPathArray: [], toFolderId: to });
    const results = await Promise.all([move("A", "B"), move("B", "C"), move("C", "A")]);
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(2);
    expect((await get("/api/tree", s.cookie)).status).toBe(200);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM folders WHERE museum_id = ? AND parent_id IS NULL")
      .bind(s.user.museumId)
      .first<{ n: number }>())!;
    expect(n).toBeGreaterThanOrEqual(1);
  });
});

describe("stored folder loops", () => {
  /** P and Q each other's parent, as crossed moves left them before moves were atomic; a new root "P" took P's name. */
  async function makeLoop(museumId: number) {
    const insert = (name: string) =>
      env.DB.prepare("INSERT INTO folders (museum_id, parent_id, name) VALUES (?, NULL, ?) RETURNING id").bind(museumId, name).first<{ id: number }>();
    const p = (await insert("P"))!.id;
    const q = (await insert("Q"))!.id;
    await env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(q, p).run();
    await insert("P");
    await env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(p, q).run();
    return { p, q };
  }

  it("cannot hang any read: the loop is broken on the spot and its folders come back at the root", async () => {
    const s = await staff();
    const { p, q } = await makeLoop(s.user.museumId);
    for (const path of ["/api/read/articles", "/api/tree", "/api/read/trash", "/articles", "/trash"]) {
      expect((await get(path, s.cookie)).status, path).toBe(200);
    }
    const rows = await env.DB.prepare("SELECT id, name, parent_id FROM folders WHERE museum_id = ? ORDER BY id")
      .bind(s.user.museumId)
      .all<{ id: number; name: string; parent_id: number | null }>();
    expect(rows.results.every((r) => r.parent_id === null)).toBe(true);
    expect(rows.results.find((r) => r.id === p)!.name).toBe(`P (${p})`);
    expect(rows.results.find((r) => r.id === q)!.name).toBe("Q");
  });

  it("are broken by the migration too", async () => {
    const museum = await createMuseumWithUser();
    const { p, q } = await makeLoop(museum.museumId);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes("break_folder_cycles"));
    expect(migration).toBeDefined();
    for (const query of migration!.queries) await env.DB.prepare(query).run();
    const rows = await env.DB.prepare("SELECT id, name, parent_id FROM folders WHERE id IN (?, ?) ORDER BY id")
      .bind(p, q)
      .all<{ name: string; parent_id: number | null }>();
    expect(rows.results).toEqual([
      { id: p, name: `P (${p})`, parent_id: null },
      { id: q, name: "Q", parent_id: null },
    ]);
  });
});

describe("login limiter under parallel guesses", () => {
  it(`checks at most ${LOGIN_MAX_FAILURES} of 50 parallel wrong passwords`, async () => {
    const user = await createMuseumWithUser();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postJson("/login", { email: user.email, password: `wrong-${i}` }, { "CF-Connecting-IP": `198.18.0.${i}` })),
    );
    const counts = { 401: 0, 429: 0 } as Record<number, number>;
    for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
    expect(counts[401]).toBe(LOGIN_MAX_FAILURES);
    expect(counts[429]).toBe(50 - LOGIN_MAX_FAILURES);
  });

  it("counts the current password of the change-password form against the same limiter", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const attempt = (currentPassword: string) =>
      fetchSettings(cookie, { intent: "password", currentPassword, newPassword: "a brand new secret", confirmPassword: "a brand new secret" });
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await attempt(`guess-${i}`)).status).toBe(400);
    const blocked = await attempt(user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    // The password did not change.
    expect((await postJson("/login", { email: user.email, password: "a brand new secret" }, { "CF-Connecting-IP": "198.18.1.1" })).status).not.toBe(200);
  });
});

function fetchSettings(cookie: string, fields: Record<string, string>) {
  return SELF.fetch("http://localhost/settings", {
    method: "POST",
    // An address of its own: the file's tests share one D1 (storage is isolated per file), and the limiter also
    // counts by address, so these deliberate failures must not lock the other tests' logins out.
    headers: { Cookie: cookie, Host: "localhost", Origin: "http://localhost", "CF-Connecting-IP": "198.18.2.1" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

describe("restored names", () => {
  it("stay within 100 characters when a suffix is needed, so the folder can still be moved and renamed", async () => {
    const s = await staff();
    const long = "W".repeat(100);
    await s.call("add_folder", { pathArray: [], id: long });
    await s.call("delete_item", { type: "folder", id: long, pathArray: [] });
    await s.call("add_folder", { pathArray: [], id: long });
    await s.call("add_folder", { pathArray: [], id: "Dest" });
    const trash = (await s.read("/api/read/trash")).body as { id: number }[];
    const restored = await s.call("restore_item", { type: "folder", id: trash[0]!.id });
    expect(restored.status).toBe(200);
    const name = restored.body.name as string;
    expect(name).toBe(`${"W".repeat(96)} (2)`);
    const moved = await s.call("move_item", { fromPathArray: [], itemId: name, type: "folder", toPathArray: [], toFolderId: "Dest" });
    expect(moved.status).toBe(200);
  });
});
