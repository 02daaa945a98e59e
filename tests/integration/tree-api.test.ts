import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { activeArticleForLink } from "~/models/qrcodes.server";
import { purgeExpiredTrash, TRASH_RETENTION_DAYS } from "~/models/trash.server";
import { BASE, createMuseumWithUser, createQrCode, get, logIn, postJson, staffSession as staff } from "./helpers";
import { runCron } from "./cron";

type Json = Record<string, unknown>;

describe("GET /api/tree", () => {
  it("answers 401 without a session", async () => {
    const response = await get("/api/tree");
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
  });

  it("nests folders then articles, each sorted by name", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Salle 10" });
    await s.call("add_folder", { pathArray: [], id: "Salle 2" });
    await s.call("add_folder", { pathArray: ["Salle 2"], id: "Vitrine A" });
    const article = await s.call("add_article", { pathArray: ["Salle 2", "Vitrine A"] });
    await s.call("add_article", { pathArray: [] });
    expect(await s.tree()).toEqual([
      {
        type: "folder",
        id: "Salle 2",
        name: "Salle 2",
        children: [{ type: "folder", id: "Vitrine A", name: "Vitrine A", children: [{ type: "article", id: article.body.id, name: "Nouvel article 1" }] }],
      },
      { type: "folder", id: "Salle 10", name: "Salle 10", children: [] },
      { type: "article", id: expect.any(Number), name: "Nouvel article 2" },
    ]);
  });
});

describe("POST /api/manage/add_article", () => {
  it("creates an article with a unique slug, a readable name and only the metadatas element", async () => {
    const s = await staff();
    const first = await s.call("add_article", { pathArray: [] });
    const second = await s.call("add_article", { pathArray: [] });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: expect.any(Number), name: "nouvel-article-1", unformatted_name: "Nouvel article 1" });
    expect(second.body).toMatchObject({ name: "nouvel-article-2", unformatted_name: "Nouvel article 2" });
    const article = await s.read(`/api/read/article?articleId=${first.body.id}`);
    expect(article.status).toBe(200);
    expect(article.body).toMatchObject({
      id: first.body.id,
      name: "nouvel-article-1",
      unformatted_name: "Nouvel article 1",
      content: [{ type: "metadatas", url: "nouvel-article-1", backgroundColor: "#341539" }],
    });
  });

  it("names the article in the caller's interface language", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const response = await postJson("/api/manage/add_article", { pathArray: [] }, { Cookie: cookie, "Accept-Language": "en-US" });
    expect(await response.json()).toMatchObject({ unformatted_name: "New article 1", name: "new-article-1" });
  });

  it("never reuses a trashed article's slug", async () => {
    const s = await staff();
    const first = await s.call("add_article", { pathArray: [] });
    await s.call("delete_item", { type: "article", id: first.body.id, pathArray: [] });
    const next = await s.call("add_article", { pathArray: [] });
    expect(next.body.unformatted_name).toBe("Nouvel article 2");
    expect(next.body.name).toBe("nouvel-article-2");
  });

  it.each([
    [{ pathArray: "Salle 1" }, "pathArray"],
    [{ pathArray: [42] }, "pathArray.0"],
    [{ pathArray: ["a/b"] }, "pathArray.0"],
  ])("answers 400 for %j", async (body, field) => {
    const s = await staff();
    const result = await s.call("add_article", body);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: { code: "invalid_input", field } });
  });

  it("answers 404 for a folder that does not exist", async () => {
    const s = await staff();
    const result = await s.call("add_article", { pathArray: ["Nowhere"] });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ error: { code: "not_found", field: "pathArray" } });
  });

  it("answers 400 for malformed JSON and 415 for a body that is not JSON", async () => {
    const s = await staff();
    expect((await postJson("/api/manage/add_article", "{", { Cookie: s.cookie })).status).toBe(400);
    const form = await SELF.fetch(`${BASE}/api/manage/add_article`, { method: "POST", headers: { Cookie: s.cookie }, body: "pathArray=x" });
    expect(form.status).toBe(415);
  });

  it("answers 405 to a GET", async () => {
    const s = await staff();
    expect((await get("/api/manage/add_article", s.cookie)).status).toBe(405);
  });
});

