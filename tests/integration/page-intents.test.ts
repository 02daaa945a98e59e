import { SELF } from "cloudflare:test";
import { decode } from "turbo-stream";
import { describe, expect, it } from "vitest";
import { BASE, staffSession, type StaffSession } from "./helpers";

// Staff pages that take several intents (issue 31 §3): one handler per intent, one refusal for an unknown or
// missing intent (400 naming the field `intent`), and a domain error mapped the same way on every page:
// `{intent, ok: false, errors: {field: reason}, error: {code, field, reason}}` with the error's status.

type Refusal = { intent?: string; ok?: boolean; errors?: Record<string, string>; error?: { code: string; field?: string; reason?: string }; target?: number };

/**
 * A page form posted as the browser's fetch posts it (Remix single fetch: `<path>.data`, answered as a turbo-stream):
 * the action's answer, decoded, and its status.
 */
async function post(s: StaffSession, path: string, _route: string, fields: Record<string, string>) {
  const [pathname, query] = path.split("?");
  const response = await SELF.fetch(`${BASE}${pathname}.data${query ? `?${query}` : ""}`, {
    method: "POST",
    headers: { Cookie: s.cookie, Host: "localhost", Origin: BASE },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  const text = await response.text();
  const decoded = await decode(new Response(text).body!);
  await decoded.done;
  const value = decoded.value as { data?: Refusal } & Refusal;
  return { status: response.status, text, body: ("data" in value ? value.data : value) as Refusal };
}

async function setup() {
  const s = await staffSession();
  const added = await s.call("add_article", { pathArray: [] });
  const articleId = added.body.id as number;
  return {
    s,
    articleId,
    pages: [
      { path: "/team", route: "routes/team" },
      { path: "/glossary", route: "routes/glossary" },
      { path: "/settings", route: "routes/settings" },
      { path: `/easy-read?id=${articleId}`, route: "routes/easy-read" },
      { path: `/article/history?id=${articleId}`, route: "routes/article_.history" },
      { path: "/qrcodes/print", route: "routes/qrcodes.print" },
    ],
  };
}

const HUGE = "intent".repeat(2000);

describe("staff pages' intents (issue 31 §3)", () => {
  it("a missing intent is 400 `required` and an unknown one 400 `invalid`, both naming the field intent, on every page", { timeout: 60_000 }, async () => {
    const { s, pages } = await setup();
    for (const { path, route } of pages) {
      const missing = await post(s, path, route, {});
      expect([path, missing.status, missing.body.error?.field, missing.body.error?.reason, missing.body.errors]).toEqual([
        path,
        400,
        "intent",
        "required",
        { intent: "required" },
      ]);
      for (const intent of ["drop-tables", "__proto__", "constructor", "toString", "hasOwnProperty", "MUSEUM", "add\u0000", "\ud800", "é\u0301", HUGE]) {
        const unknown = await post(s, path, route, { intent });
        expect([path, intent.slice(0, 20), unknown.status, unknown.body.error?.field, unknown.body.error?.reason, unknown.body.ok]).toEqual([
          path,
          intent.slice(0, 20),
          400,
          "intent",
          "invalid",
          false,
        ]);
        // What was sent is never echoed back.
        expect(unknown.text.includes(HUGE)).toBe(false);
        expect(unknown.body.intent).toBeUndefined();
      }
    }
  });

  it("50 identical unknown intents at once on one page, and 20 on each page: all 400, nothing else", { timeout: 60_000 }, async () => {
    const { s, pages } = await setup();
    const same = await Promise.all(Array.from({ length: 50 }, () => post(s, "/settings", "routes/settings", { intent: "explode" })));
    expect(new Set(same.map((r) => r.status))).toEqual(new Set([400]));
    const mixed = await Promise.all(pages.flatMap(({ path, route }) => Array.from({ length: 20 }, () => post(s, path, route, { intent: "nope" }))));
    expect(new Set(mixed.map((r) => r.status))).toEqual(new Set([400]));
  });

  it("each intent's domain refusal comes back the same way on every page: its status, its intent, the field and its reason", { timeout: 90_000 }, async () => {
    const { s, articleId } = await setup();
    const glossaryTerm = await post(s, "/glossary", "routes/glossary", { intent: "add", mode: "never", term: "Amphore" });
    expect(glossaryTerm.status).toBe(200);
    const cases: [string, string, Record<string, string>, number, string][] = [
      ["/team", "routes/team", { intent: "invite", email: s.user.email, role: "editor" }, 409, "email"],
      ["/team", "routes/team", { intent: "revoke_invitation", id: "999999" }, 404, "id"],
      ["/team", "routes/team", { intent: "update_member", userId: "999999", role: "editor" }, 404, "userId"],
      ["/team", "routes/team", { intent: "remove_member", userId: String(s.user.userId) }, 409, "userId"],
      ["/team", "routes/team", { intent: "password_reset_link", userId: "999999" }, 404, "userId"],
      ["/glossary", "routes/glossary", { intent: "add", mode: "never", term: "Amphore" }, 409, "term"],
      ["/glossary", "routes/glossary", { intent: "delete", id: "abc" }, 400, "id"],
      ["/settings", "routes/settings", { intent: "museum", name: "", sourceLang: "fr", timezone: "UTC" }, 400, "name"],
      [
        "/settings",
        "routes/settings",
        { intent: "password", currentPassword: "not the password", newPassword: "a brand new secret", confirmPassword: "a brand new secret" },
        400,
        "currentPassword",
      ],
      ["/settings", "routes/settings", { intent: "end_session", session: "no-such-session" }, 404, "session"],
      ["/easy-read?id=999999", "routes/easy-read", { intent: "generate", version: "0" }, 404, "articleId"],
      ["/easy-read?id=999999", "routes/easy-read", { intent: "save", version: "1", "f:e1.content": "x" }, 404, "articleId"],
      ["/easy-read?id=999999", "routes/easy-read", { intent: "approve", version: "1" }, 404, "articleId"],
      ["/easy-read?id=999999", "routes/easy-read", { intent: "delete" }, 404, "articleId"],
      [`/easy-read?id=${articleId}`, "routes/easy-read", { intent: "save", version: "abc", "f:e1.content": "x" }, 400, "version"],
      [`/article/history?id=${articleId}`, "routes/article_.history", { intent: "restore", version: "99" }, 404, "version"],
      ["/article/history?id=999999", "routes/article_.history", { intent: "restore", version: "1" }, 404, "id"],
      ["/qrcodes/print", "routes/qrcodes.print", { intent: "create-code", articleId: "999999" }, 404, "articleId"],
      ["/qrcodes/print", "routes/qrcodes.print", { intent: "create-code", articleId: "abc" }, 400, "articleId"],
    ];
    for (const [path, route, fields, status, field] of cases) {
      const r = await post(s, path, route, fields);
      const label = `${path} ${fields.intent}`;
      expect([label, r.status, r.body.intent, r.body.ok, r.body.error?.field], r.text.slice(0, 300)).toEqual([label, status, fields.intent, false, field]);
      expect([label, r.body.errors?.[field]]).toEqual([label, r.body.error?.reason ?? "invalid"]);
    }
    // The team's refusal still names the member it is about, for the page to put focus there.
    const gone = await post(s, "/team", "routes/team", { intent: "update_member", userId: "999999", role: "editor" });
    expect(gone.body.target).toBe(999999);
    // Deleting a term already gone is no refusal (the list reloads either way), and ending the other sessions always works.
    expect((await post(s, "/glossary", "routes/glossary", { intent: "delete", id: "999999" })).body).toMatchObject({ intent: "delete", ok: true });
    expect((await post(s, "/settings", "routes/settings", { intent: "end_other_sessions" })).body).toMatchObject({ intent: "end_other_sessions", ok: true });
  });

  it("a logged-out post with an unknown intent still goes to /login, before the intent is looked at", async () => {
    const response = await SELF.fetch(`${BASE}/glossary`, {
      method: "POST",
      headers: { Host: "localhost", Origin: BASE },
      body: new URLSearchParams({ intent: "nope" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain("/login");
  });
});
