import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { TRASH_RETENTION_DAYS, purgeExpiredTrash } from "~/models/trash.server";
import { ABORT_UNLESS_CHANGED } from "~/db/guards";
import { pruneArticleVersions, VERSIONS_CEILING, VERSIONS_KEPT, VERSIONS_RECENT_MS } from "~/publishing/versions.server";
import { auditEntries, get, memberSession, postJson, publishArticle, staffSession, texts, type StaffSession } from "./helpers";

type Json = Record<string, unknown>;
const DAY = 86_400_000;

/**
 * A version row as the publish call writes it, with the time, author and note the test wants. `publishArticle`
 * already published version 1 through the API: a seeded number replaces the row of that number.
 */
async function addVersion(
  s: StaffSession,
  articleId: number,
  number: number,
  elements: readonly unknown[],
  opts: { at?: number; note?: string; by?: { id: number; email: string } | null; publish?: boolean } = {},
) {
  const article = await env.DB.prepare("SELECT content, version FROM articles WHERE id = ?").bind(articleId).first<{ content: string; version: number }>();
  const metadatas = (JSON.parse(article!.content) as unknown[])[0];
  const content = JSON.stringify([metadatas, ...elements]);
  const by = opts.by === undefined ? { id: s.user.userId, email: s.user.email } : opts.by;
  await env.DB.prepare(
    `INSERT OR REPLACE INTO article_versions (article_id, museum_id, number, content, name, published_at, published_by, published_by_email, note)
     VALUES (?, ?, ?, ?, 'Name', ?, ?, ?, ?)`,
  )
    .bind(articleId, s.user.museumId, number, content, opts.at ?? Date.now() - (10 - number) * 60_000, by?.id ?? null, by?.email ?? "", opts.note ?? "")
    .run();
  if (opts.publish ?? true) {
    await env.DB.prepare("UPDATE articles SET published_content = ?, published_version = version, published_at = ? WHERE id = ?")
      .bind(content, Date.now(), articleId)
      .run();
  }
  return content;
}

/** An article with three published versions ("one", "two", "three"); its draft is the third. */
async function articleWithHistory(s: StaffSession) {
  const { articleId, edit } = await publishArticle(s, texts(["three"]));
  await addVersion(s, articleId, 1, texts(["one"]), { note: "First" });
  await addVersion(s, articleId, 2, texts(["two"]), { by: null });
  await addVersion(s, articleId, 3, texts(["three"]), { note: "Été 🎨" });
  return { articleId, edit };
}

const readDraft = async (s: StaffSession, id: number) =>
  (await s.read(`/api/read/article?articleId=${id}`)).body as { content: Json[]; version: number; name: string };

