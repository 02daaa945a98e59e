import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditEntries, logIn, postJson, sessionCookieFrom } from "./helpers";
import { addMember, cookieWorks, newAdmin, PASSWORD, followLink, userRow } from "./team-helpers";

const adminCount = (museumId: number, userId?: number) =>
  env.DB.prepare(`SELECT count(*) AS n FROM users WHERE museum_id = ?1 AND role = 'admin' ${userId === undefined ? "" : "AND id = ?2"}`)
    .bind(...(userId === undefined ? [museumId] : [museumId, userId]))
    .first<number>("n");

describe("members: roles", () => {
  it("changes a role and a translator's languages; the member's open session gets them at once", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "editor");
    expect((await member.call("add_folder", { pathArray: [], id: "Salle 1" })).status).toBe(200);

    const changed = await admin.call("update_member", { userId: member.userId, role: "translator", languages: ["de", "fr"] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: member.userId, role: "translator", languages: ["de", "fr"] });
    expect(await userRow(member.userId)).toMatchObject({ role: "translator", languages: '["de","fr"]' });
    // Same session, new role: an editor's call is now refused.
    const refused = await member.call("add_folder", { pathArray: [], id: "Salle 2" });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: "forbidden" } });

    // Back to editor: the languages go (they only mean something for a translator).
    await admin.call("update_member", { userId: member.userId, role: "editor", languages: ["de"] });
    expect((await userRow(member.userId))?.languages).toBe("[]");

    const entries = await auditEntries(admin.user.museumId, { action: "member.update" });
    expect(entries).toHaveLength(2);
    expect(entries[0]!.detail).toEqual({ email: member.email, from: "editor", role: "translator", languages: ["de", "fr"] });
    expect(entries[0]).toMatchObject({ actor_id: admin.user.userId, target: `user:${member.userId}` });
  });

  it("the last admin can be neither demoted nor removed, by themselves or anyone (409 with the reason)", async () => {
    const admin = await newAdmin();
    const demote = await admin.call("update_member", { userId: admin.user.userId, role: "editor" });
    expect(demote.status).toBe(409);
    expect(demote.body.error).toMatchObject({ code: "conflict", field: "role", reason: "last_admin" });
    expect(String((demote.body.error as { message: string }).message)).toMatch(/last admin/);
    const remove = await admin.call("remove_member", { userId: admin.user.userId });
    expect(remove.status).toBe(409);
    expect(remove.body.error).toMatchObject({ field: "userId", reason: "last_admin" });
    expect(await adminCount(admin.user.museumId)).toBe(1);
    // Nothing happened, so nothing was recorded.
    expect((await auditEntries(admin.user.museumId)).map((a) => a.action)).toEqual(["session.login"]);
    // Admin → admin is no demotion.
    expect((await admin.call("update_member", { userId: admin.user.userId, role: "admin" })).status).toBe(200);
  });

  it("two admins demoting each other at the same moment leave one admin (five rounds)", async () => {
    for (let round = 0; round < 5; round++) {
      const admin = await newAdmin();
      const second = await addMember(admin, "admin");
      // Each sends its demotion of the other ten times at once, so both pass the role check before either writes.
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0
            ? admin.call("update_member", { userId: second.userId, role: "viewer" })
            : second.call("update_member", { userId: admin.user.userId, role: "viewer" }),
        ),
      );
      // The winner's calls succeed; the loser's are refused as last admin (or forbidden once they are no admin).
      expect(results.some((r) => r.status === 200)).toBe(true);
      expect(results.every((r) => [200, 403, 409].includes(r.status))).toBe(true);
      expect(await adminCount(admin.user.museumId)).toBe(1);
    }
  });

  it("two admins removing each other at the same moment leave one admin", async () => {
    for (let round = 0; round < 3; round++) {
      const admin = await newAdmin();
      const second = await addMember(admin, "admin");
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0 ? admin.call("remove_member", { userId: second.userId }) : second.call("remove_member", { userId: admin.user.userId }),
        ),
      );
      // One removal wins; the others are 404 (already gone), 409 (last admin) or 401 (the caller was removed).
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.every((r) => [200, 401, 404, 409].includes(r.status))).toBe(true);
      expect(await adminCount(admin.user.museumId)).toBe(1);
    }
  });

  it("48 concurrent demotions of every admin of a museum with three admins never leave it without one", async () => {
    const admin = await newAdmin();
    const b = await addMember(admin, "admin");
    const c = await addMember(admin, "admin");
    const ids = [admin.user.userId, b.userId, c.userId];
    const results = await Promise.all(Array.from({ length: 48 }, (_, i) => admin.call("update_member", { userId: ids[i % 3], role: "editor" })));
    expect(results.every((r) => [200, 403, 409].includes(r.status))).toBe(true);
    // One admin left, or two when the caller's own demotion ran before the others' (its later calls are then
    // refused, 403): never none, whatever the order the database applied them in.
    const left = await adminCount(admin.user.museumId);
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(2);
    if (left === 2) expect(await adminCount(admin.user.museumId, admin.user.userId)).toBe(0);
  });

  it("an admin may step down or leave when another admin remains", async () => {
    const admin = await newAdmin();
    await addMember(admin, "admin");
    expect((await admin.call("update_member", { userId: admin.user.userId, role: "editor" })).status).toBe(200);
    // Now an editor: the member calls are refused.
    expect((await admin.call("remove_member", { userId: admin.user.userId })).status).toBe(403);
  });
});

