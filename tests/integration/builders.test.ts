import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  auditEntries,
  createArticle,
  createArticleRow,
  createMember,
  createMuseum,
  createQrCode,
  createTour,
  lastAuditId,
  memberSession,
  museumOwnedTables,
  removeMuseum,
  rowsLeft,
  signIn,
  staffSession,
  texts,
} from "./builders";
import { get } from "./http";

// The test builders themselves (decision 138): what they write is what the app would hold, they never collide
// when called together, and their teardown leaves nothing of a museum behind.

const userRow = (id: number) => env.DB.prepare("SELECT museum_id, email, role, languages FROM users WHERE id = ?").bind(id).first();

describe("createMember", () => {
  it("stores a role and a translator's languages as the app does; no role is the column's default, an admin", async () => {
    const museum = await createMuseum();
    const translator = await createMember(museum, { role: "translator", languages: ["it", "de", "de"] });
    expect(translator).toMatchObject({ museumId: museum.museumId, role: "translator", languages: ["de", "it"] });
    expect(await userRow(translator.userId)).toMatchObject({ role: "translator", languages: '["de","it"]' });
    // Only a translator's languages count (app/teams/member-input.ts languagesForRole).
    const editor = await createMember(museum, { role: "editor", languages: ["de"] });
    expect(await userRow(editor.userId)).toMatchObject({ role: "editor", languages: "[]" });
    const first = await createMember(museum);
    expect(first).toMatchObject({ role: "admin", languages: [] });
    expect(await userRow(first.userId)).toMatchObject({ role: "admin", languages: "[]" });
  });

  it("refuses what the app refuses, and writes nothing for it", async () => {
    const museum = await createMuseum();
    await expect(createMember(museum, { role: "translator", languages: ["klingon"] })).rejects.toThrow();
    await expect(createMember(museum, { role: "translator", languages: [""] })).rejects.toThrow();
    await expect(createMember(museum, { languages: ["de"] })).rejects.toThrow(/need a role/);
    // The museum and the change row its creation's trigger wrote (decision 132): no member.
    expect(await rowsLeft(museum)).toEqual({ museums: 1, visitor_changes: 1 });
  });

  it("keeps an odd Unicode e-mail as given and stores it lowercased, as the login compares it", async () => {
    const museum = await createMuseum({ name: "Musée « Ærø » 😀 ש" });
    const email = `ÆRØSKØBING.İ-${crypto.randomUUID()}@Example.ORG`;
    const member = await createMember(museum, { role: "viewer", email });
    expect(member.email).toBe(email);
    expect(await userRow(member.userId)).toMatchObject({ email: email.toLowerCase() });
    const name = await env.DB.prepare("SELECT name FROM museums WHERE id = ?").bind(museum.museumId).first("name");
    expect(name).toBe("Musée « Ærø » 😀 ש");
  });

  it("makes 50 members at once, each with a name of its own; two with one e-mail: one is refused", async () => {
    const museum = await createMuseum();
    const many = await Promise.all(Array.from({ length: 50 }, () => createMember(museum, { role: "editor" })));
    expect(new Set(many.map((m) => m.userId)).size).toBe(50);
    expect(new Set(many.map((m) => m.email)).size).toBe(50);
    const email = `twice-${crypto.randomUUID()}@example.org`;
    const both = await Promise.allSettled([createMember(museum, { email }), createMember(museum, { email: email.toUpperCase() })]);
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(both.find((r) => r.status === "rejected")).toMatchObject({ reason: expect.objectContaining({ message: expect.stringMatching(/UNIQUE/) }) });
  });

  it("signs a member in with their role's rights; a wrong password is no session", async () => {
    const admin = await staffSession();
    const viewer = await memberSession(admin.user, { role: "viewer" });
    expect((await viewer.call("add_article", { pathArray: [] })).status).toBe(403);
    expect((await viewer.read("/api/read/glossary")).status).toBe(403); // content.read is not a viewer's
    expect((await viewer.page("/dashboard")).status).toBe(200);
    expect((await admin.call("add_article", { pathArray: [] })).status).toBe(200);
    await expect(signIn({ ...viewer.user, password: "not the password" })).rejects.toThrow(/login failed: 401/);
  });
});