describe("history API", () => {
  it("lists the versions newest first and reads one with its content", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const list = await s.read(`/api/read/article_versions?id=${articleId}`);
    expect(list.status).toBe(200);
    const versions = (list.body as { versions: Json[] }).versions;
    expect(versions.map((v) => v.number)).toEqual([3, 2, 1]);
    expect(versions.map((v) => v.current)).toEqual([true, false, false]);
    expect(versions[0]).toMatchObject({ note: "Été 🎨", publishedBy: { id: s.user.userId, email: s.user.email }, name: "Name" });
    expect(versions[1]!.publishedBy).toBeNull();
    expect(typeof versions[2]!.publishedAt).toBe("number");
    expect(list.body).toMatchObject({ id: articleId, published: true });

    const one = await s.read(`/api/read/article_version?id=${articleId}&version=2`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ number: 2, current: false, content: [{ type: "metadatas" }, { type: "text", content: "two" }] });
  });

  it("refuses malformed ids and versions with 400 naming the field, unknown ones with 404", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const field = (r: { body: unknown }) => (r.body as { error: { field?: string } }).error.field;
    for (const [path, status, name] of [
      [`/api/read/article_versions?id=abc`, 400, "id"],
      [`/api/read/article_versions`, 400, "id"],
      [`/api/read/article_versions?id=-1`, 400, "id"],
      [`/api/read/article_versions?id=99999999`, 404, "id"],
      [`/api/read/article_version?id=${articleId}`, 400, "version"],
      [`/api/read/article_version?id=${articleId}&version=0`, 400, "version"],
      [`/api/read/article_version?id=${articleId}&version=1.5`, 400, "version"],
      [`/api/read/article_version?id=${articleId}&version=99999999999`, 400, "version"],
      [`/api/read/article_version?id=${articleId}&version=%F0%9F%8E%A8`, 400, "version"],
      [`/api/read/article_version?id=${articleId}&version=4`, 404, "version"],
    ] as const) {
      const r = await s.read(path);
      expect([path, r.status, field(r)]).toEqual([path, status, name]);
    }
    for (const [body, status, name] of [
      [{ id: "x", version: 1 }, 400, "id"],
      [{ id: articleId, version: 0 }, 400, "version"],
      [{ id: articleId, version: "1" }, 200, undefined],
      [{ id: articleId, version: 2.5 }, 400, "version"],
      [{ id: articleId }, 400, "version"],
      [{ id: articleId, version: null }, 400, "version"],
      [{ id: articleId, version: 7 }, 404, "version"],
      [{ id: 99999999, version: 1 }, 404, "id"],
    ] as const) {
      const r = await s.call("restore_article_version", body);
      expect([body, r.status, (r.body as { error?: { field?: string } }).error?.field]).toEqual([body, status, name]);
    }
    expect((await postJson("/api/manage/restore_article_version", "{not json", { Cookie: s.cookie })).status).toBe(400);
  });

  it("restores a version as the new draft: the version goes up, visitors keep the published one, the audit log says who", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const before = await readDraft(s, articleId);
    const published = await env.DB.prepare("SELECT published_content FROM articles WHERE id = ?").bind(articleId).first<string>("published_content");

    const restored = await s.call("restore_article_version", { id: articleId, version: 1 });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: articleId, restoredFrom: 1, version: before.version + 1, published: false, missingMedia: [] });
    expect(String(restored.body.message)).toMatch(/published/);

    const after = await readDraft(s, articleId);
    expect(after.version).toBe(before.version + 1);
    expect(after.content.slice(1)).toEqual([expect.objectContaining({ type: "text", content: "one" })]);
    const row = await env.DB.prepare("SELECT published_content, published_version, updated_by FROM articles WHERE id = ?").bind(articleId).first<Json>();
    expect(row).toMatchObject({ published_content: published, updated_by: s.user.userId });
    expect(row!.published_version).not.toBe(after.version); // a draft now

    // The list says the draft differs; the current version is still the third.
    const list = (await s.read(`/api/read/article_versions?id=${articleId}`)).body as { draft: Json; versions: Json[] };
    expect(list.draft).toEqual({ version: after.version, hasDraft: true });
    expect(list.versions[0]).toMatchObject({ number: 3, current: true });

    const audit = await auditEntries(s.user, { action: "article.restore_version" });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: s.user.userId, actor_email: s.user.email, target: `article:${articleId}` });
    expect(audit[0]!.detail).toMatchObject({ version: 1 });

    // An editor still on the old draft cannot save over the restore.
    const stale = await s.call("update_article", { articleId, version: before.version, newContent: [before.content[0], ...texts(["late edit"])] });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: { field: "version", reason: "stale_version" } });
  });

  it("keeps the article's current address when the version had another one", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const draft = await readDraft(s, articleId);
    const moved = await s.call("update_article", {
      articleId,
      version: draft.version,
      newContent: [{ type: "metadatas", url: "new-address" }, ...texts(["x"])],
    });
    expect(moved.status).toBe(200);
    // Another article takes the version's old address meanwhile: the restore must not collide with it.
    const other = await s.call("add_article", { pathArray: [] });
    const otherDraft = await readDraft(s, other.body.id as number);
    const oldUrl = JSON.parse(
      (await env.DB.prepare("SELECT content FROM article_versions WHERE article_id = ? AND number = 1").bind(articleId).first<string>("content"))!,
    )[0].url;
    expect(
      (await s.call("update_article", { articleId: other.body.id, version: otherDraft.version, newContent: [{ type: "metadatas", url: oldUrl }] })).status,
    ).toBe(200);

    expect((await s.call("restore_article_version", { id: articleId, version: 1 })).status).toBe(200);
    const after = await readDraft(s, articleId);
    expect(after.name).toBe("new-address");
    expect(after.content[0]).toMatchObject({ type: "metadatas", url: "new-address" });
    expect(after.content[1]).toMatchObject({ content: "one" });
  });

  it("applies two restores at once in turn, and 50 identical ones each once", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const base = (await readDraft(s, articleId)).version;
    const [a, b] = await Promise.all([
      s.call("restore_article_version", { id: articleId, version: 1 }),
      s.call("restore_article_version", { id: articleId, version: 2 }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect([a.body.version, b.body.version].sort()).toEqual([base + 1, base + 2]);
    const last = a.body.version === base + 2 ? "one" : "two";
    const after = await readDraft(s, articleId);
    expect(after.version).toBe(base + 2);
    expect(after.content[1]).toMatchObject({ content: last });

    const many = await Promise.all(Array.from({ length: 50 }, () => s.call("restore_article_version", { id: articleId, version: 3 })));
    expect(many.every((r) => r.status === 200)).toBe(true);
    expect(new Set(many.map((r) => r.body.version)).size).toBe(50);
    expect((await readDraft(s, articleId)).version).toBe(base + 52);
    expect(await auditEntries(s.user, { action: "article.restore_version" })).toHaveLength(52);
  });

  it("says which files of a restored version no longer exist", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const kept = `m/${s.user.museumId}/image/${crypto.randomUUID()}.png`;
    await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/png', 3)")
      .bind(s.user.museumId, kept)
      .run();
    const gone = `/media/m/${s.user.museumId}/subtitles/${crypto.randomUUID()}.vtt`;
    await addVersion(
      s,
      articleId,
      4,
      [
        { type: "image", src: `/media/${kept}`, alt: "kept" },
        { type: "video", videoId: "abc123", src: "", subtitles: gone },
      ],
      { publish: false },
    );
    const restored = await s.call("restore_article_version", { id: articleId, version: 4 });
    expect(restored.status).toBe(200);
    expect(restored.body.missingMedia).toEqual([gone]);
  });

  it("answers 404 for another museum's article and for a trashed one, and changes nothing", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const before = await readDraft(s, articleId);
    expect((await other.read(`/api/read/article_versions?id=${articleId}`)).status).toBe(404);
    expect((await other.read(`/api/read/article_version?id=${articleId}&version=1`)).status).toBe(404);
    const refused = await other.call("restore_article_version", { id: articleId, version: 1 });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: { code: "not_found", field: "id" } });
    expect((await get(`/article/history?id=${articleId}`, other.cookie)).status).toBe(404);
    expect(await readDraft(s, articleId)).toEqual(before);

    expect((await s.call("delete_item", { type: "article", id: articleId })).status).toBe(200);
    expect((await s.read(`/api/read/article_versions?id=${articleId}`)).status).toBe(404);
    expect((await s.call("restore_article_version", { id: articleId, version: 1 })).status).toBe(404);
  });

  it("lets every role that reads content read the history, and only publishers restore", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const viewer = await memberSession(s.user, { role: "viewer" });
    const translator = await memberSession(s.user, { role: "translator" });
    const editor = await memberSession(s.user, { role: "editor" });
    for (const path of [`/api/read/article_versions?id=${articleId}`, `/api/read/article_version?id=${articleId}&version=1`]) {
      expect(await viewer.read(path)).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
      expect((await translator.read(path)).status).toBe(200);
    }
    expect((await viewer.page(`/article/history?id=${articleId}`)).status).toBe(403);
    expect((await translator.page(`/article/history?id=${articleId}`)).status).toBe(200);
    const version = (await readDraft(s, articleId)).version;
    for (const who of [viewer, translator]) {
      expect(await who.call("restore_article_version", { id: articleId, version: 1 })).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    }
    // The page's restore form is refused too.
    const form = await postJson(`/article/history?id=${articleId}`, "", {
      Cookie: translator.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
    });
    expect(form.status).toBe(403);
    expect((await readDraft(s, articleId)).version).toBe(version);
    expect((await editor.call("restore_article_version", { id: articleId, version: 1 })).status).toBe(200);
  });
});

