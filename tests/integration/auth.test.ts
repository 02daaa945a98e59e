import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from "~/models/rate-limit.server";
import { parseIterations, PBKDF2_ITERATIONS } from "~/lib/password.server";
import { BASE, createMuseumWithUser, get, logIn, postJson, sessionCookieFrom } from "./helpers";

describe("POST /login", () => {
  it("answers 200 with a session cookie that is HttpOnly, SameSite=Lax and lasts 30 days", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: user.email, password: user.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: user.email });
    const cookie = response.headers.get("Set-Cookie")!;
    // The token names its museum (decision 142): `{museumId}.{43 random base64url characters}`.
    expect(cookie).toMatch(new RegExp(`^muselingo_session=${user.museumId}\\.[A-Za-z0-9_-]{43}; `));
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect(cookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    expect(cookie).not.toContain("Secure");
  });

  it("marks the cookie Secure outside localhost", async () => {
    const user = await createMuseumWithUser();
    const response = await SELF.fetch("https://guide.example-museum.org/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toContain("; Secure");
  });

  it("stores only a hash of the token, with a 30-day expiry", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const token = cookie.split("=")[1]!;
    const rows = await env.DB.prepare("SELECT id, expires_at FROM sessions WHERE user_id = ?").bind(user.userId).all<{ id: string; expires_at: number }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]!.id).not.toBe(token);
    expect(rows.results[0]!.id).toMatch(/^[0-9a-f]{64}$/);
    const days = (rows.results[0]!.expires_at - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("accepts the e-mail in any case and with surrounding spaces", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(response.status).toBe(200);
  });

  it("answers 401 for a wrong password and for an unknown e-mail, with the same body", async () => {
    const user = await createMuseumWithUser();
    const wrong = await postJson("/login", { email: user.email, password: "not the password" });
    const unknown = await postJson("/login", { email: "nobody@example.org", password: "whatever" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
  });

  it.each([
    ["malformed JSON", "{not json", undefined],
    ["a missing password", { email: "a@b.org" }, "password"],
    ["a missing e-mail", { password: "x" }, "email"],
    ["an e-mail that is not one", { email: "nope", password: "x" }, "email"],
    ["a number as password", { email: "a@b.org", password: 42 }, "password"],
    ["an array body", [], undefined],
  ])("answers 400 for %s", async (_label, body, field) => {
    const response = await postJson("/login", body);
    expect(response.status).toBe(400);
    const json = (await response.json()) as { error: { code: string; field?: string } };
    expect(json.error.code).toBe("invalid_input");
    if (field) expect(json.error.field).toBe(field);
  });

  it("still serves the login page to a browser's plain form post, redirecting on success", async () => {
    const user = await createMuseumWithUser();
    const response = await SELF.fetch(`${BASE}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "/settings" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings");
    expect(sessionCookieFrom(response)).toMatch(/^muselingo_session=/);
  });

  it("never redirects to another site after a form login", async () => {
    const user = await createMuseumWithUser();
    const response = await SELF.fetch(`${BASE}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: user.email, password: user.password, redirectTo: "//evil.example" }),
      redirect: "manual",
    });
    expect(response.headers.get("Location")).toBe("/dashboard");
  });
});

