import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, createMuseumWithUser, get, postJson, sessionCookieFrom, staffSession } from "./helpers";
import { freshAddress, invite, PASSWORD, pathOf, uniqueEmail } from "./team-helpers";

// Decision 136: `POST /login`, `/invite/{token}` and `/reset/{token}` as JSON are answered by those pages' route
// actions (the Worker answers no path). The contract itself is auth.test.ts's, team-invitations.test.ts's and
// the fuzz's; here, what going through Remix could have changed.

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded", Host: "localhost", ...headers },
  body: new URLSearchParams(fields),
  redirect: "manual" as const,
});

describe("a JSON call on a page's path is answered as JSON, never as the page", () => {
  it("answers the login as JSON without rendering: no page, no CSP, the API's headers", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: user.email, password: user.password });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    // The CSP of an answer that is not a page (no scripts, no nonce).
    expect(response.headers.get("Content-Security-Policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(await response.json()).toEqual({ email: user.email.toLowerCase() });
    // No loader ran after the action: the page's own sends a caller already logged in to the dashboard.
    const again = await postJson("/login", { email: user.email, password: user.password }, { Cookie: sessionCookieFrom(response) });
    expect(again.status).toBe(200);
    expect(again.headers.get("Location")).toBeNull();
  });

  it("answers a refusal as the API's JSON error, with Retry-After on a 429, like before", async () => {
    const user = await createMuseumWithUser();
    const address = freshAddress();
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) last = await postJson("/login", { email: user.email, password: `wrong-${i}` }, { "CF-Connecting-IP": address });
    expect(last!.status).toBe(429);
    expect(last!.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    const plain = await SELF.fetch(`${BASE}/login`, { method: "POST", headers: { "Content-Type": "text/plain", Host: "localhost" }, body: "x" });
    expect(plain.status).toBe(415);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe("unsupported_media_type");
  });

  it("leaves the methods the page has no use for to the page: 405 with Allow", async () => {
    const response = await SELF.fetch(`${BASE}/login`, { method: "PUT", headers: { "Content-Type": "application/json", Host: "localhost" }, body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toContain("POST");
  });

  it("answers 50 identical logins at once: sessions of their own, or the account's 429 while more than 10 are checked", async () => {
    const user = await createMuseumWithUser();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postJson("/login", { email: user.email, password: user.password }, { "CF-Connecting-IP": `198.18.7.${i}` })),
    );
    // Parallel attempts count before the password is checked (docs/api.md): past 10 in flight, the account says 429.
    const ok = responses.filter((r) => r.status === 200);
    expect(responses.filter((r) => r.status !== 200).map((r) => [r.status, r.headers.get("Content-Type")])).toEqual(
      Array(50 - ok.length).fill([429, "application/json; charset=utf-8"]),
    );
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const cookies = new Set(ok.map(sessionCookieFrom));
    expect(cookies.size).toBe(ok.length);
    for (const cookie of [...cookies].slice(0, 3)) expect((await get("/session", cookie)).status).toBe(200);
  });

  it("a JSON use and a form use of one invitation at once: one account, the other answer says the link is used", async () => {
    const admin = await staffSession();
    const invited = await invite(admin, { email: uniqueEmail(), role: "editor" });
    expect(invited.status).toBe(200);
    const path = pathOf(invited.body.invitationUrl as string);
    const [json, page] = await Promise.all([
      postJson(path, { password: PASSWORD }, { "CF-Connecting-IP": freshAddress() }),
      SELF.fetch(`${BASE}${path}`, form({ password: PASSWORD, confirmPassword: PASSWORD }, { "CF-Connecting-IP": freshAddress() })),
    ]);
    const won = [json.status === 200, page.status === 302].filter(Boolean);
    expect(won).toHaveLength(1);
    if (json.status !== 200) {
      expect(json.status).toBe(404);
      expect(((await json.json()) as { error: { reason: string } }).error.reason).toBe("link_invalid");
    } else {
      expect(page.status).toBe(404);
      expect(page.headers.get("Content-Type")).toContain("text/html");
    }
  });

  it("a JSON reset of an odd token (Unicode, escapes, 1,000 characters) answers the API's 404, never a page or a 500", async () => {
    for (const token of ["%F0%9F%98%80", "%ED%A0%80", "é", "a%2Fb", "x".repeat(1000)]) {
      const response = await postJson(`/reset/${token}`, { password: PASSWORD }, { "CF-Connecting-IP": freshAddress() });
      expect(response.status, token).toBe(404);
      expect(response.headers.get("Content-Type"), token).toBe("application/json; charset=utf-8");
      expect(((await response.json()) as { error: { field: string } }).error.field, token).toBe("token");
    }
  });

  it("a JSON use of a link address with a trailing slash is the API's answer too, not the form's 415", async () => {
    const response = await postJson(`/invite/${"C".repeat(43)}/`, { password: PASSWORD }, { "CF-Connecting-IP": freshAddress() });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { reason: string } }).error.reason).toBe("link_invalid");
  });

  it("a single-fetch `POST /login.data` with JSON gets the action's answer in single fetch's encoding", async () => {
    // Remix's client never sends JSON there; a hand-made call is the JSON login, encoded: same status, same cookie.
    const user = await createMuseumWithUser();
    const right = await postJson("/login.data", { email: user.email, password: user.password });
    expect(right.status).toBe(200);
    expect(right.headers.get("Content-Type")).toBe("text/x-script");
    expect(sessionCookieFrom(right)).toMatch(/^muselingo_session=/);
    expect(await right.text()).toContain(user.email.toLowerCase());
    const wrong = await postJson("/login.data", { email: user.email, password: "not the password" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
    expect(await wrong.text()).toContain("unauthorized");
  });
});
