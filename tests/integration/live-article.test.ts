import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FolderIndex } from "~/models/folder-index.server";
import { isLiveArticle, liveArticleSql } from "~/models/live-article.server";
import { BASE, createMuseum, get, publishNow, staffSession, texts, type StaffSession } from "./helpers";
import { mp3Bytes } from "./narration-helpers";
import { postForm } from "./team-helpers";

// One rule for "a live article" (issue 31 §3, decision 134): not in the trash, and no folder above it in the
// trash. Every staff path answers an article inside a trashed folder 404 naming the article, as update_article
// always did, while the same call on its twin in a live folder is not refused that way.

type Json = Record<string, unknown>;
type Answer = { status: number; body: Json | null };

const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const PNG = (() => {
  const head = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32(13), "IHDR", u32(1), u32(1), [8, 6, 0, 0, 0]);
  const out = new Uint8Array(300);
  out.set(head);
  for (let i = head.length; i < out.length; i++) out[i] = i % 251;
  return out;
})();

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as Json };
  } catch {
    return { status: response.status, body: null };
  }
}

const row = (id: number) => env.DB.prepare("SELECT version, content, unformatted_name AS name, slug FROM articles WHERE id = ?").bind(id).first<Json>();

/** An article in folder `folder` with one published text, linked to a QR code; returns its id, slug and link. */
async function articleIn(s: StaffSession, folder: string) {
  const added = await s.call("add_article", { pathArray: [folder] });
  expect(added.status).toBe(200);
  const articleId = added.body.id as number;
  const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number; name: string };
  const saved = await s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], ...texts(["Une amphore attique."])] });
  expect(saved.status).toBe(200);
  await publishNow(s, articleId);
  const code = await s.call("add_qrcode", {});
  expect((await s.call("update_qrcode", { qrcodeId: code.body.id, articleId })).status).toBe(200);
  const xliff = await (await get(`/api/read/xliff?articleId=${articleId}&lang=de&version=2.0`, s.cookie)).text();
  return { articleId, slug: current.name, link: code.body.link as string, xliff };
}

/** A museum with an article in "Ouvert" (live) and its twin in "Fermé", whose folder is then trashed. */
async function twins() {
  const s = await staffSession();
  for (const id of ["Ouvert", "Fermé"]) expect((await s.call("add_folder", { pathArray: [], id })).status).toBe(200);
  const live = await articleIn(s, "Ouvert");
  const hidden = await articleIn(s, "Fermé");
  expect((await s.call("delete_item", { type: "folder", id: "Fermé", pathArray: [] })).status).toBe(200);
  return { s, live, hidden };
}

type Twin = Awaited<ReturnType<typeof articleIn>> & { folder: string };

