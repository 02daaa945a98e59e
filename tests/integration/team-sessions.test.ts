import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditEntries, createMuseumWithUser, get, logIn, postJson } from "./helpers";
import { addMember, cookieWorks, newAdmin, PASSWORD, postForm } from "./team-helpers";

const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36";
const MAC_FIREFOX = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0";

/** The handles of the sessions the settings page offers to end. */
async function handles(cookie: string): Promise<{ html: string; handles: string[] }> {
  const response = await get("/settings", cookie);
  expect(response.status).toBe(200);
  const html = await response.text();
  return { html, handles: [...html.matchAll(/name="session" value="([0-9a-f]+)"/g)].map((m) => m[1]!) };
}

const sessionCount = (userId: number) => env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<number>("n");

describe("sessions in /settings", () => {
  it("lists the user's sessions by device, this one first, and ends another one or all the others", async () => {
    const user = await createMuseumWithUser();
    const phone = await logIn(user, { "User-Agent": ANDROID_CHROME });
    const laptop = await logIn(user, { "User-Agent": MAC_FIREFOX });
    const third = await logIn(user, { "User-Agent": "x".repeat(5000) });
    const stored = await env.DB.prepare("SELECT max(length(user_agent)) AS n FROM sessions WHERE user_id = ?").bind(user.userId).first<number>("n");
    expect(stored).toBe(300);

    const page = await handles(laptop);
    expect(page.html).toContain("Chrome sur Android");
    expect(page.html).toContain("Firefox sur macOS");
    expect(page.html).toContain("Appareil inconnu");
    expect(page.html).toContain("Cet appareil");
    expect(page.html.indexOf("Firefox sur macOS")).toBeLessThan(page.html.indexOf("Chrome sur Android"));
    // Two others to end; the current one has no button.
    expect(page.handles).toHaveLength(2);

    const phoneHandle = (await env.DB.prepare("SELECT substr(id, 1, 16) AS h FROM sessions WHERE user_id = ? AND user_agent = ?")
      .bind(user.userId, ANDROID_CHROME)
      .first<string>("h"))!;
    const ended = await postForm("/settings", { intent: "end_session", session: phoneHandle }, { Cookie: laptop });
    expect(ended.status).toBe(200);
    expect(await cookieWorks(phone)).toBe(false);
    expect(await cookieWorks(laptop)).toBe(true);
    // Already ended, malformed: 404 / 404, nothing else ends.
    expect((await postForm("/settings", { intent: "end_session", session: phoneHandle }, { Cookie: laptop })).status).toBe(404);
    expect((await postForm("/settings", { intent: "end_session", session: "'; DELETE FROM sessions; --" }, { Cookie: laptop })).status).toBe(404);
    expect(await cookieWorks(third)).toBe(true);

    const all = await postForm("/settings", { intent: "end_other_sessions" }, { Cookie: laptop });
    expect(all.status).toBe(200);
    expect(await cookieWorks(third)).toBe(false);
    expect(await cookieWorks(laptop)).toBe(true);
    expect(await sessionCount(user.userId)).toBe(1);
  });

  it("cannot end another user's session, nor its own current one by handle", async () => {
    const a = await createMuseumWithUser();
    const b = await createMuseumWithUser();
    const cookieA = await logIn(a);
    const cookieB = await logIn(b);
    const handleB = (await env.DB.prepare("SELECT substr(id, 1, 16) AS h FROM sessions WHERE user_id = ?").bind(b.userId).first<string>("h"))!;
    const handleA = (await env.DB.prepare("SELECT substr(id, 1, 16) AS h FROM sessions WHERE user_id = ?").bind(a.userId).first<string>("h"))!;
    expect((await postForm("/settings", { intent: "end_session", session: handleB }, { Cookie: cookieA })).status).toBe(404);
    expect((await postForm("/settings", { intent: "end_session", session: handleA }, { Cookie: cookieA })).status).toBe(404);
    expect(await cookieWorks(cookieB)).toBe(true);
    expect(await cookieWorks(cookieA)).toBe(true);
  });

  it("notes last seen and last active at most every five minutes, not on every request", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const row = () =>
      env.DB.prepare("SELECT s.last_seen_at AS seen, u.last_active_at AS active FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.user_id = ?")
        .bind(user.userId)
        .first<{ seen: number; active: number }>();
    const atLogin = await row();
    expect(atLogin!.seen).toBeGreaterThan(Date.now() - 60_000);
    expect(atLogin!.active).toBe(atLogin!.seen);

    const old = Date.now() - 6 * 60_000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?").bind(old, user.userId).run();
    await env.DB.prepare("UPDATE users SET last_active_at = ? WHERE id = ?").bind(old, user.userId).run();
    expect((await get("/dashboard", cookie)).status).toBe(200);
    const touched = await row();
    expect(touched!.seen).toBeGreaterThan(old + 5 * 60_000);
    expect(touched!.active).toBe(touched!.seen);

    const recent = Date.now() - 60_000;
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ? WHERE user_id = ?").bind(recent, user.userId).run();
    for (let i = 0; i < 5; i++) expect((await get("/dashboard", cookie)).status).toBe(200);
    expect((await row())!.seen).toBe(recent);
  });
});

