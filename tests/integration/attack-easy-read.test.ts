import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, postJson, publishArticle, staffSession, texts, type StaffSession } from "./helpers";

// Audit of issue 22 §2 (audit22): the easy-to-read calls and page under another museum's ids, odd forms,
// approve racing an edit, 50 identical approvals, and the visitor's `muselingo_easy` cookie with junk.

async function draft(s: StaffSession) {
  const made = await publishArticle(s, texts(["Une amphore attique, vers 530.", "Restaurée en 1987."]));
  const generated = await s.call("generate_easy_read", { articleId: made.articleId, version: 0 });
  expect(generated.status).toBe(200);
  return { ...made, version: generated.body.version as number };
}

function postForm(path: string, fields: Record<string, string>, cookie: string) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie, Origin: BASE, Host: "localhost" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const row = (articleId: number) =>
  env.DB.prepare("SELECT version, content, approved_version, approved_content FROM easy_read_versions WHERE article_id = ?")
    .bind(articleId)
    .first<{ version: number; content: string; approved_version: number | null; approved_content: string | null }>();

describe("attack: easy-to-read", () => {
  it("the page's forms with another museum's article: 404 for every intent, nothing changed", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const d = await draft(s);
    const before = await row(d.articleId);
    const forms: Record<string, string>[] = [
      { intent: "generate", version: "1" },
      { intent: "save", version: "1", "f:e1.content": "Volé" },
      { intent: "approve", version: "1" },
      { intent: "delete" },
    ];
    for (const form of forms) {
      const r = await postForm(`/easy-read?id=${d.articleId}`, form, other.cookie);
      expect([form.intent, r.status]).toEqual([form.intent, 404]);
    }
    expect(await row(d.articleId)).toEqual(before);
  });

  it("odd forms on the page are 400 (never 500): junk ids, versions and field names", async () => {
    const s = await staffSession();
    const d = await draft(s);
    const cases: [string, Record<string, string>][] = [
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "abc", "f:e1.content": "x" }],
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "1.5", "f:e1.content": "x" }],
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "1e400", "f:e1.content": "x" }],
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "1", "f:__proto__": "x" }],
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "1", "f:e1.content": "nul\u0000" }],
      [`/easy-read?id=${d.articleId}`, { intent: "save", version: "1", "f:e1.content": "x".repeat(20_001) }],
      [`/easy-read?id=${d.articleId}`, { intent: "approve", version: "-1" }],
      [`/easy-read?id=${d.articleId}`, { intent: "explode" }],
      ["/easy-read?id=abc", { intent: "delete" }],
      ["/easy-read?id=-1", { intent: "approve", version: "1" }],
      ["/easy-read?id=%ED%A0%80", { intent: "generate", version: "0" }],
    ];
    for (const [path, form] of cases) {
      const r = await postForm(path, form, s.cookie);
      const label = `${path} ${JSON.stringify(form).slice(0, 60)}`;
      expect([label, r.status]).toEqual([label, 400]);
    }
    for (const id of ["abc", "0", "-1", "1e3", "%ED%A0%80", "99999999999999999999"]) {
      expect([id, (await get(`/easy-read?id=${id}`, s.cookie)).status]).toEqual([id, 404]);
    }
    // Arrays and objects where the API wants a number or a record.
    for (const body of [
      { articleId: [d.articleId], version: 1 },
      { articleId: d.articleId, version: [1] },
      { articleId: d.articleId, version: 1, texts: [["e1.content", "x"]] },
      { articleId: d.articleId, version: 1, texts: { "e1.content": ["x"] } },
    ]) {
      const r = await s.call("update_easy_read", body);
      expect([JSON.stringify(body).slice(0, 60), r.status]).toEqual([JSON.stringify(body).slice(0, 60), 400]);
    }
    const raw = await postJson("/api/manage/approve_easy_read", `{"articleId": ${d.articleId}, "version": 1e400}`, { Cookie: s.cookie });
    expect(raw.status).toBe(400);
    expect((await row(d.articleId))?.approved_version).toBeNull();
  });

  it("approve racing an edit from the same version: visitors get exactly the text that was approved", async () => {
    const s = await staffSession();
    for (let round = 0; round < 3; round++) {
      const d = await draft(s);
      const approvedText = (await row(d.articleId))!.content;
      const [edited, approved] = await Promise.all([
        s.call("update_easy_read", { articleId: d.articleId, version: d.version, texts: { "e1.content": `Texte changé ${round}` } }),
        s.call("approve_easy_read", { articleId: d.articleId, version: d.version }),
      ]);
      expect([edited.status, approved.status].every((status) => status === 200 || status === 409)).toBe(true);
      const now = (await row(d.articleId))!;
      if (approved.status === 200) {
        // What was approved is the version the approver saw, never the concurrent edit.
        expect(now.approved_version).toBe(d.version);
        expect(now.approved_content).toBe(approvedText);
      } else {
        expect(edited.status).toBe(200);
        expect(now.approved_content).toBeNull();
      }
    }
  });

  it("50 identical approvals: one 200, the rest 409, one audit entry", async () => {
    const s = await staffSession();
    const d = await draft(s);
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("approve_easy_read", { articleId: d.articleId, version: d.version })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(49).fill(409)]);
    const audit = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE target = ? AND action = 'easy_read.approve'")
      .bind(`article:${d.articleId}`)
      .first<{ n: number }>();
    expect(audit!.n).toBe(1);
  });

  it("the visitor's easy cookie with junk reads as off; ?easy= junk changes nothing; never 500", async () => {
    const s = await staffSession();
    const d = await draft(s);
    expect((await s.call("approve_easy_read", { articleId: d.articleId, version: d.version })).status).toBe(200);
    for (const cookie of [
      "muselingo_easy=%",
      "muselingo_easy=2",
      `muselingo_easy=${"1".repeat(5000)}`,
      "muselingo_easy=1%00",
      "muselingo_easy=<script>",
      'muselingo_easy="1',
      "muselingo_easy",
    ]) {
      const r = await get(`/r/${d.link}`, undefined, { Cookie: cookie, "Accept-Language": "fr" });
      expect([cookie.slice(0, 30), r.status]).toEqual([cookie.slice(0, 30), 200]);
      expect(await r.text()).not.toContain("▸");
    }
    for (const easy of ["2", "true", "%00", "1%0D%0ASet-Cookie:%20x=1", "<script>"]) {
      const r = await get(`/r/${d.link}?easy=${easy}`, undefined, { "Accept-Language": "fr" });
      expect([easy, r.status]).toEqual([easy, 200]);
      expect(r.headers.getSetCookie().some((c) => c.startsWith("muselingo_easy"))).toBe(false);
      expect(r.headers.getSetCookie().some((c) => c.startsWith("x="))).toBe(false);
    }
    const on = await get(`/r/${d.link}?easy=1`, undefined, { "Accept-Language": "fr" });
    expect(on.headers.getSetCookie().some((c) => c.startsWith("muselingo_easy=1"))).toBe(true);
  });
});