describe("restore's transaction", () => {
  it("rolls the audit entry back when the article's update changed nothing, and keeps it otherwise", async () => {
    const s = await staffSession();
    const article = (await s.call("add_article", { pathArray: [] })).body.id as number;
    const audit = (target: string) =>
      env.DB.prepare("INSERT INTO audit_log (museum_id, at, action, target) VALUES (?, 0, 'article.restore_version', ?)").bind(s.user.museumId, target);
    const update = (id: number) => env.DB.prepare("UPDATE articles SET version = version + 1 WHERE id = ? AND deleted_at IS NULL").bind(id);
    await expect(env.DB.batch([update(99999999), env.DB.prepare(ABORT_UNLESS_CHANGED), audit("gone")])).rejects.toThrow(/malformed JSON/);
    await env.DB.batch([update(article), env.DB.prepare(ABORT_UNLESS_CHANGED), audit("done")]);
    const targets = await auditEntries(s.user, { action: "article.restore_version" });
    expect(targets.map((r) => r.target)).toEqual(["done"]);
  });
});

describe("history page", () => {
  it("lists the versions, shows one, and compares two and the draft with the published version", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const list = await get(`/article/history?id=${articleId}`, s.cookie);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("Été 🎨");
    expect(html).toContain(`href="/article?id=${articleId}"`);

    const view = await (await get(`/article/history?id=${articleId}&view=2`, s.cookie)).text();
    expect(view).toContain("two");

    const compare = await (await get(`/article/history?id=${articleId}&from=1&to=3`, s.cookie)).text();
    expect(compare).toContain('<del><span class="visually-hidden">[supprimé : </span>one<span class="visually-hidden">]</span></del>');
    expect(compare).toContain('<ins><span class="visually-hidden">[ajouté : </span>three<span class="visually-hidden">]</span></ins>');

    expect((await get(`/article/history?id=${articleId}&from=published&to=draft`, s.cookie)).status).toBe(200);
    expect((await get(`/article/history?id=${articleId}&view=99`, s.cookie)).status).toBe(404);
    expect((await get(`/article/history?id=abc`, s.cookie)).status).toBe(404);
  });

  it("restores through the page form", async () => {
    const s = await staffSession();
    const { articleId } = await articleWithHistory(s);
    const before = (await readDraft(s, articleId)).version;
    const r = await postJson(`/article/history?id=${articleId}`, `intent=restore&version=2`, {
      Cookie: s.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
    });
    expect(r.status).toBe(200);
    const after = await readDraft(s, articleId);
    expect(after.version).toBe(before + 1);
    expect(after.content[1]).toMatchObject({ content: "two" });
    const bad = await postJson(`/article/history?id=${articleId}`, `intent=restore&version=zero`, {
      Cookie: s.cookie,
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
    });
    expect(bad.status).toBe(400);
  });
});