describe("login and settings audit", () => {
  it("records a login, a failed login of an existing account, and nothing for an unknown address", async () => {
    const user = await createMuseumWithUser();
    await logIn(user, { "User-Agent": ANDROID_CHROME });
    expect((await postJson("/login", { email: user.email, password: "wrong password!" })).status).toBe(401);
    const unknown = `nobody-${Date.now()}@example.org`;
    expect((await postJson("/login", { email: unknown, password: "wrong password!" })).status).toBe(401);

    const rows = await auditEntries(user.museumId);
    expect(rows.map((r) => r.action)).toEqual(["session.login", "session.login_failed"]);
    expect(rows[0]).toMatchObject({ actor_id: user.userId, actor_email: user.email.toLowerCase(), target: `user:${user.userId}` });
    expect(rows[1]).toMatchObject({ actor_id: null, target: `user:${user.userId}` });
    expect(JSON.stringify(rows)).not.toContain("wrong password");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE actor_email = ?").bind(unknown).first("n")).toBe(0);
  });

  it("records the museum settings an admin saves; a viewer sees no museum section and is refused", async () => {
    const admin = await newAdmin();
    const saved = await postForm(
      "/settings",
      { intent: "museum", name: "Musée des équipes", sourceLang: "fr", timezone: "Europe/Paris" },
      { Cookie: admin.cookie },
    );
    expect(saved.status).toBe(200);
    const entry = (await auditEntries(admin.user.museumId)).find((r) => r.action === "museum.settings");
    expect(entry!.detail).toEqual({ name: "Musée des équipes", sourceLang: "fr", timezone: "Europe/Paris" });

    const viewer = await addMember(admin, "viewer");
    const page = await get("/settings", viewer.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('data-intent="museum"');
    expect(html).not.toContain('href="/glossary"');
    expect(html).toContain("Sessions");
    const refused = await postForm("/settings", { intent: "museum", name: "Hijack", sourceLang: "fr", timezone: "Europe/Paris" }, { Cookie: viewer.cookie });
    expect(refused.status).toBe(403);
    // A viewer still manages their own password and sessions.
    const password = await postForm(
      "/settings",
      { intent: "password", currentPassword: PASSWORD, newPassword: "a brand new password", confirmPassword: "a brand new password" },
      { Cookie: viewer.cookie },
    );
    expect(password.status).toBe(200);
  });
});

describe("role-aware pages", () => {
  it("the dashboard shows each role only the tiles it may open; /team is an admin's", async () => {
    const admin = await newAdmin();
    const tiles = async (cookie: string) =>
      [...(await (await get("/dashboard", cookie)).text()).matchAll(/<a[^>]*class="tile"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]);
    expect(await tiles(admin.cookie)).toEqual([
      "/articles",
      "/import",
      "/qrcodes",
      "/tours",
      "/questions",
      "/stats",
      "/team",
      "/audit",
      "/translations/files",
      "/museum-data",
      "/settings",
    ]);
    const editor = await addMember(admin, "editor");
    const translator = await addMember(admin, "translator", ["de"]);
    const viewer = await addMember(admin, "viewer");
    expect(await tiles(editor.cookie)).toEqual(["/articles", "/import", "/qrcodes", "/tours", "/questions", "/stats", "/translations/files", "/settings"]);
    expect(await tiles(translator.cookie)).toEqual(["/articles", "/questions", "/stats", "/translations/files", "/settings"]);
    expect(await tiles(viewer.cookie)).toEqual(["/stats", "/settings"]);
    expect((await get("/team", admin.cookie)).status).toBe(200);
    for (const member of [editor, translator, viewer]) expect((await get("/team", member.cookie)).status).toBe(403);
  });

  it("a translator's articles tree links to translations and has no edit controls", async () => {
    const admin = await newAdmin();
    const added = await admin.call("add_article", { pathArray: [] });
    const translator = await addMember(admin, "translator", ["de"]);
    const html = await (await get("/articles", translator.cookie)).text();
    expect(html).toContain(`href="/translations?id=${added.body.id}"`);
    expect(html).not.toContain(`/article?id=${added.body.id}`);
    expect(html).not.toContain("tree-row__more");
    expect(html).not.toContain("articles__actions");
    const editorHtml = await (await get("/articles", admin.cookie)).text();
    expect(editorHtml).toContain(`/article?id=${added.body.id}`);
    expect(editorHtml).toContain("articles__actions");
  });
});
