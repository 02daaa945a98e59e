import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LINK_GUESS_MAX } from "~/teams/invitations.server";
import { auditEntries, get, postJson, sessionCookieFrom } from "./helpers";
import { addMember, cookieWorks, freshAddress, invite, newAdmin, PASSWORD, pathOf, postForm, uniqueEmail, followLink, userRow } from "./team-helpers";

const tokenOf = (url: string) => pathOf(url).split("/").pop()!;

async function tokenRow(id: number) {
  return env.DB.prepare("SELECT * FROM member_tokens WHERE id = ?").bind(id).first<Record<string, unknown>>();
}

describe("invitations", () => {
  it("makes a single-use 7-day link whose token is stored only as a hash, and the invitee joins with the invitation's role", async () => {
    const admin = await newAdmin();
    const email = `  Curator.${Date.now()}@Example.ORG `;
    const invited = await invite(admin, { email, role: "translator", languages: ["de", "DE", "it"] });
    expect(invited.status).toBe(200);
    const url = invited.body.invitationUrl as string;
    expect(url).toMatch(/^http:\/\/localhost\/invite\/[1-9]\d*\.[A-Za-z0-9_-]{43}$/);
    const expiresAt = invited.body.expiresAt as number;
    expect(expiresAt - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(7 * 24 * 3600_000);

    const row = await tokenRow(invited.body.id as number);
    const token = tokenOf(url);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.email).toBe(email.trim().toLowerCase());
    expect(row?.languages).toBe('["de","it"]');

    // The list shows it pending, without any token or hash.
    const listed = await admin.read("/api/read/members");
    expect(listed.status).toBe(200);
    const text = JSON.stringify(listed.body);
    expect(text).not.toContain(token);
    expect(text).not.toContain(row?.token_hash as string);
    expect((listed.body as { invitations: { email: string }[] }).invitations.map((i) => i.email)).toEqual([email.trim().toLowerCase()]);

    const accepted = await followLink(url);
    expect(accepted.status).toBe(200);
    const body = (await accepted.json()) as { user: { id: number; email: string; role: string; languages: string[] } };
    expect(body.user).toMatchObject({ email: email.trim().toLowerCase(), role: "translator", languages: ["de", "it"] });
    expect(JSON.stringify(body)).not.toContain(token);
    const cookie = sessionCookieFrom(accepted);
    expect(await cookieWorks(cookie)).toBe(true);
    expect(await userRow(body.user.id)).toMatchObject({ museum_id: admin.user.museumId, role: "translator", languages: '["de","it"]' });

    // Single use: the same link again is "used or not valid".
    const again = await followLink(url);
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { reason: string; field: string } }).error).toMatchObject({ field: "token", reason: "link_invalid" });

    const after = (await admin.read("/api/read/members")).body as { members: { email: string; role: string }[]; invitations: unknown[] };
    expect(after.invitations).toEqual([]);
    expect(after.members.map((m) => m.role).sort()).toEqual(["admin", "translator"]);

    const audit = await auditEntries(admin.user.museumId);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["member.invite", "member.join"]));
    const join = audit.find((a) => a.action === "member.join")!;
    expect(join).toMatchObject({ actor_id: body.user.id, target: `user:${body.user.id}` });
    // The token is never in the audit log, in any form.
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(JSON.stringify(audit)).not.toContain(row?.token_hash as string);
  });

  it("ignores languages for a role other than translator, and a translator without languages covers all", async () => {
    const admin = await newAdmin();
    const editor = await invite(admin, { email: uniqueEmail(), role: "editor", languages: ["de"] });
    expect((await tokenRow(editor.body.id as number))?.languages).toBe("[]");
    const translator = await addMember(admin, "translator");
    expect((await userRow(translator.userId))?.languages).toBe("[]");
  });

  it("refuses an expired link with its own reason, on the page (410) and the API (404)", async () => {
    const admin = await newAdmin();
    const invited = await invite(admin, { email: uniqueEmail(), role: "editor" });
    await env.DB.prepare("UPDATE member_tokens SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, invited.body.id)
      .run();
    const url = invited.body.invitationUrl as string;
    const page = await get(pathOf(url), undefined, { "CF-Connecting-IP": freshAddress() });
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toMatch(/expiré|expired/);
    const used = await followLink(url);
    expect(used.status).toBe(404);
    expect(((await used.json()) as { error: { reason: string } }).error.reason).toBe("link_expired");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE museum_id = ?").bind(admin.user.museumId).first("n")).toBe(1);
  });

  it("revokes a pending invitation; the link then says so; another museum's invitation is 404 and stays pending", async () => {
    const admin = await newAdmin();
    const other = await newAdmin();
    const mine = await invite(admin, { email: uniqueEmail(), role: "viewer" });
    const theirs = await invite(other, { email: uniqueEmail(), role: "viewer" });

    const cross = await admin.call("revoke_invitation", { id: theirs.body.id });
    expect(cross.status).toBe(404);
    expect((await tokenRow(theirs.body.id as number))?.revoked_at).toBeNull();

    const revoked = await admin.call("revoke_invitation", { id: mine.body.id });
    expect(revoked.status).toBe(200);
    expect((await admin.call("revoke_invitation", { id: mine.body.id })).status).toBe(404);
    const used = await followLink(mine.body.invitationUrl as string);
    expect(used.status).toBe(404);
    expect(((await used.json()) as { error: { reason: string } }).error.reason).toBe("link_revoked");
    const entry = (await auditEntries(admin.user.museumId)).find((a) => a.action === "member.revoke_invitation");
    expect(entry?.target).toBe(`invitation:${mine.body.id}`);
    expect(entry!.detail).toMatchObject({ role: "viewer" });
    // The other museum's log heard nothing of it.
    expect((await auditEntries(other.user.museumId)).map((a) => a.action)).toEqual(["session.login", "member.invite"]);
  });

  it("50 parallel uses of one link make one account and one session", async () => {
    const admin = await newAdmin();
    const email = uniqueEmail("race");
    const invited = await invite(admin, { email, role: "editor" });
    const url = invited.body.invitationUrl as string;
    const responses = await Promise.all(Array.from({ length: 50 }, () => followLink(url)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    // The others lost the claim: the link reads as used (or the address as taken), never a 500.
    expect(statuses.every((s) => s === 200 || s === 404 || s === 409)).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first("n")).toBe(1);
    const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: number }>();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(user!.id).first("n")).toBe(1);
    expect(await auditEntries(admin.user.museumId, { action: "member.join" })).toHaveLength(1);
    expect((await tokenRow(invited.body.id as number))?.user_id).toBe(user!.id);
  });

  it("limits link guesses per client network; a known link gives its attempt back", async () => {
    const admin = await newAdmin();
    const invited = await invite(admin, { email: uniqueEmail(), role: "viewer" });
    const url = invited.body.invitationUrl as string;
    const address = freshAddress();
    // A known link, looked at many times, does not use the budget up.
    for (let i = 0; i < LINK_GUESS_MAX + 3; i++) {
      expect((await get(pathOf(url), undefined, { "CF-Connecting-IP": address })).status).toBe(200);
    }
    for (let i = 0; i < LINK_GUESS_MAX; i++) {
      const guess = await postJson(`/invite/${"A".repeat(43 - String(i).length)}${i}`, { password: PASSWORD }, { "CF-Connecting-IP": address });
      expect(guess.status).toBe(404);
    }
    const blocked = await followLink(url, PASSWORD, { "CF-Connecting-IP": address });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await get(pathOf(url), undefined, { "CF-Connecting-IP": address })).status).toBe(429);
    // Another network is not blocked (the same IPv6 /64 would be: the key is the client's network).
    expect((await followLink(url)).status).toBe(200);
  });

  it("refuses an address that already has an account (any museum) with 409 email; a new invitation of a pending address replaces the old", async () => {
    const admin = await newAdmin();
    const other = await newAdmin();
    const taken = await invite(admin, { email: other.user.email.toUpperCase(), role: "editor" });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "conflict", field: "email", reason: "already_member" });

    const email = uniqueEmail();
    const first = await invite(admin, { email, role: "viewer" });
    const second = await invite(admin, { email, role: "editor" });
    expect(second.status).toBe(200);
    const listed = (await admin.read("/api/read/members")).body as { invitations: { email: string; role: string }[] };
    expect(listed.invitations).toEqual([expect.objectContaining({ email, role: "editor" })]);
    const old = await followLink(first.body.invitationUrl as string);
    expect(((await old.json()) as { error: { reason: string } }).error.reason).toBe("link_revoked");
    const joined = await followLink(second.body.invitationUrl as string);
    expect(((await joined.json()) as { user: { role: string } }).user.role).toBe("editor");
  });

  it("an invitation to an address that got an account elsewhere meanwhile answers 409 and creates nothing", async () => {
    const a = await newAdmin();
    const b = await newAdmin();
    const email = uniqueEmail();
    const fromA = await invite(a, { email, role: "viewer" });
    const fromB = await invite(b, { email, role: "viewer" });
    expect((await followLink(fromA.body.invitationUrl as string)).status).toBe(200);
    const second = await followLink(fromB.body.invitationUrl as string);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { error: { field: string } }).error.field).toBe("email");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first("n")).toBe(1);
    expect((await tokenRow(fromB.body.id as number))?.used_at).toBeNull();
  });

  it.each([
    ["email", { email: "é@example.org", role: "editor" }],
    ["email", { email: "a\u200b@example.org", role: "editor" }],
    ["email", { email: "a@exa\u0000mple.org", role: "editor" }],
    ["email", { email: "ﬁ@example.org", role: "editor" }],
    ["email", { email: "   ", role: "editor" }],
    ["email", { email: `${"a".repeat(250)}@example.org`, role: "editor" }],
    ["email", { email: 12, role: "editor" }],
    ["email", { role: "editor" }],
    ["role", { email: "x@example.org", role: "owner" }],
    ["role", { email: "x@example.org" }],
    ["languages.0", { email: "x@example.org", role: "translator", languages: ["xx-nowhere"] }],
    ["languages", { email: "x@example.org", role: "translator", languages: "de" }],
    ["extra", { email: "x@example.org", role: "editor", extra: 1 }],
  ])("answers 400 naming %s for a malformed invitation", async (field, body) => {
    const admin = await newAdmin();
    const response = await invite(admin, body);
    expect(response.status).toBe(400);
    expect((response.body.error as { field: string }).field).toBe(field);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM member_tokens WHERE museum_id = ?").bind(admin.user.museumId).first("n")).toBe(0);
  });

  it("answers 400 password, 415 and malformed JSON on the link, and keeps the link usable", async () => {
    const admin = await newAdmin();
    const invited = await invite(admin, { email: uniqueEmail(), role: "viewer" });
    const url = invited.body.invitationUrl as string;
    for (const password of ["short", " ".repeat(12), "x".repeat(201)]) {
      const response = await followLink(url, password);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { field: string } }).error.field).toBe("password");
    }
    expect((await postJson(pathOf(url), "{not json", { "CF-Connecting-IP": freshAddress() })).status).toBe(400);
    const text = await postJson(pathOf(url), "password=x", { "Content-Type": "text/plain", "CF-Connecting-IP": freshAddress() });
    expect(text.status).toBe(415);
    expect((await followLink(url)).status).toBe(200);
  });

  it("the page's form joins and lands on the dashboard; the page names the address, an unknown link does not", async () => {
    const admin = await newAdmin();
    const email = uniqueEmail("form");
    const invited = await invite(admin, { email, role: "editor" });
    const path = pathOf(invited.body.invitationUrl as string);
    const address = freshAddress();
    const page = await get(path, undefined, { "CF-Connecting-IP": address });
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(page.headers.get("Cache-Control")).toContain("no-store");
    expect(await page.text()).toContain(email);

    const mismatch = await postForm(path, { password: PASSWORD, confirmPassword: "something else entirely" }, { "CF-Connecting-IP": address });
    expect(mismatch.status).toBe(400);
    const joined = await postForm(path, { password: PASSWORD, confirmPassword: PASSWORD }, { "CF-Connecting-IP": address });
    expect(joined.status).toBe(302);
    expect(joined.headers.get("Location")).toBe("/dashboard");
    expect(await cookieWorks(sessionCookieFrom(joined))).toBe(true);

    const unknown = await get(`/invite/${"B".repeat(43)}`, undefined, { "CF-Connecting-IP": address });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain("@example.org");
    // Used: the same page as an unknown link.
    const used = await get(path, undefined, { "CF-Connecting-IP": address });
    expect(used.status).toBe(404);
  });
});