describe("POST /api/manage/add_folder", () => {
  it("answers 409 for a sibling folder with that name, but allows it elsewhere", async () => {
    const s = await staff();
    expect((await s.call("add_folder", { pathArray: [], id: "Salle 1" })).status).toBe(200);
    const duplicate = await s.call("add_folder", { pathArray: [], id: "Salle 1" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ error: { code: "conflict", field: "id" } });
    expect((await s.call("add_folder", { pathArray: [], id: "Salle 2" })).status).toBe(200);
    expect((await s.call("add_folder", { pathArray: ["Salle 2"], id: "Salle 1" })).status).toBe(200);
  });

  it.each([
    [{ pathArray: [], id: "" }],
    [{ pathArray: [], id: "   " }],
    [{ pathArray: [], id: "a/b" }],
    [{ pathArray: [] }],
    [{ pathArray: [], id: "x".repeat(101) }],
  ])("answers 400 naming id for %j", async (body) => {
    const s = await staff();
    const result = await s.call("add_folder", body);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: { field: "id" } });
  });

  it("allows a name that only a trashed folder holds", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Réserve" });
    await s.call("delete_item", { type: "folder", id: "Réserve", pathArray: [] });
    expect((await s.call("add_folder", { pathArray: [], id: "Réserve" })).status).toBe(200);
  });
});

describe("renaming", () => {
  it("renames an article's private name", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    const result = await s.call("rename_article", { articleId: article.body.id, newName: "  La Joconde  " });
    expect(result.status).toBe(200);
    expect(await s.tree()).toEqual([{ type: "article", id: article.body.id, name: "La Joconde" }]);
  });

  it("accepts an article id sent as a string of digits", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    expect((await s.call("rename_article", { articleId: String(article.body.id), newName: "Vénus" })).status).toBe(200);
  });

  it("refuses an empty article name and an unknown article", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    expect((await s.call("rename_article", { articleId: article.body.id, newName: " " })).body).toMatchObject({ error: { field: "newName" } });
    expect((await s.call("rename_article", { articleId: 999999, newName: "x" })).status).toBe(404);
    expect((await s.call("rename_article", { articleId: -1, newName: "x" })).body).toMatchObject({ error: { field: "articleId" } });
  });

  it("renames a folder inside a path, with 409 for a taken name and 404 for a missing one", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Aile Denon" });
    await s.call("add_folder", { pathArray: ["Aile Denon"], id: "Salle 1" });
    await s.call("add_folder", { pathArray: ["Aile Denon"], id: "Salle 2" });
    expect((await s.call("rename_folder", { pathArray: ["Aile Denon"], itemName: "Salle 1", newName: "Salle 2" })).status).toBe(409);
    expect((await s.call("rename_folder", { pathArray: ["Aile Denon"], itemName: "Salle 9", newName: "X" })).status).toBe(404);
    const ok = await s.call("rename_folder", { pathArray: ["Aile Denon"], itemName: "Salle 1", newName: "Salle des États" });
    expect(ok.status).toBe(200);
    const tree = await s.tree();
    expect((tree[0]!.children as Json[]).map((c) => c.id)).toEqual(["Salle 2", "Salle des États"]);
  });

  it("treats renaming a folder to its own name as done", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "A" });
    expect((await s.call("rename_folder", { pathArray: [], itemName: "A", newName: "A" })).status).toBe(200);
  });
});

