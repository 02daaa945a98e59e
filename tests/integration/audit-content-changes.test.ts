import { describe, expect, it } from "vitest";
import { auditEntries, get, lastAuditId, memberSession, publishArticle, staffSession, texts } from "./helpers";

// Every content change leaves an entry in the audit log, in words in both languages (decision 124): the tree
// (create, save, rename, move), a translator's corrections, pretranslation, easy-to-read versions.

const rows = (museumId: number, after = 0) => auditEntries(museumId, { after, logins: false });
/** The entries' table of the /audit page (the filter above it lists the action keys as option values). */
const table = (html: string) => {
  const found = /<table class="audit-table">[\s\S]*?<\/table>/.exec(html);
  expect(found).not.toBeNull();
  return found![0];
};

describe("audit log: every content change", () => {
  it("records creating, saving, renaming and moving articles and folders, and nothing for a refused change", async () => {
    const s = await staffSession();
    const museumId = s.user.museumId;
    const start = await lastAuditId(museumId);
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    expect((await s.call("add_folder", { pathArray: [], id: "Salle « 2 » 😀" })).status).toBe(200);
    const article = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { version: number; content: unknown[] };
    const saved = await s.call("update_article", {
      articleId,
      version: article.version,
      newContent: [article.content[0], { type: "text", content: "Une amphore." }],
    });
    expect(saved.status).toBe(200);
    // A stale save is refused and leaves no entry.
    expect((await s.call("update_article", { articleId, version: article.version, newContent: article.content })).status).toBe(409);
    expect((await s.call("rename_article", { articleId, newName: "Amphore" })).status).toBe(200);
    expect((await s.call("rename_article", { articleId, newName: "Amphore" })).status).toBe(200); // same name: no change, no entry
    expect((await s.call("move_item", { type: "article", itemId: articleId, fromPathArray: [], toPathArray: [], toFolderId: "Salle « 2 » 😀" })).status).toBe(
      200,
    );
    expect((await s.call("add_folder", { pathArray: [], id: "Réserve" })).status).toBe(200);
    expect((await s.call("rename_folder", { pathArray: [], itemName: "Réserve", newName: "Réserves" })).status).toBe(200);
    expect((await s.call("move_item", { type: "folder", itemId: "Réserves", fromPathArray: [], toPathArray: [], toFolderId: "Salle « 2 » 😀" })).status).toBe(
      200,
    );
    // Refused: a name taken, an unknown article.
    expect((await s.call("add_folder", { pathArray: [], id: "Salle « 2 » 😀" })).status).toBe(409);
    expect((await s.call("rename_article", { articleId: 99_999_999, newName: "x" })).status).toBe(404);

    const log = await rows(museumId, start);
    expect(log.every((r) => r.actor_id === s.user.userId)).toBe(true);
    expect(log.map((r) => [r.action, r.target.replace(/\d+$/, "N"), r.detail])).toEqual([
      ["article.create", "article:N", { name: added.body.unformatted_name, path: [] }],
      ["folder.create", "folder:N", { name: "Salle « 2 » 😀", path: [] }],
      ["article.save", "article:N", { name: added.body.unformatted_name, version: article.version + 1 }],
      ["article.rename", "article:N", { name: "Amphore", from: added.body.unformatted_name }],
      ["article.move", "article:N", { name: "Amphore", to: ["Salle « 2 » 😀"] }],
      ["folder.create", "folder:N", { name: "Réserve", path: [] }],
      ["folder.rename", "folder:N", { name: "Réserves", from: "Réserve" }],
      ["folder.move", "folder:N", { name: "Réserves", to: ["Salle « 2 » 😀"] }],
    ]);
    expect(log[0]!.target).toBe(`article:${articleId}`);

    // In words on /audit, in both languages; no raw key.
    const en = await (await get("/audit", s.cookie, { "Accept-Language": "en" })).text();
    expect(en).toContain("renamed the folder “Réserve” to “Réserves”");
    expect(en).toContain("moved the folder “Réserves” to “Salle « 2 » 😀”");
    expect(en).toContain(`href="/article?id=${articleId}">“Amphore”</a> (version ${article.version + 1})`);
    expect(en).toContain("saved the draft of the article <a ");
    const fr = await (await get("/audit", s.cookie, { "Accept-Language": "fr" })).text();
    // A target that still exists is named as it is called today (decision 043).
    expect(fr).toContain("a créé le dossier « Réserves »");
    expect(fr).toContain(`a renommé l’article « ${added.body.unformatted_name} » en <a `);
    for (const html of [en, fr]) expect(table(html)).not.toMatch(/(article|folder)\.(create|save|rename|move)/);
  });

  it("50 creations at once leave 50 entries, each naming its own article", async () => {
    const s = await staffSession();
    const start = await lastAuditId(s.user.museumId);
    const made = await Promise.all(Array.from({ length: 50 }, () => s.call("add_article", { pathArray: [] })));
    expect(made.every((r) => r.status === 200)).toBe(true);
    const log = (await rows(s.user.museumId, start)).filter((r) => r.action === "article.create");
    expect(log.map((r) => r.target).sort()).toEqual(made.map((r) => `article:${r.body.id}`).sort());
    const names = new Map(made.map((r) => [`article:${r.body.id}`, r.body.unformatted_name]));
    expect(log.every((r) => r.detail.name === names.get(r.target))).toBe(true);
  });

  it("records a translator's correction and pretranslation, and an easy-to-read approval, in words", async () => {
    const admin = await staffSession();
    const { articleId } = await publishArticle(admin, texts(["Une amphore attique.", "Vers 530 avant notre ère."]));
    const translator = await memberSession(admin.user, { role: "translator", languages: ["de"] });
    const start = await lastAuditId(admin.user.museumId);
    expect((await translator.call("pretranslate", { articleId, langs: ["de"] })).status).toBe(200);
    const corrected = await translator.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische <Amphore>." });
    expect(corrected.status).toBe(200);
    // Refused (another language): no entry.
    expect((await translator.call("update_translation", { articleId, lang: "es", segmentId: "e1.content.0", text: "Un ánfora." })).status).toBe(403);
    const made = await admin.call("generate_easy_read", { articleId, version: 0 });
    expect(made.status).toBe(200);
    expect((await admin.call("approve_easy_read", { articleId, version: made.body.version })).status).toBe(200);

    const log = await rows(admin.user.museumId, start);
    expect(log.map((r) => r.action)).toEqual(["translations.pretranslate", "translations.update", "easy_read.generate", "easy_read.approve"]);
    expect(log[0]).toMatchObject({ actor_id: translator.user.userId, target: `article:${articleId}`, detail: { languages: ["de"] } });
    expect(log[1]).toMatchObject({
      actor_id: translator.user.userId,
      target: `article:${articleId}`,
      detail: { lang: "de", segment: "e1.content.0", text: "Eine attische <Amphore>." },
    });

    const en = await (await get("/audit", admin.cookie, { "Accept-Language": "en" })).text();
    expect(en).toContain("corrected the German translation of a text of the article");
    expect(en).toContain("“Eine attische &lt;Amphore&gt;.”");
    expect(en).toContain("approved the easy-to-read version of the article");
    expect(en).toContain("pretranslated the article");
    const fr = await (await get("/audit", admin.cookie, { "Accept-Language": "fr" })).text();
    expect(fr).toContain("a corrigé la traduction (Allemand)");
    expect(fr).toContain("a approuvé pour les visiteurs la version facile à lire");
    for (const html of [en, fr]) expect(table(html)).not.toMatch(/easy_read\.|translations\.(update|pretranslate)/);
  });

  it("keeps a long correction's first 200 characters only", async () => {
    const admin = await staffSession();
    const { articleId } = await publishArticle(admin, texts(["Une amphore attique."]));
    const start = await lastAuditId(admin.user.museumId);
    const text = "😀".repeat(500);
    expect((await admin.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text })).status).toBe(200);
    const [entry] = await rows(admin.user.museumId, start);
    expect(entry!.detail.text).toBe("😀".repeat(200));
  });
});