describe("createArticle, createQrCode, createTour", () => {
  it("makes a draft visitors cannot see, a published article they can, in a folder, with a code", async () => {
    const s = await staffSession();
    const draft = await createArticle(s, { elements: texts(["Brouillon « secret »"]) });
    expect(draft.link).toBeUndefined();
    expect((await get(`/v/${s.user.museumSlug}/${draft.slug}`)).status).toBe(404);
    const read = (await s.read(`/api/read/article?articleId=${draft.articleId}`)).body as { status: string; content: { content?: string }[] };
    expect(read.content[1]).toMatchObject({ content: "Brouillon « secret »" });
    expect(read.status).not.toBe("published");

    expect((await s.call("add_folder", { pathArray: [], id: "Salle 😀" })).status).toBe(200);
    const shown = await createArticle(s, { elements: texts(["Une amphore."]), published: true, qrcode: true, folder: ["Salle 😀"] });
    expect(await (await get(`/r/${shown.link!}`)).text()).toContain("Une amphore.");
    await shown.edit(texts(["Une amphore attique."]));
    expect(await (await get(`/r/${shown.link!}`)).text()).toContain("Une amphore attique.");
    const tree = JSON.stringify(await s.tree());
    expect(tree).toContain("Salle 😀");

    const bare = await createArticle(s);
    expect(bare.slug).toEqual(expect.any(String));
    await expect(createArticle(s, { folder: ["Nowhere"] })).rejects.toThrow(/add_article/);
  });

  it("writes QR codes and tours as rows: linked or not, stops in order, an article twice, none", async () => {
    const s = await staffSession();
    const a = await createArticle(s, { elements: texts(["A"]), published: true });
    const b = await createArticleRow(s.user, { name: "Stèle <b>" });
    const code = await createQrCode(s.user, { articleId: a.articleId });
    const loose = await createQrCode(s.user.museumId);
    expect(code.link).not.toBe(loose.link);
    expect(await env.DB.prepare("SELECT article_id FROM qrcodes WHERE id = ?").bind(loose.qrcodeId).first("article_id")).toBeNull();
    expect(await (await get(`/r/${code.link}`)).text()).toContain("A");

    const tour = await createTour(s.user, [a.articleId, b, a.articleId]);
    const stops = await env.DB.prepare("SELECT position, article_id FROM tour_stops WHERE tour_id = ? ORDER BY position").bind(tour.id).all();
    expect(stops.results).toEqual([
      { position: 1, article_id: a.articleId },
      { position: 2, article_id: b },
      { position: 3, article_id: a.articleId },
    ]);
    const empty = await createTour(s.user, [], { name: "Vide", description: "", minutes: null });
    expect(await env.DB.prepare("SELECT name, description, minutes FROM tours WHERE id = ?").bind(empty.id).first()).toEqual({
      name: "Vide",
      description: "",
      minutes: null,
    });
    // A link taken is refused, as the unique index says.
    await expect(createTour(s.user, [], { link: tour.link })).rejects.toThrow(/UNIQUE/);
    await expect(createQrCode(s.user, { link: code.link })).rejects.toThrow(/UNIQUE/);
  });
});

describe("auditEntries", () => {
  it("reads one museum's entries in order, by action, action prefix, target and after an entry, details parsed", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const start = await lastAuditId(s.user);
    expect(start).toBeGreaterThan(0); // the login
    const a = await createArticle(s, { elements: texts(["x"]), published: true });
    expect((await s.call("rename_article", { articleId: a.articleId, newName: "Ærø « 1 » 😀" })).status).toBe(200);
    const all = await auditEntries(s.user);
    expect(all[0]).toMatchObject({ action: "session.login", actor_id: s.user.userId });
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((x, y) => x - y));
    const after = await auditEntries(s.user, { after: start });
    expect(after.map((e) => e.action)).not.toContain("session.login");
    expect(await auditEntries(s.user, { logins: false })).toEqual(after);
    const renamed = await auditEntries(s.user, { action: "article.rename", target: `article:${a.articleId}` });
    expect(renamed).toHaveLength(1);
    expect(renamed[0]!.detail).toMatchObject({ name: "Ærø « 1 » 😀" });
    expect((await auditEntries(s.user, { action: "article.%" })).every((e) => e.action.startsWith("article."))).toBe(true);
    expect(await auditEntries(other.user, { action: "article.rename" })).toEqual([]);
    expect(await auditEntries(s.user, { action: "article.rename' OR '1'='1" })).toEqual([]);
  });
});

describe("removeMuseum", () => {
  it("knows every table a museum owns", async () => {
    const tables = await museumOwnedTables();
    for (const t of ["users", "articles", "qrcodes", "tours", "tour_stops", "scan_events", "audit_log", "daily_stats"]) expect(tables).toContain(t);
    expect(tables).not.toContain("sessions");
  });

  it("leaves nothing of a museum behind, sessions and media included, and touches no other museum", async () => {
    const s = await staffSession();
    const keep = await staffSession();
    const kept = await createArticle(keep, { elements: texts(["Gardé"]), published: true, qrcode: true });
    const member = await memberSession(s.user, { role: "translator", languages: ["de"] });
    const a = await createArticle(s, { elements: texts(["Une amphore."]), published: true, qrcode: true });
    await createTour(s.user, [a.articleId]);
    // A scan event has no foreign key to its museum: no cascade removes it.
    await env.DB.prepare("INSERT INTO scan_events (id, museum_id, article_id, lang, kind, occurred_at, received_at) VALUES (?, ?, ?, 'fr', 'scan', ?, ?)")
      .bind(crypto.randomUUID(), s.user.museumId, a.articleId, Date.now(), Date.now())
      .run();
    await env.MEDIA.put(`m/${s.user.museumId}/leftover.txt`, "x");
    const userIds = [s.user.userId, member.user.userId];
    expect(await rowsLeft(s.user)).toMatchObject({ museums: 1, users: 2, articles: 1, qrcodes: 1, tours: 1, tour_stops: 1, scan_events: 1 });

    await removeMuseum(s.user);
    expect(await rowsLeft(s.user)).toEqual({});
    const sessions = await env.DB.prepare(`SELECT count(*) AS n FROM sessions WHERE user_id IN (${userIds.join(", ")})`).first("n");
    expect(sessions).toBe(0);
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toEqual([]);
    expect((await get(`/r/${a.link}`)).status).toBe(404);
    expect(await (await get(`/r/${kept.link}`)).text()).toContain("Gardé");
    expect((await keep.read("/api/read/glossary")).status).toBe(200); // the other museum's admin is still signed in
    // Twice is harmless.
    await removeMuseum(s.user);
  });

  let cleaned = 0;
  it("cleanup: true removes the museum when the test ends", async () => {
    cleaned = (await createMuseum({ cleanup: true })).museumId;
    await createMember({ museumId: cleaned }, { role: "editor" });
    expect(await rowsLeft(cleaned)).toMatchObject({ museums: 1, users: 1 });
  });
  it("(the museum of the test before is gone)", async () => {
    expect(cleaned).toBeGreaterThan(0);
    expect(await rowsLeft(cleaned)).toEqual({});
  });
});