describe("members: removal", () => {
  it("removes a member: their sessions end at once, their reset links go, the log keeps their address", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "editor");
    const second = await logIn({ email: member.email, password: PASSWORD });
    expect(await cookieWorks(member.cookie)).toBe(true);
    await admin.call("password_reset_link", { userId: member.userId });

    const removed = await admin.call("remove_member", { userId: member.userId });
    expect(removed.status).toBe(200);
    expect(await cookieWorks(member.cookie)).toBe(false);
    expect(await cookieWorks(second)).toBe(false);
    expect(await userRow(member.userId)).toBeNull();
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(member.userId).first("n")).toBe(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM member_tokens WHERE user_id = ?").bind(member.userId).first("n")).toBe(0);
    const entry = (await auditEntries(admin.user.museumId)).find((a) => a.action === "member.remove");
    expect(entry!.detail).toEqual({ email: member.email, role: "editor" });
    // Gone: a second removal is 404.
    expect((await admin.call("remove_member", { userId: member.userId })).status).toBe(404);
  });
});

describe("members: tenancy and input", () => {
  it("another museum's member ids answer 404 and change nothing", async () => {
    const admin = await newAdmin();
    const other = await newAdmin();
    const theirs = await addMember(other, "editor");
    for (const [name, body] of [
      ["update_member", { userId: theirs.userId, role: "viewer" }],
      ["update_member", { userId: other.user.userId, role: "viewer" }],
      ["remove_member", { userId: theirs.userId }],
      ["password_reset_link", { userId: theirs.userId }],
      ["password_reset_link", { userId: 999_999_999 }],
    ] as const) {
      const response = await admin.call(name, body);
      expect(response.status, name).toBe(404);
      expect(response.body.error).toMatchObject({ code: "not_found", field: "userId" });
    }
    expect(await userRow(theirs.userId)).toMatchObject({ role: "editor" });
    expect(await cookieWorks(theirs.cookie)).toBe(true);
    const list = (await admin.read("/api/read/members")).body as { members: { email: string }[] };
    expect(list.members.map((m) => m.email)).toEqual([admin.user.email]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM member_tokens WHERE kind = 'password_reset' AND user_id = ?").bind(theirs.userId).first("n")).toBe(
      0,
    );
  });

  it.each([
    ["update_member", { userId: "abc", role: "viewer" }, "userId"],
    ["update_member", { userId: -1, role: "viewer" }, "userId"],
    ["update_member", { userId: 1.5, role: "viewer" }, "userId"],
    ["update_member", { userId: 2, role: "superuser" }, "role"],
    ["update_member", { userId: 2, role: "translator", languages: ["de", 7] }, "languages.1"],
    ["update_member", { userId: 2, role: "translator", languages: Array.from({ length: 41 }, () => "de") }, "languages"],
    ["remove_member", {}, "userId"],
    ["remove_member", { userId: null }, "userId"],
    ["password_reset_link", { userId: [1] }, "userId"],
    ["revoke_invitation", { id: "1; DROP TABLE users" }, "id"],
  ] as const)("%s with a malformed body answers 400 naming the field", async (name, body, field) => {
    const admin = await newAdmin();
    const response = await admin.call(name, body);
    expect(response.status).toBe(400);
    expect((response.body.error as { field: string }).field).toBe(field);
  });

  it("only an admin may call the member API (a quick check; the role matrix walks every call)", async () => {
    const admin = await newAdmin();
    const editor = await addMember(admin, "editor");
    const viewer = await addMember(admin, "viewer");
    for (const member of [editor, viewer]) {
      expect((await member.call("invite_member", { email: "x@example.org", role: "admin" })).status).toBe(403);
      expect((await member.call("update_member", { userId: member.userId, role: "admin" })).status).toBe(403);
      const list = await postJson("/api/read/members", {}, { Cookie: member.cookie });
      expect([403, 405]).toContain(list.status);
    }
    expect((await userRow(editor.userId))?.role).toBe("editor");
  });
});

