import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { AUDIT_RETENTION_MS } from "~/audit/log.server";
import { TRASH_RETENTION_DAYS } from "~/models/trash.server";
import { auditEntries, createMember, get, staffSession, type StaffSession } from "./helpers";
import { runCron } from "./cron";

type Entry = { id: number; at: number; actorId: number | null; actorEmail: string; action: string; target: string; detail: Record<string, unknown> };
type Page = { timeZone: string; entries: Entry[]; nextCursor: string | null };

const audit = async (s: StaffSession, query = "") => {
  const response = await get(`/api/read/audit_log${query}`, s.cookie);
  return { status: response.status, body: (await response.json()) as Page & { error?: { code: string; field?: string } } };
};
const entries = async (s: StaffSession, query = "") => {
  const answer = await audit(s, query);
  expect(answer.status).toBe(200);
  return answer.body.entries;
};
/**
 * A staff session of a new museum whose audit log starts empty: the login that opened the session is an entry
 * too (decision 045), and these tests count the other actions' entries exactly.
 */
async function quietSession(): Promise<StaffSession> {
  const s = await staffSession();
  await env.DB.prepare("DELETE FROM audit_log WHERE museum_id = ? AND action = 'session.login'").bind(s.user.museumId).run();
  return s;
}
const count = async (museumId: number, action?: string) => (await auditEntries(museumId, { action })).length;

const setRole = (userId: number, role: string) => env.DB.prepare("UPDATE users SET role = ? WHERE id = ?").bind(role, userId).run();

describe("audit log: every recorded action", () => {
  let s: StaffSession;
  beforeAll(async () => {
    s = await quietSession();
  });

  it("records delete, restore, translation resets, glossary and QR changes by the member who made them", async () => {
    const added = await s.call("add_article", { pathArray: [] });
    const articleId = added.body.id as number;
    await s.call("rename_article", { articleId, newName: "Salle 2" });
    expect((await s.call("add_folder", { pathArray: [], id: "Réserve" })).status).toBe(200);

    expect((await s.call("delete_item", { type: "article", id: articleId, pathArray: [] })).status).toBe(200);
    // Deleting it again is a 404 and leaves no second entry.
    expect((await s.call("delete_item", { type: "article", id: articleId, pathArray: [] })).status).toBe(404);
    expect((await s.call("restore_item", { type: "article", id: articleId })).status).toBe(200);
    expect((await s.call("restore_item", { type: "article", id: articleId })).status).toBe(404);
    expect((await s.call("delete_item", { type: "folder", id: "Réserve", pathArray: [] })).status).toBe(200);

    expect((await s.call("reset_traductions", { articleId })).status).toBe(200);
    expect((await s.call("reset_translation", { articleId, lang: "de" })).status).toBe(200);

    const term = await s.call("add_glossary_term", { term: "Nymphéas", lang: "de", translation: "Seerosen" });
    expect(term.status).toBe(200);
    expect((await s.call("add_glossary_term", { term: "Nymphéas", lang: "de", translation: "x" })).status).toBe(409);
    expect((await s.call("delete_glossary_term", { id: term.body.id })).status).toBe(200);
    expect((await s.call("delete_glossary_term", { id: term.body.id })).status).toBe(404);

    const code = await s.call("add_qrcode", {});
    const qrcodeId = code.body.id as number;
    expect((await s.call("update_qrcode", { qrcodeId, articleId })).status).toBe(200);
    expect((await s.call("update_qrcode", { qrcodeId, articleId })).status).toBe(200); // already linked: no entry
    expect((await s.call("update_qrcode", { qrcodeId, articleId: null })).status).toBe(200);

    const list = await entries(s);
    const byAction = (action: string) => list.filter((e) => e.action === action);
    expect(list.every((e) => e.actorId === s.user.userId && e.actorEmail === s.user.email.toLowerCase())).toBe(true);
    expect(byAction("item.delete").map((e) => [e.target, e.detail.type, e.detail.name])).toEqual([
      [expect.stringMatching(/^folder:\d+$/), "folder", "Réserve"],
      [`article:${articleId}`, "article", "Salle 2"],
    ]);
    expect(byAction("item.restore").map((e) => [e.target, e.detail.name])).toEqual([[`article:${articleId}`, "Salle 2"]]);
    expect(byAction("translations.reset").map((e) => e.detail.languages)).toEqual([["de"], "all"]);
    expect(byAction("glossary.add")).toEqual([
      expect.objectContaining({ target: `glossary:${term.body.id}`, detail: { term: "Nymphéas", lang: "de", translation: "Seerosen" } }),
    ]);
    expect(byAction("glossary.delete")).toEqual([
      expect.objectContaining({ target: `glossary:${term.body.id}`, detail: { term: "Nymphéas", lang: "de", translation: "Seerosen" } }),
    ]);
    expect(byAction("qrcode.create")).toEqual([expect.objectContaining({ target: `qrcode:${qrcodeId}`, detail: { link: code.body.link } })]);
    expect(byAction("qrcode.relink")).toEqual([
      expect.objectContaining({ target: `qrcode:${qrcodeId}`, detail: expect.objectContaining({ articleId, name: "Salle 2" }) }),
    ]);
    expect(byAction("qrcode.unlink")).toEqual([
      expect.objectContaining({ target: `qrcode:${qrcodeId}`, detail: expect.objectContaining({ articleId: null, previousArticleId: articleId }) }),
    ]);
    // The tree's changes too (decision 124).
    expect(byAction("article.create").map((e) => [e.target, e.detail.name, e.detail.path])).toEqual([
      [`article:${articleId}`, added.body.unformatted_name, []],
    ]);
    expect(byAction("article.rename").map((e) => [e.target, e.detail.name, e.detail.from])).toEqual([
      [`article:${articleId}`, "Salle 2", added.body.unformatted_name],
    ]);
    expect(byAction("folder.create").map((e) => [e.target, e.detail.name])).toEqual([[expect.stringMatching(/^folder:\d+$/), "Réserve"]]);
    expect(list).toHaveLength(13);
    // Newest first.
    expect(list.map((e) => e.at)).toEqual([...list.map((e) => e.at)].sort((a, b) => b - a));
  });

  it("records the daily purge as the system, one entry per trashed item, in the purge's transaction", async () => {
    const t = await quietSession();
    const a = await t.call("add_article", { pathArray: [] });
    await t.call("delete_item", { type: "article", id: a.body.id, pathArray: [] });
    const old = Date.now() - (TRASH_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare("UPDATE articles SET deleted_at = ? WHERE id = ?").bind(old, a.body.id).run();
    await runCron("30 3 * * *", new Date());
    const purged = (await entries(t, "?action=item.purge"))[0]!;
    expect(purged).toMatchObject({ actorId: null, actorEmail: "", target: `article:${a.body.id}`, detail: { type: "article", automatic: true } });
    expect(await entries(t, "?actor=system")).toEqual([purged]);
  });

  it("50 parallel deletes of one article leave exactly one entry", async () => {
    const t = await quietSession();
    const a = await t.call("add_article", { pathArray: [] });
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.call("delete_item", { type: "article", id: a.body.id, pathArray: [] })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 404)).toHaveLength(49);
    expect(await count(t.user.museumId, "item.delete")).toBe(1);
  });
});