describe("login rate limiting", () => {
  async function failures(email: string, count: number, address = "203.0.113.7") {
    for (let i = 0; i < count; i++) {
      const response = await postJson("/login", { email, password: `wrong-${i}` }, { "CF-Connecting-IP": address });
      expect(response.status).toBe(401);
    }
  }

  it(`answers 429 with Retry-After after ${LOGIN_MAX_FAILURES} failures for one e-mail, even with the right password`, async () => {
    const user = await createMuseumWithUser();
    await failures(user.email, LOGIN_MAX_FAILURES, "203.0.113.8");
    // Another address, so only the per-account limit applies.
    const blocked = await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": "198.51.100.1" });
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
    expect(((await blocked.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
  });

  it("the page's form login says the same 429 with its Retry-After, and a wrong password 401", async () => {
    const user = await createMuseumWithUser();
    const form = (password: string) =>
      SELF.fetch(`${BASE}/login`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "198.51.100.9" },
        body: new URLSearchParams({ email: user.email, password }),
        redirect: "manual",
      });
    const wrong = await form("not the password");
    expect(wrong.status).toBe(401);
    await wrong.body?.cancel();
    await failures(user.email, LOGIN_MAX_FAILURES - 1, "203.0.113.9");
    const blocked = await form(user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    await blocked.body?.cancel();
  });

  it("limits one client address across e-mails", async () => {
    const user = await createMuseumWithUser();
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      await postJson("/login", { email: `stranger${i}@example.org`, password: "x" }, { "CF-Connecting-IP": "192.0.2.44" });
    }
    const blocked = await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": "192.0.2.44" });
    expect(blocked.status).toBe(429);
    const elsewhere = await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": "192.0.2.45" });
    expect(elsewhere.status).toBe(200);
  });

  it("lets the user in again once the 15-minute window has passed", async () => {
    const user = await createMuseumWithUser();
    await failures(user.email, LOGIN_MAX_FAILURES);
    expect((await postJson("/login", { email: user.email, password: user.password })).status).toBe(429);
    await env.DIRECTORY.prepare("UPDATE login_attempts SET window_start = window_start - ?")
      .bind(LOGIN_WINDOW_MS + 1000)
      .run();
    expect((await postJson("/login", { email: user.email, password: user.password })).status).toBe(200);
  });

  it("does not count nine failures followed by a success against the account", async () => {
    const user = await createMuseumWithUser();
    await failures(user.email, LOGIN_MAX_FAILURES - 1, "203.0.113.9");
    expect((await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": "203.0.113.10" })).status).toBe(200);
    await failures(user.email, LOGIN_MAX_FAILURES - 1, "203.0.113.11");
    expect((await postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": "203.0.113.12" })).status).toBe(200);
  });

  it("keeps no raw e-mail or address in the attempts table", async () => {
    const user = await createMuseumWithUser();
    await failures(user.email, 1, "203.0.113.99");
    const { results } = await env.DIRECTORY.prepare("SELECT key FROM login_attempts").all<{ key: string }>();
    expect(results.length).toBeGreaterThan(0);
    for (const { key } of results) {
      expect(key).not.toContain(user.email);
      expect(key).not.toContain("203.0.113.99");
    }
  });
});

describe("sessions", () => {
  it("GET /session returns the e-mail when logged in and nothing otherwise", async () => {
    const user = await createMuseumWithUser();
    const anonymous = await get("/session");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({});
    const cookie = await logIn(user);
    const response = await get("/session", cookie);
    expect(await response.json()).toMatchObject({ email: user.email, museum: { slug: user.museumSlug } });
  });

  it("ignores a made-up token", async () => {
    const response = await get("/session", "muselingo_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    expect(await response.json()).toEqual({});
  });

  it("treats an expired session as logged out", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?")
      .bind(Date.now() - 1, user.userId)
      .run();
    expect(await (await get("/session", cookie)).json()).toEqual({});
    const dashboard = await get("/dashboard", cookie);
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
  });

  it("POST /logout deletes the session server-side, so the old cookie no longer works", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const response = await SELF.fetch(`${BASE}/logout`, { method: "POST", headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toContain("Max-Age=0");
    expect(await (await get("/session", cookie)).json()).toEqual({});
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(user.userId).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("POST /logout without a session still answers 200", async () => {
    expect((await SELF.fetch(`${BASE}/logout`, { method: "POST" })).status).toBe(200);
  });
});

describe("cross-site requests", () => {
  it("refuses a POST whose Origin is another site with 403, and keeps the session", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const login = await postJson("/login", { email: user.email, password: user.password }, { Origin: "https://evil.example" });
    expect(login.status).toBe(403);
    const logout = await SELF.fetch(`${BASE}/logout`, { method: "POST", headers: { Cookie: cookie, Origin: "https://evil.example" } });
    expect(logout.status).toBe(403);
    expect(await (await get("/session", cookie)).json()).toMatchObject({ email: user.email });
  });

  it("accepts a POST from its own origin", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: user.email, password: user.password }, { Origin: BASE });
    expect(response.status).toBe(200);
  });
});

describe("password hashing", () => {
  it(`pins PBKDF2 at ${PBKDF2_ITERATIONS} iterations, the most Workers allow in production`, async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    const user = await createMuseumWithUser();
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.userId).first<{ password_hash: string }>();
    expect(parseIterations(row!.password_hash)).toBe(PBKDF2_ITERATIONS);
    expect(parseIterations(row!.password_hash)).toBeLessThanOrEqual(100_000);
  });

  it("uses a different salt for each user", async () => {
    const a = await createMuseumWithUser({ password: "same password here" });
    const b = await createMuseumWithUser({ password: "same password here" });
    const rows = await env.DB.prepare("SELECT password_hash FROM users WHERE id IN (?, ?)").bind(a.userId, b.userId).all<{ password_hash: string }>();
    expect(rows.results[0]!.password_hash).not.toBe(rows.results[1]!.password_hash);
  });
});