describe("members: password reset links", () => {
  it("a one-hour single-use link sets a new password, ends every other session and signs in", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "editor");
    const elsewhere = await logIn({ email: member.email, password: PASSWORD });

    const link = await admin.call("password_reset_link", { userId: member.userId });
    expect(link.status).toBe(200);
    const url = link.body.url as string;
    expect(url).toMatch(/^http:\/\/localhost\/reset\/[1-9]\d*\.[A-Za-z0-9_-]{43}$/);
    expect((link.body.expiresAt as number) - Date.now()).toBeLessThanOrEqual(3600_000);
    expect((link.body.expiresAt as number) - Date.now()).toBeGreaterThan(3600_000 - 60_000);

    const newPassword = "another long password";
    const used = await followLink(url, newPassword);
    expect(used.status).toBe(200);
    expect(((await used.json()) as { user: { id: number } }).user.id).toBe(member.userId);
    expect(await cookieWorks(sessionCookieFrom(used))).toBe(true);
    expect(await cookieWorks(member.cookie)).toBe(false);
    expect(await cookieWorks(elsewhere)).toBe(false);
    await expect(logIn({ email: member.email, password: PASSWORD })).rejects.toThrow(/401/);
    await logIn({ email: member.email, password: newPassword });

    const again = await followLink(url, "yet another long password");
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { reason: string } }).error.reason).toBe("link_invalid");

    const actions = (await auditEntries(admin.user.museumId)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["member.password_reset_link", "member.password_reset"]));
    expect(JSON.stringify(await auditEntries(admin.user.museumId))).not.toContain(url.split("/").pop()!);
  });

  it("expires after an hour, and a newer link replaces the older", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "viewer");
    const first = await admin.call("password_reset_link", { userId: member.userId });
    const second = await admin.call("password_reset_link", { userId: member.userId });
    const old = await followLink(first.body.url as string, "another long password");
    expect(((await old.json()) as { error: { reason: string } }).error.reason).toBe("link_revoked");

    await env.DB.prepare("UPDATE member_tokens SET expires_at = ? WHERE kind = 'password_reset' AND user_id = ? AND revoked_at IS NULL")
      .bind(Date.now() - 1, member.userId)
      .run();
    const expired = await followLink(second.body.url as string, "another long password");
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { error: { reason: string } }).error.reason).toBe("link_expired");
    expect(await cookieWorks(member.cookie)).toBe(true);
  });

  it("an invitation link is no reset link and the other way round", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "viewer");
    const reset = await admin.call("password_reset_link", { userId: member.userId });
    const asInvite = await postJson(
      (reset.body.url as string).replace("http://localhost/reset/", "/invite/"),
      { password: PASSWORD },
      { "CF-Connecting-IP": "203.0.113.9" },
    );
    expect(asInvite.status).toBe(404);
  });

  it("20 parallel uses of one reset link change the password once", async () => {
    const admin = await newAdmin();
    const member = await addMember(admin, "viewer");
    const link = await admin.call("password_reset_link", { userId: member.userId });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => followLink(link.body.url as string, `parallel password ${i}`)));
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(responses.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(member.userId).first("n")).toBe(1);
    expect(await auditEntries(admin.user.museumId, { action: "member.password_reset" })).toHaveLength(1);
  });
});