describe("POST /api/manage/move_item", () => {
  async function rooms() {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "A" });
    await s.call("add_folder", { pathArray: ["A"], id: "B" });
    await s.call("add_folder", { pathArray: ["A", "B"], id: "C" });
    await s.call("add_folder", { pathArray: [], id: "D" });
    return s;
  }

  it("moves an article into a folder and back to the root", async () => {
    const s = await rooms();
    const article = await s.call("add_article", { pathArray: ["A", "B"] });
    const moved = await s.call("move_item", { fromPathArray: ["A", "B"], itemId: article.body.id, toPathArray: [], toFolderId: "D" });
    expect(moved.status).toBe(200);
    expect((await s.read(`/api/read/article?articleId=${article.body.id}`)).body).toMatchObject({ pathArray: ["D"] });
    await s.call("move_item", { fromPathArray: ["D"], itemId: article.body.id, toPathArray: ["D"], toFolderId: null });
    expect((await s.read(`/api/read/article?articleId=${article.body.id}`)).body).toMatchObject({ pathArray: [] });
  });

  it("moves a folder with its contents to its parent", async () => {
    const s = await rooms();
    await s.call("add_article", { pathArray: ["A", "B", "C"] });
    const moved = await s.call("move_item", { fromPathArray: ["A", "B"], itemId: "C", toPathArray: [], toFolderId: "A" });
    expect(moved.status).toBe(200);
    const a = (await s.tree())[0]!;
    expect((a.children as Json[]).map((c) => c.id)).toEqual(["B", "C"]);
    expect(((a.children as Json[])[1]!.children as Json[])[0]).toMatchObject({ type: "article" });
  });

  it("refuses to move a folder into itself or one of its descendants", async () => {
    const s = await rooms();
    const self = await s.call("move_item", { fromPathArray: [], itemId: "A", toPathArray: [], toFolderId: "A" });
    expect(self.status).toBe(400);
    expect(self.body).toMatchObject({ error: { field: "toFolderId" } });
    const below = await s.call("move_item", { fromPathArray: [], itemId: "A", toPathArray: ["A", "B"], toFolderId: "C" });
    expect(below.status).toBe(400);
    expect((await s.tree()).map((n) => n.id)).toEqual(["A", "D"]);
  });

  it("answers 409 when the destination holds a folder of that name", async () => {
    const s = await rooms();
    await s.call("add_folder", { pathArray: ["D"], id: "B" });
    const result = await s.call("move_item", { fromPathArray: ["A"], itemId: "B", toPathArray: [], toFolderId: "D" });
    expect(result.status).toBe(409);
  });

  it("answers 404 for a missing destination or source, and 400 for a bad payload", async () => {
    const s = await rooms();
    expect((await s.call("move_item", { fromPathArray: [], itemId: "A", toPathArray: [], toFolderId: "Z" })).body).toMatchObject({
      error: { code: "not_found", field: "toFolderId" },
    });
    expect((await s.call("move_item", { fromPathArray: [], itemId: "Z", toPathArray: [], toFolderId: "D" })).status).toBe(404);
    expect((await s.call("move_item", { fromPathArray: [], itemId: 424242, toPathArray: [], toFolderId: "D" })).status).toBe(404);
    const bad = await s.call("move_item", { fromPathArray: [], itemId: true, toPathArray: [], toFolderId: "D" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { field: "itemId" } });
    expect((await s.call("move_item", { fromPathArray: [], itemId: "A", toPathArray: [] })).body).toMatchObject({ error: { field: "toFolderId" } });
  });

  it("uses an explicit type to move a folder whose name is digits", async () => {
    const s = await rooms();
    await s.call("add_folder", { pathArray: [], id: "1789" });
    const result = await s.call("move_item", { fromPathArray: [], itemId: "1789", type: "folder", toPathArray: [], toFolderId: "D" });
    expect(result.status).toBe(200);
  });
});