/** Every staff path that takes an article, as (article) => answer. */
function paths(s: StaffSession): [string, (a: Twin) => Promise<Answer>][] {
  const call = async (name: string, body: unknown) => answer(await SELF.fetch(`${BASE}/api/manage/${name}`, post(body)));
  const post = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json", Host: "localhost", Cookie: s.cookie },
    body: JSON.stringify(body),
  });
  const read = async (path: string) => answer(await get(path, s.cookie));
  const multipart = async (path: string, fields: [string, string | File][]) => {
    const form = new FormData();
    for (const [k, v] of fields) form.append(k, v);
    return answer(await SELF.fetch(`${BASE}${path}`, { method: "POST", body: form, headers: { Cookie: s.cookie } }));
  };
  const version = async (a: Twin) => (await row(a.articleId))!.version as number;
  const metadatas = async (a: Twin) => (JSON.parse((await row(a.articleId))!.content as string) as unknown[])[0];
  return [
    ["read article", (a) => read(`/api/read/article?articleId=${a.articleId}`)],
    ["rename_article", (a) => call("rename_article", { articleId: a.articleId, newName: "Renommé" })],
    [
      "update_article",
      async (a) => call("update_article", { articleId: a.articleId, version: await version(a), newContent: [await metadatas(a), ...texts(["Changé."])] }),
    ],
    ["publish_article (schedule)", async (a) => call("publish_article", { id: a.articleId, version: await version(a), at: "2099-01-01T10:00" })],
    ["publish_article (unschedule)", async (a) => call("publish_article", { id: a.articleId, version: await version(a), at: null })],
    ["publish_article", async (a) => call("publish_article", { id: a.articleId, version: await version(a) })],
    ["discard_draft", (a) => call("discard_draft", { id: a.articleId })],
    ["article_versions", (a) => read(`/api/read/article_versions?id=${a.articleId}`)],
    ["article_version", (a) => read(`/api/read/article_version?id=${a.articleId}&version=1`)],
    ["restore_article_version", (a) => call("restore_article_version", { id: a.articleId, version: 1 })],
    [
      "upload image (media attach)",
      (a) =>
        multipart("/api/upload/image", [
          ["articleId", String(a.articleId)],
          ["image", new File([PNG], "a.png", { type: "image/png" })],
        ]),
    ],
    [
      "upload narration",
      (a) =>
        multipart("/api/upload/narration", [
          ["articleId", String(a.articleId)],
          ["lang", "de"],
          ["narration", new File([mp3Bytes()], "guide.mp3", { type: "audio/mpeg" })],
        ]),
    ],
    ["narrations", (a) => read(`/api/read/narrations?articleId=${a.articleId}`)],
    ["regenerate_narration", (a) => call("regenerate_narration", { articleId: a.articleId, lang: "de" })],
    ["delete_narration", (a) => call("delete_narration", { articleId: a.articleId, lang: "de" })],
    [
      "update_qrcode (link)",
      async (a) => {
        const code = await call("add_qrcode", {});
        return call("update_qrcode", { qrcodeId: code.body!.id, articleId: a.articleId });
      },
    ],
    ["update_stop_number", (a) => call("update_stop_number", { articleId: a.articleId, stopNumber: a.folder === "Ouvert" ? 41 : 42 })],
    ["xliff export", (a) => read(`/api/read/xliff?articleId=${a.articleId}&lang=de&version=2.0`)],
    ["easy_read", (a) => read(`/api/read/easy_read?articleId=${a.articleId}`)],
    ["generate_easy_read", (a) => call("generate_easy_read", { articleId: a.articleId, version: 0 })],
    ["update_easy_read", (a) => call("update_easy_read", { articleId: a.articleId, version: 1, texts: { "e1.content": "Un vase." } })],
    ["approve_easy_read", (a) => call("approve_easy_read", { articleId: a.articleId, version: 1 })],
    ["delete_easy_read", (a) => call("delete_easy_read", { articleId: a.articleId })],
    ["translations", (a) => read(`/api/read/translations?articleId=${a.articleId}`)],
    ["translation", (a) => read(`/api/read/translation?articleId=${a.articleId}&lang=de`)],
    ["update_translation", (a) => call("update_translation", { articleId: a.articleId, lang: "de", segmentId: "e1.content.0", text: "Eine Amphore." })],
    ["mark_reviewed", (a) => call("mark_reviewed", { articleId: a.articleId, lang: "de", segments: [{ id: "e1.content.0", text: "x" }] })],
    ["reset_translation", (a) => call("reset_translation", { articleId: a.articleId, lang: "de" })],
    ["pretranslate", (a) => call("pretranslate", { articleId: a.articleId, langs: ["de"] })],
    ["reset_traductions", (a) => call("reset_traductions", { articleId: a.articleId })],
    [
      "print sheet: create its code",
      async (a) => answer(await postForm("/qrcodes/print", { intent: "create-code", articleId: String(a.articleId) }, { Cookie: s.cookie })),
    ],
    ["editor page", async (a) => answer(await get(`/article?id=${a.articleId}`, s.cookie))],
    ["history page", async (a) => answer(await get(`/article/history?id=${a.articleId}`, s.cookie))],
    ["translations page", async (a) => answer(await get(`/translations?id=${a.articleId}`, s.cookie))],
    ["easy-read page", async (a) => answer(await get(`/easy-read?id=${a.articleId}`, s.cookie))],
    ["move_item", (a) => call("move_item", { type: "article", itemId: a.articleId, fromPathArray: [a.folder], toPathArray: [], toFolderId: null })],
    ["delete_item", (a) => call("delete_item", { type: "article", id: a.articleId })],
  ];
}