describe("retention and media", () => {
  it("prunes beyond the newest 50 versions, keeping the last 90 days up to the ceiling", async () => {
    const s = await staffSession();
    const now = Date.now();
    const a = (await s.call("add_article", { pathArray: [] })).body.id as number;
    const b = (await s.call("add_article", { pathArray: [] })).body.id as number;
    const insert = (articleId: number, number: number, at: number) =>
      env.DB.prepare("INSERT INTO article_versions (article_id, museum_id, number, content, name, published_at) VALUES (?, ?, ?, '[]', 'n', ?)").bind(
        articleId,
        s.user.museumId,
        number,
        at,
      );
    // a: 1–20 old, 21–30 recent but beyond the newest 50, 31–80 the newest 50 (some of them old too).
    const rows = [];
    for (let n = 1; n <= 80; n++) rows.push(insert(a, n, n <= 20 ? now - 200 * DAY : n <= 30 ? now - 10 * DAY : n <= 40 ? now - 300 * DAY : now));
    // b: 250 recent versions: only the ceiling is kept.
    for (let n = 1; n <= 250; n++) rows.push(insert(b, n, now - DAY));
    await env.DB.batch(rows);

    const deleted = await pruneArticleVersions(createDb(env.DB), now);
    expect(deleted).toBeGreaterThanOrEqual(20 + 50);
    const numbers = async (id: number) =>
      (await env.DB.prepare("SELECT number FROM article_versions WHERE article_id = ? ORDER BY number").bind(id).all<{ number: number }>()).results.map(
        (r) => r.number,
      );
    const keptA = await numbers(a);
    expect(keptA).toEqual(Array.from({ length: 60 }, (_, i) => i + 21));
    expect(keptA.length).toBeGreaterThanOrEqual(VERSIONS_KEPT);
    const keptB = await numbers(b);
    expect(keptB).toEqual(Array.from({ length: VERSIONS_CEILING }, (_, i) => i + 51));
    // Nothing more to do the second time; a version just past 90 days goes.
    expect(await pruneArticleVersions(createDb(env.DB), now)).toBe(0);
    await env.DB.prepare("UPDATE article_versions SET published_at = ? WHERE article_id = ? AND number = 21")
      .bind(now - VERSIONS_RECENT_MS - 1, a)
      .run();
    expect(await pruneArticleVersions(createDb(env.DB), now)).toBe(1);
  });

  it("never purges a file that another article's kept version, draft or published content still uses", async () => {
    const s = await staffSession();
    const doomed = (await s.call("add_article", { pathArray: [] })).body.id as number;
    const { articleId: keeper } = await articleWithHistory(s);
    const drafted = (await s.call("add_article", { pathArray: [] })).body.id as number;
    const key = (name: string) => `m/${s.user.museumId}/image/${name}-${crypto.randomUUID()}.png`;
    const inVersion = key("version");
    const inDraft = key("draft");
    const unused = key("unused");
    for (const k of [inVersion, inDraft, unused]) {
      await env.MEDIA.put(k, "png");
      await env.DB.prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes, article_id) VALUES (?, ?, 'image', 'image/png', 3, ?)")
        .bind(s.user.museumId, k, doomed)
        .run();
    }
    // The keeper's old version uses one file (its draft and published content do not); another article's draft the other.
    await addVersion(s, keeper, 4, [{ type: "image", src: `/media/${inVersion}`, alt: "" }], { publish: false });
    await env.DB.prepare("UPDATE articles SET content = json_insert(content, '$[#]', json(?)) WHERE id = ?")
      .bind(JSON.stringify({ type: "image", src: `/media/${inDraft}` }), drafted)
      .run();
    // The doomed article, with a version of its own, has been in the trash past the retention.
    await addVersion(s, doomed, 1, [{ type: "image", src: `/media/${unused}` }]);
    await s.call("delete_item", { type: "article", id: doomed });
    await env.DB.prepare("UPDATE articles SET deleted_at = ? WHERE id = ?")
      .bind(Date.now() - (TRASH_RETENTION_DAYS + 1) * DAY, doomed)
      .run();

    const purged = await purgeExpiredTrash(createDb(env.DB), env.MEDIA);
    expect(purged.articles).toBeGreaterThanOrEqual(1);
    const rows = await env.DB.prepare("SELECT r2_key, article_id FROM media WHERE museum_id = ? ORDER BY r2_key").bind(s.user.museumId).all<Json>();
    expect(rows.results).toEqual(
      [
        { r2_key: inDraft, article_id: null },
        { r2_key: inVersion, article_id: null },
      ].sort((x, y) => (x.r2_key < y.r2_key ? -1 : 1)),
    );
    expect(await env.MEDIA.head(inVersion)).not.toBeNull();
    expect(await env.MEDIA.head(inDraft)).not.toBeNull();
    expect(await env.MEDIA.head(unused)).toBeNull();
    // The purged article's own versions went with it.
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM article_versions WHERE article_id = ?").bind(doomed).first<number>("n")).toBe(0);
    // Still served to whoever restores the keeper's version.
    const restored = await s.call("restore_article_version", { id: keeper, version: 4 });
    expect(restored.body.missingMedia).toEqual([]);
    const served = await get(`/media/${inVersion}`, s.cookie);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("png");
  });
});