describe("deleting, the trash and restoring", () => {
  it("sends an article to the trash and brings it back", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    const deleted = await s.call("delete_item", { type: "article", id: article.body.id, pathArray: [] });
    expect(deleted.status).toBe(200);
    expect(await s.tree()).toEqual([]);
    expect((await s.read(`/api/read/article?articleId=${article.body.id}`)).status).toBe(404);
    const trash = (await s.read("/api/read/trash")).body as Json[];
    expect(trash).toEqual([expect.objectContaining({ type: "article", id: article.body.id, name: "Nouvel article 1", path: [] })]);
    expect((await s.call("restore_item", { type: "article", id: article.body.id })).status).toBe(200);
    expect(await s.tree()).toHaveLength(1);
    expect((await s.read("/api/read/trash")).body).toEqual([]);
  });

  it("lists the trash newest first, with the number of items a folder held", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    await s.call("add_folder", { pathArray: ["Salle"], id: "Vitrine" });
    await s.call("add_article", { pathArray: ["Salle"] });
    await s.call("add_article", { pathArray: ["Salle", "Vitrine"] });
    const lone = await s.call("add_article", { pathArray: [] });
    await s.call("delete_item", { type: "article", id: lone.body.id });
    await env.DB.prepare("UPDATE articles SET deleted_at = deleted_at - 1000 WHERE id = ?").bind(lone.body.id).run();
    await s.call("delete_item", { type: "folder", id: "Salle", pathArray: [] });
    const trash = (await s.read("/api/read/trash")).body as Json[];
    expect(trash.map((t) => [t.type, t.name, t.itemCount])).toEqual([
      ["folder", "Salle", 3],
      ["article", "Nouvel article 3", 0],
    ]);
    // The folder's contents are gone from the tree and from pickers with it.
    expect(await s.tree()).toEqual([]);
    expect((await s.read("/api/read/articles")).body).toEqual([]);
  });

  it("restores a folder with its contents, renaming it if its name was taken meanwhile", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    await s.call("add_article", { pathArray: ["Salle"] });
    await s.call("delete_item", { type: "folder", id: "Salle", pathArray: [] });
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    const trash = (await s.read("/api/read/trash")).body as Json[];
    const restored = await s.call("restore_item", { type: "folder", id: trash[0]!.id });
    expect(restored.body).toMatchObject({ name: "Salle (2)" });
    const tree = await s.tree();
    expect(tree.map((n) => n.id)).toEqual(["Salle", "Salle (2)"]);
    expect(tree[1]!.children).toHaveLength(1);
  });

  it("restores an article to the root when its folder is in the trash", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    const article = await s.call("add_article", { pathArray: ["Salle"] });
    await s.call("delete_item", { type: "article", id: article.body.id, pathArray: ["Salle"] });
    await s.call("delete_item", { type: "folder", id: "Salle", pathArray: [] });
    const restored = await s.call("restore_item", { type: "article", id: article.body.id });
    expect(restored.body).toMatchObject({ pathArray: [] });
    expect(await s.tree()).toEqual([{ type: "article", id: article.body.id, name: "Nouvel article 1" }]);
  });

  it("answers 404 when restoring something that is not in the trash", async () => {
    const s = await staff();
    const article = await s.call("add_article", { pathArray: [] });
    expect((await s.call("restore_item", { type: "article", id: article.body.id })).status).toBe(404);
    expect((await s.call("restore_item", { type: "folder", id: 987654 })).status).toBe(404);
    expect((await s.call("restore_item", { type: "folder", id: "Salle" })).body).toMatchObject({ error: { field: "id" } });
  });

  it("purges what has been in the trash for more than 30 days, contents included, and unlinks its QR codes", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Old" });
    await s.call("add_folder", { pathArray: ["Old"], id: "Inner" });
    const inside = await s.call("add_article", { pathArray: ["Old", "Inner"] });
    const recent = await s.call("add_article", { pathArray: [] });
    await createQrCode(s.user, { link: "old-code", articleId: inside.body.id as number });
    await s.call("delete_item", { type: "folder", id: "Old", pathArray: [] });
    await s.call("delete_item", { type: "article", id: recent.body.id });
    const longAgo = Date.now() - (TRASH_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare("UPDATE folders SET deleted_at = ? WHERE name = 'Old' AND museum_id = ?").bind(longAgo, s.user.museumId).run();
    expect(((await s.read("/api/read/trash")).body as Json[]).map((t) => t.type)).toEqual(["article"]);
    const purged = await purgeExpiredTrash(createDb(env.DB), env.MEDIA);
    expect(purged).toEqual({ articles: 1, folders: 2, media: 0 });
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM articles WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>();
    expect(left!.n).toBe(1);
    const code = await env.DB.prepare("SELECT article_id FROM qrcodes WHERE link = 'old-code'").first();
    expect(code).toEqual({ article_id: null });
  });

  it("turns a QR code inactive while its article is in the trash, and active again once restored", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    const article = await s.call("add_article", { pathArray: ["Salle"] });
    await createQrCode(s.user, { link: "abc123", articleId: article.body.id as number });
    const db = createDb(env.DB);
    expect(await activeArticleForLink(db, "abc123")).toMatchObject({ articleId: article.body.id });

    await s.call("delete_item", { type: "article", id: article.body.id, pathArray: ["Salle"] });
    expect(await activeArticleForLink(db, "abc123")).toBeNull();
    await s.call("restore_item", { type: "article", id: article.body.id });
    expect(await activeArticleForLink(db, "abc123")).not.toBeNull();

    await s.call("delete_item", { type: "folder", id: "Salle", pathArray: [] });
    expect(await activeArticleForLink(db, "abc123")).toBeNull();
    const trash = (await s.read("/api/read/trash")).body as Json[];
    await s.call("restore_item", { type: "folder", id: trash[0]!.id });
    expect(await activeArticleForLink(db, "abc123")).not.toBeNull();
  });

  it("answers 400 for an unknown type", async () => {
    const s = await staff();
    const result = await s.call("delete_item", { type: "museum", id: 1, pathArray: [] });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: { field: "type" } });
  });
});

describe("GET /api/read/article and /api/read/articles", () => {
  it("answers 400 for a missing or malformed articleId", async () => {
    const s = await staff();
    expect((await s.read("/api/read/article")).status).toBe(400);
    expect((await s.read("/api/read/article?articleId=abc")).body).toMatchObject({ error: { field: "articleId" } });
  });

  it("lists live articles for pickers with id, name and unformatted_name", async () => {
    const s = await staff();
    const a = await s.call("add_article", { pathArray: [] });
    await s.call("rename_article", { articleId: a.body.id, newName: "Zénobie" });
    const b = await s.call("add_article", { pathArray: [] });
    await s.call("rename_article", { articleId: b.body.id, newName: "amphore" });
    expect((await s.read("/api/read/articles")).body).toEqual([
      { id: b.body.id, name: "nouvel-article-2", unformatted_name: "amphore" },
      { id: a.body.id, name: "nouvel-article-1", unformatted_name: "Zénobie" },
    ]);
  });
});