describe("audit log: filters, pages, CSV", () => {
  let s: StaffSession;
  let colleague: number;
  const DAY = 86_400_000;
  // 2026-03-10 00:30 in Paris is 2026-03-09 23:30 UTC: the day counts in the museum's zone.
  const parisHalfPastMidnight = Date.UTC(2026, 2, 9, 23, 30);
  beforeAll(async () => {
    s = await quietSession();
    colleague = (await createMember(s.user, { role: "editor", email: `Ærøskøbing-${Date.now()}@example.org`.toLowerCase() })).userId;
    const rows: [number, number | null, string, string, string, string][] = [
      [parisHalfPastMidnight, s.user.userId, s.user.email, "item.delete", "article:1", JSON.stringify({ type: "article", name: '=HYPERLINK("http://x")' })],
      [
        parisHalfPastMidnight - 2 * 60 * 60 * 1000,
        colleague,
        "ærøskøbing@example.org",
        "glossary.add",
        "glossary:3",
        JSON.stringify({ term: 'Le "Penseur", 1880\r\nbronze', lang: "" }),
      ],
      [parisHalfPastMidnight + DAY, colleague, "ærøskøbing@example.org", "qrcode.create", "qrcode:9", JSON.stringify({ link: "+AB12" })],
      [parisHalfPastMidnight + 2 * DAY, null, "", "item.purge", "folder:4", JSON.stringify({ type: "folder", name: "-Réserve 😀 ש" })],
    ];
    for (const [at, actorId, email, action, target, detail] of rows) {
      await env.DB.prepare("INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .bind(s.user.museumId, at, actorId, email, action, target, detail)
        .run();
    }
  });

  it("filters by days in the museum's time zone, both days included", async () => {
    expect((await entries(s, "?from=2026-03-10&to=2026-03-10")).map((e) => e.action)).toEqual(["item.delete"]);
    expect((await entries(s, "?from=2026-03-09&to=2026-03-09")).map((e) => e.action)).toEqual(["glossary.add"]);
    expect((await entries(s, "?from=2026-03-10&to=2026-03-11")).map((e) => e.action)).toEqual(["qrcode.create", "item.delete"]);
    expect((await entries(s, "?to=2026-03-11")).map((e) => e.action)).toEqual(["qrcode.create", "item.delete", "glossary.add"]);
    expect((await entries(s, "?from=2026-03-12")).map((e) => e.action)).toEqual(["item.purge"]);
  });

  it("filters by person (id, address in any case, system) and by action or group", async () => {
    expect((await entries(s, `?actor=${colleague}`)).map((e) => e.action)).toEqual(["qrcode.create", "glossary.add"]);
    expect((await entries(s, `?actor=${encodeURIComponent("ÆRØSKØBING@EXAMPLE.ORG")}`)).map((e) => e.action)).toEqual(["qrcode.create", "glossary.add"]);
    expect((await entries(s, `?actor=${encodeURIComponent(s.user.email.toUpperCase())}`)).map((e) => e.action)).toEqual(["item.delete"]);
    expect((await entries(s, "?actor=system")).map((e) => e.action)).toEqual(["item.purge"]);
    expect((await entries(s, "?action=item.*")).map((e) => e.action)).toEqual(["item.purge", "item.delete"]);
    expect((await entries(s, "?action=glossary.add&actor=" + colleague)).map((e) => e.target)).toEqual(["glossary:3"]);
    expect(await entries(s, "?action=member.*")).toEqual([]);
  });

  it("pages with a cursor, newest first, every entry once", async () => {
    const first = await audit(s, "?limit=3");
    expect(first.body.entries).toHaveLength(3);
    expect(first.body.nextCursor).toMatch(/^\d+:\d+$/);
    const second = await audit(s, `?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body.entries.map((e) => e.action)).toEqual(["glossary.add"]);
    expect(second.body.nextCursor).toBeNull();
    expect(first.body.timeZone).toBe("Europe/Paris");
  });

  it("refuses malformed filters with 400 naming the field", async () => {
    const cases: [string, string][] = [
      ["?from=2026-02-30", "from"],
      ["?from=10/03/2026", "from"],
      ["?to=2026-13-01", "to"],
      ["?from=2026-03-11&to=2026-03-10", "from"],
      ["?action=item.explode", "action"],
      ["?action=*", "action"],
      ["?action=nothing.*", "action"],
      ["?actor=nobody", "actor"],
      [`?actor=${"a".repeat(400)}@x`, "actor"],
      ["?cursor=abc", "cursor"],
      ["?limit=0", "limit"],
      ["?limit=201", "limit"],
      ["?format=xml", "format"],
    ];
    for (const [query, field] of cases) {
      const answer = await audit(s, query);
      expect([query, answer.status, answer.body.error?.field]).toEqual([query, 400, field]);
    }
  });

  it("exports CSV: BOM, RFC 4180 quoting, formula guard, odd Unicode, the same filters", async () => {
    const response = await get("/api/read/audit_log?format=csv", s.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="muselingo-audit-.*\.csv"$/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith("\uFEFFdate (Europe/Paris),person,action,target,details\r\n")).toBe(true);
    const lines = text.slice(1).split("\r\n");
    expect(lines[1]).toBe("2026-03-12 00:30:00,system,item.purge,folder:4,type: folder; name: -Réserve 😀 ש");
    expect(lines[2]).toBe("2026-03-11 00:30:00,ærøskøbing@example.org,qrcode.create,qrcode:9,link: +AB12");
    expect(lines[3]).toBe(`2026-03-10 00:30:00,${s.user.email.toLowerCase()},item.delete,article:1,"type: article; name: =HYPERLINK(""http://x"")"`);
    expect(lines[4]).toBe('2026-03-09 22:30:00,ærøskøbing@example.org,glossary.add,glossary:3,"term: Le ""Penseur"", 1880');
    expect(lines[5]).toBe('bronze"');
    expect(lines[6]).toBe("");
    expect(lines).toHaveLength(7);

    const filtered = await (await get("/api/read/audit_log?format=csv&action=qrcode.*", s.cookie)).text();
    expect(filtered.split("\r\n").filter(Boolean)).toHaveLength(2);
    expect((await get("/api/read/audit_log?format=csv&from=x", s.cookie)).status).toBe(400);
  });

  it("guards every cell a spreadsheet would run", async () => {
    const { csvCell } = await import("~/audit/csv");
    expect(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "a=b", ""].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", '"\'\rx"', "a=b", ""]);
  });
});

describe("audit log: the /audit page", () => {
  it("shows entries in words, escapes names, links targets that exist, and is for admins only", async () => {
    const s = await quietSession();
    const added = await s.call("add_article", { pathArray: [] });
    await s.call("rename_article", { articleId: added.body.id, newName: "Salle 2" });
    await s.call("delete_item", { type: "article", id: added.body.id, pathArray: [] });
    await env.DB.prepare(
      "INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail) VALUES (?, ?, NULL, '', 'glossary.delete', 'glossary:999999', ?)",
    )
      .bind(s.user.museumId, Date.now() + 1000, JSON.stringify({ term: "<strong>x</strong> <target>y</target> <script>alert(1)</script>" }))
      .run();
    const page = await get("/audit", s.cookie, { "Accept-Language": "en" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("moved the article <span>“Salle 2”</span> to the trash");
    expect(html).toContain("removed “&lt;strong&gt;x&lt;/strong&gt; &lt;target&gt;y&lt;/target&gt; &lt;script&gt;alert(1)&lt;/script&gt;” from the glossary");
    expect(html).not.toContain("<strong>x");
    expect(html).not.toContain('href="/article?id=');
    await s.call("restore_item", { type: "article", id: added.body.id });
    expect(await (await get("/audit", s.cookie, { "Accept-Language": "en" })).text()).toContain(`href="/article?id=${added.body.id}">“Salle 2”</a>`);
    const fr = await (await get("/audit?action=item.*", s.cookie)).text();
    expect(fr).toContain("a restauré l&#x27;article");
    expect(await (await get("/dashboard", s.cookie)).text()).toContain('href="/audit"');
    await setRole(s.user.userId, "editor");
    expect((await get("/audit", s.cookie)).status).toBe(403);
    // The dashboard's tile is for admins only.
    const dashboard = await get("/dashboard", s.cookie);
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).not.toContain('href="/audit"');
  });
});

describe("audit log: tenancy, roles, retention", () => {
  it("never shows another museum's entries, even filtered by one of its members", async () => {
    const a = await quietSession();
    const b = await quietSession();
    await b.call("add_qrcode", {});
    expect(await count(b.user.museumId, "qrcode.create")).toBe(1);
    expect(await entries(a)).toEqual([]);
    expect(await entries(a, `?actor=${b.user.userId}`)).toEqual([]);
    expect(await entries(a, `?actor=${encodeURIComponent(b.user.email)}`)).toEqual([]);
    const csv = await (await get("/api/read/audit_log?format=csv", a.cookie)).text();
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(1);
  });

  it("is for admins only; without a session 401; POST 405", async () => {
    const s = await quietSession();
    for (const role of ["editor", "translator", "viewer"]) {
      await setRole(s.user.userId, role);
      const answer = await audit(s);
      expect([role, answer.status, answer.body.error?.code]).toEqual([role, 403, "forbidden"]);
      expect((await get("/api/read/audit_log?format=csv", s.cookie)).status).toBe(403);
    }
    await setRole(s.user.userId, "admin");
    expect((await audit(s)).status).toBe(200);
    expect((await get("/api/read/audit_log")).status).toBe(401);
    expect((await SELF.fetch("http://localhost/api/read/audit_log", { method: "POST", headers: { Cookie: s.cookie } })).status).toBe(405);
  });

  it("the daily cron prunes entries older than two years and keeps the rest", async () => {
    const s = await quietSession();
    const now = Date.now();
    for (const at of [now - AUDIT_RETENTION_MS - 60_000, now - AUDIT_RETENTION_MS - 5 * 86_400_000, now - AUDIT_RETENTION_MS + 86_400_000, now - 1000]) {
      await env.DB.prepare("INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action) VALUES (?, ?, NULL, '', 'item.purge')")
        .bind(s.user.museumId, at)
        .run();
    }
    await runCron("30 3 * * *", new Date());
    const left = await env.DB.prepare("SELECT at FROM audit_log WHERE museum_id = ? ORDER BY at").bind(s.user.museumId).all<{ at: number }>();
    expect(left.results.map((r) => r.at)).toEqual([now - AUDIT_RETENTION_MS + 86_400_000, now - 1000]);
  });
});