const ARTICLE_FIELDS = ["articleId", "id", "itemId"];
/** The answer is the article's 404 (a page's 404 has no JSON body to name the field). */
const articleGone = (a: Answer) =>
  a.status === 404 && (a.body === null || !("error" in a.body) || ARTICLE_FIELDS.includes(String((a.body.error as Json | undefined)?.field)));

describe("an article in a trashed folder (decision 134)", () => {
  it("every staff path answers 404 naming the article, where its twin in a live folder is not refused so", { timeout: 120_000 }, async () => {
    const { s, live, hidden } = await twins();
    const before = await row(hidden.articleId);
    for (const [name, run] of paths(s)) {
      const open = await run({ ...live, folder: "Ouvert" });
      expect([name, "live", articleGone(open)], JSON.stringify(open.body)?.slice(0, 300)).toEqual([name, "live", false]);
      const closed = await run({ ...hidden, folder: "Fermé" });
      expect([name, "trashed folder", closed.status, articleGone(closed)], JSON.stringify(closed.body)?.slice(0, 300)).toEqual([
        name,
        "trashed folder",
        404,
        true,
      ]);
    }
    // Nothing about the hidden article changed: name, content, version.
    expect(await row(hidden.articleId)).toEqual(before);
    const entries = await env.DB.prepare("SELECT action FROM audit_log WHERE museum_id = ? AND target = ?")
      .bind(s.user.museumId, `article:${hidden.articleId}`)
      .all<{ action: string }>();
    expect(entries.results.map((e) => e.action).filter((a) => a !== "article.create" && a !== "article.save" && a !== "article.publish")).toEqual([]);
  });

  it("an XLIFF file brought back after the folder went to the trash applies nothing to it (unknown units)", async () => {
    const { s, hidden } = await twins();
    const form = new FormData();
    form.append("lang", "de");
    form.append("file", new File([hidden.xliff.replace(/<target[^>]*>[\s\S]*?<\/target>/g, "")], "back.xlf", { type: "application/xliff+xml" }));
    const response = await SELF.fetch(`${BASE}/api/manage/import_xliff`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    const body = (await response.json()) as { units: { status: string; reason?: string }[] };
    expect(response.status).toBe(200);
    expect(body.units.length).toBeGreaterThan(0);
    expect(body.units.every((u) => u.status === "error" && u.reason === "unknown_unit")).toBe(true);
  });

  it("visitors still get 404 for it, by address and by its code; restoring the folder brings every path back", async () => {
    const { s, hidden } = await twins();
    expect((await get(`/v/${s.user.museumSlug}/${hidden.slug}`)).status).toBe(404);
    const scan = await get(`/r/${hidden.link}`);
    expect(await scan.text()).not.toContain("Une amphore attique.");
    expect((await s.call("rename_article", { articleId: hidden.articleId, newName: "Avant" })).status).toBe(404);
    const trash = (await s.read("/api/read/trash")).body as { type: string; id: number }[];
    const folder = trash.find((i) => i.type === "folder")!;
    expect((await s.call("restore_item", { type: "folder", id: folder.id })).status).toBe(200);
    expect((await s.call("rename_article", { articleId: hidden.articleId, newName: "Après" })).status).toBe(200);
    expect((await get(`/v/${s.user.museumSlug}/${hidden.slug}`)).status).toBe(200);
  });

  it("50 renames of it at once: all 404, no audit entry; a rename racing the folder's trashing is applied only if it came first", async () => {
    const { s, hidden } = await twins();
    const renames = await Promise.all(Array.from({ length: 50 }, (_, i) => s.call("rename_article", { articleId: hidden.articleId, newName: `Nom ${i}` })));
    expect(new Set(renames.map((r) => r.status))).toEqual(new Set([404]));
    const audits = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE museum_id = ? AND action = 'article.rename'")
      .bind(s.user.museumId)
      .first<{ n: number }>();
    expect(audits!.n).toBe(0);

    expect((await s.call("add_folder", { pathArray: [], id: "Course" })).status).toBe(200);
    const racer = await articleIn(s, "Course");
    const [rename, trashed] = await Promise.all([
      s.call("rename_article", { articleId: racer.articleId, newName: "Gagnant ?" }),
      s.call("delete_item", { type: "folder", id: "Course", pathArray: [] }),
    ]);
    expect(trashed.status).toBe(200);
    expect([200, 404]).toContain(rename.status);
    const name = (await row(racer.articleId))!.name;
    expect(name === "Gagnant ?").toBe(rename.status === 200);
    const entries = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE museum_id = ? AND action = 'article.rename'")
      .bind(s.user.museumId)
      .first<{ n: number }>();
    expect(entries!.n).toBe(rename.status === 200 ? 1 : 0);
  });
});

describe("the rule in SQL and in memory agree", () => {
  it("on random trees with trashed folders, parent loops, another museum's parent and odd names", async () => {
    const museums = await Promise.all(["a", "b"].map((tag) => createMuseum({ name: `Rule ${tag}`, slug: `rule-${tag}-${crypto.randomUUID().slice(0, 8)}` })));
    const [museumId, otherId] = museums.map((m) => m.museumId) as [number, number];
    let seed = 31;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const folderIds: number[] = [];
    const foreign = await env.DB.prepare("INSERT INTO folders (museum_id, parent_id, name) VALUES (?, NULL, 'ailleurs') RETURNING id")
      .bind(otherId)
      .first<{ id: number }>();
    for (let i = 0; i < 60; i++) {
      const parent = folderIds.length === 0 || random() < 0.2 ? null : folderIds[Math.floor(random() * folderIds.length)]!;
      const inserted = await env.DB.prepare("INSERT INTO folders (museum_id, parent_id, name, deleted_at) VALUES (?, ?, ?, ?) RETURNING id")
        .bind(museumId, parent, `Salle ${i} \u0301é\u{1F3DB}`, random() < 0.15 ? Date.now() : null)
        .first<{ id: number }>();
      folderIds.push(inserted!.id);
    }
    // Two loops (written as stored data could hold them), and a folder under another museum's folder.
    await env.DB.batch([
      env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(folderIds[11], folderIds[10]),
      env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(folderIds[10], folderIds[11]),
      env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(folderIds[20], folderIds[20]),
      env.DB.prepare("UPDATE folders SET parent_id = ? WHERE id = ?").bind(foreign!.id, folderIds[30]),
    ]);
    const statements = Array.from({ length: 200 }, (_, i) => {
      const folder = random() < 0.15 ? null : folderIds[Math.floor(random() * folderIds.length)]!;
      return env.DB.prepare(
        "INSERT INTO articles (museum_id, folder_id, slug, unformatted_name, content, updated_at, deleted_at) VALUES (?, ?, ?, ?, '[]', 0, ?)",
      ).bind(museumId, folder, `regle-${i}`, `Règle ${i}`, random() < 0.1 ? Date.now() : null);
    });
    await env.DB.batch(statements);

    const sqlLive = await env.DB.prepare(`SELECT id FROM articles a WHERE a.museum_id = ? AND ${liveArticleSql("a", "?1")} ORDER BY id`)
      .bind(museumId)
      .all<{ id: number }>();
    const folders = await env.DB.prepare("SELECT id, parent_id AS parentId, name, deleted_at AS deletedAt FROM folders WHERE museum_id = ?")
      .bind(museumId)
      .all<{ id: number; parentId: number | null; name: string; deletedAt: number | null }>();
    const index = new FolderIndex(folders.results);
    const rows = await env.DB.prepare("SELECT id, folder_id AS folderId, deleted_at AS deletedAt FROM articles WHERE museum_id = ? ORDER BY id")
      .bind(museumId)
      .all<{ id: number; folderId: number | null; deletedAt: number | null }>();
    const memoryLive = rows.results.filter((r) => isLiveArticle(r, index)).map((r) => r.id);
    expect(sqlLive.results.map((r) => r.id)).toEqual(memoryLive);
    // The form the cron uses across museums (the museum read from the row) agrees too.
    const correlated = await env.DB.prepare(`SELECT id FROM articles a WHERE a.museum_id = ? AND ${liveArticleSql("a", "a.museum_id")} ORDER BY id`)
      .bind(museumId)
      .all<{ id: number }>();
    expect(correlated.results.map((r) => r.id)).toEqual(memoryLive);
    // Both kinds are present, so the comparison means something.
    expect(memoryLive.length).toBeGreaterThan(20);
    expect(rows.results.length - memoryLive.length).toBeGreaterThan(20);
  });
});