describe("tenancy", () => {
  it("gives another museum's user 404 on every call for this museum's ids, and changes nothing", async () => {
    const owner = await staff();
    await owner.call("add_folder", { pathArray: [], id: "Trésor" });
    const article = await owner.call("add_article", { pathArray: ["Trésor"] });
    await owner.call("add_folder", { pathArray: [], id: "Bin" });
    await owner.call("delete_item", { type: "folder", id: "Bin", pathArray: [] });
    const binId = ((await owner.read("/api/read/trash")).body as Json[])[0]!.id;
    const before = await owner.tree();

    const other = await staff();
    const id = article.body.id;
    const attempts: [string, unknown][] = [
      ["add_article", { pathArray: ["Trésor"] }],
      ["add_folder", { pathArray: ["Trésor"], id: "Intrus" }],
      ["rename_article", { articleId: id, newName: "Volé" }],
      ["rename_folder", { pathArray: [], itemName: "Trésor", newName: "Volé" }],
      ["delete_item", { type: "article", id, pathArray: ["Trésor"] }],
      ["delete_item", { type: "folder", id: "Trésor", pathArray: [] }],
      ["move_item", { fromPathArray: ["Trésor"], itemId: id, toPathArray: [], toFolderId: null }],
      ["move_item", { fromPathArray: [], itemId: "Trésor", toPathArray: [], toFolderId: null }],
      ["restore_item", { type: "folder", id: binId }],
    ];
    for (const [name, body] of attempts) {
      const result = await other.call(name, body);
      expect(result.status, name).toBe(404);
    }
    expect((await other.read(`/api/read/article?articleId=${id}`)).status).toBe(404);
    expect(await other.tree()).toEqual([]);
    expect((await other.read("/api/read/articles")).body).toEqual([]);
    expect((await other.read("/api/read/trash")).body).toEqual([]);
    expect(await owner.tree()).toEqual(before);
  });

  it("answers 401 on every call without a session", async () => {
    for (const name of ["add_article", "add_folder", "rename_article", "rename_folder", "delete_item", "move_item", "restore_item"]) {
      expect((await postJson(`/api/manage/${name}`, {})).status, name).toBe(401);
    }
    for (const path of ["/api/tree", "/api/read/article?articleId=1", "/api/read/articles", "/api/read/trash"]) {
      expect((await get(path)).status, path).toBe(401);
    }
  });

  it("answers JSON 404 for an unknown API path", async () => {
    const response = await get("/api/manage/nothing");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: "not_found" } });
  });
});

describe("the articles and trash pages", () => {
  it("show only the user's own museum", async () => {
    const owner = await staff();
    await owner.call("add_folder", { pathArray: [], id: "Trésor caché" });
    await owner.call("add_folder", { pathArray: [], id: "Réserve secrète" });
    await owner.call("delete_item", { type: "folder", id: "Réserve secrète", pathArray: [] });
    const ownPage = await (await get("/articles", owner.cookie)).text();
    expect(ownPage).toContain("Trésor caché");

    const other = await staff();
    const page = await get("/articles", other.cookie);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Trésor caché");
    expect((await get(`/articles/${encodeURIComponent("Trésor caché")}`, other.cookie)).status).toBe(404);
    expect(await (await get("/trash", other.cookie)).text()).not.toContain("Réserve secrète");
    expect(await (await get("/trash", owner.cookie)).text()).toContain("Réserve secrète");
  });

  it("redirect to /login without a session", async () => {
    for (const path of ["/articles", "/articles/Salle", "/trash"]) {
      const response = await get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location")).toContain("/login?redirectTo=");
    }
  });
});

describe("the daily cron trigger", () => {
  it("purges the trash through the Worker's scheduled handler", async () => {
    const s = await staff();
    await s.call("add_folder", { pathArray: [], id: "Ancienne salle" });
    await s.call("delete_item", { type: "folder", id: "Ancienne salle", pathArray: [] });
    const longAgo = Date.now() - (TRASH_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare("UPDATE folders SET deleted_at = ? WHERE museum_id = ?").bind(longAgo, s.user.museumId).run();
    await runCron("30 3 * * *", new Date());
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM folders WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});
