import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, createMuseumWithUser, get, logIn, postJson, sessionCookieFrom } from "./helpers";

function postSettings(cookie: string, headers: Record<string, string>, fields: Record<string, string>) {
  return SELF.fetch(`${BASE}/settings`, {
    method: "POST",
    headers: { Cookie: cookie, Host: "localhost", ...headers },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

const renameMuseum = { intent: "museum", name: "Pwned", sourceLang: "fr", timezone: "UTC" };

async function museumName(id: number) {
  return (await env.DB.prepare("SELECT name FROM museums WHERE id = ?").bind(id).first<{ name: string }>())!.name;
}

describe("cross-site writes", () => {
  it("refuses a write with no Origin but a foreign Referer, and changes nothing", async () => {
    const user = await createMuseumWithUser();
    const before = await museumName(user.museumId);
    const response = await postSettings(await logIn(user), { Referer: "https://evil.example/form" }, renameMuseum);
    expect(response.status).toBe(403);
    expect(await museumName(user.museumId)).toBe(before);
  });

  it("trusts Sec-Fetch-Site where the browser sends it", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    for (const site of ["cross-site", "same-site"]) {
      // Even with a matching Origin: the browser's own word about where the request comes from wins.
      const refused = await postSettings(cookie, { "Sec-Fetch-Site": site, Origin: BASE }, renameMuseum);
      expect(refused.status, site).toBe(403);
    }
    expect(await museumName(user.museumId)).not.toBe("Pwned");
    const accepted = await postSettings(cookie, { "Sec-Fetch-Site": "same-origin", Origin: BASE }, renameMuseum);
    expect(accepted.status).toBe(200);
    expect(await museumName(user.museumId)).toBe("Pwned");
  });

  it("accepts a write from its own pages by Referer alone", async () => {
    const user = await createMuseumWithUser();
    const response = await postSettings(await logIn(user), { Referer: `${BASE}/settings` }, renameMuseum);
    expect(response.status).toBe(200);
  });
});

describe("caching of signed-in answers", () => {
  it("marks every page and data answer of a session private and unstorable", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    for (const path of [
      "/dashboard",
      "/articles",
      "/trash",
      "/settings",
      "/session",
      "/api/tree",
      "/api/read/articles",
      "/api/read/trash",
      "/",
      "/dashboard.data",
    ]) {
      const response = await get(path, cookie);
      expect(response.headers.get("Cache-Control"), path).toBe("private, no-store");
    }
  });

  it("marks the login answer that sets the cookie too", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: user.email, password: user.password });
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  });
});

describe("login", () => {
  it("answers a JSON login while already logged in with 200 and a fresh cookie", async () => {
    const user = await createMuseumWithUser();
    const first = await logIn(user);
    const again = await postJson("/login", { email: user.email, password: user.password }, { Cookie: first });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ email: user.email.toLowerCase() });
    expect(sessionCookieFrom(again)).not.toBe(first);
  });

  it("never redirects after a form login to a path hiding a control or whitespace character", async () => {
    const user = await createMuseumWithUser();
    for (const redirectTo of ["/\t/evil.example", "/\n/evil.example", "/ /evil.example"]) {
      const response = await SELF.fetch(`${BASE}/login`, {
        method: "POST",
        headers: { Host: "localhost", Origin: BASE },
        body: new URLSearchParams({ email: user.email, password: user.password, redirectTo }),
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/dashboard");
    }
  });

  it.each([
    ["text/plain", "email=a&password=b"],
    ["text/plain; a=application/json", '{"email":"a@b.cd","password":"x"}'],
    ["application/xml", "<login/>"],
  ])("answers 415 to a body of type %s", async (type, body) => {
    const response = await SELF.fetch(`${BASE}/login`, { method: "POST", headers: { "Content-Type": type, Host: "localhost" }, body });
    expect(response.status).toBe(415);
  });

  it("answers 415, not 500, to a POST with no body", async () => {
    const response = await SELF.fetch(`${BASE}/login`, { method: "POST", headers: { Host: "localhost" } });
    expect(response.status).toBe(415);
  });

  it("accepts JSON with a charset parameter", async () => {
    const user = await createMuseumWithUser();
    const response = await postJson("/login", { email: user.email, password: user.password }, { "Content-Type": "application/json; charset=utf-8" });
    expect(response.status).toBe(200);
  });
});

describe("settings bodies", () => {
  it("answers 415, not 500, to JSON or no body, and changes nothing", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const json = await postJson("/settings", renameMuseum, { Cookie: cookie });
    expect(json.status).toBe(415);
    const none = await SELF.fetch(`${BASE}/settings`, { method: "POST", headers: { Cookie: cookie, Host: "localhost" } });
    expect(none.status).toBe(415);
    expect(await museumName(user.museumId)).not.toBe("Pwned");
  });
});

describe("JSON bodies", () => {
  it("answers 413 to a body over 1 MB, declared or not", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const big = JSON.stringify({ pathArray: [], id: "x".repeat(1024 * 1024) });
    const declared = await postJson("/api/manage/add_folder", big, { Cookie: cookie });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: "too_large" } });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const chunked = await SELF.fetch(`${BASE}/api/manage/add_folder`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: cookie },
      body: stream,
      // @ts-expect-error workerd needs duplex for a streamed body
      duplex: "half",
    });
    expect(chunked.status).toBe(413);
  });

  it("never echoes a refused value back whole", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    for (const body of [{ pathArray: [], id: "/".repeat(500_000) }, { type: "x".repeat(500_000), id: 1 }, { pathArray: ["\u0000".repeat(100_000)] }]) {
      const response = await postJson("/api/manage/delete_item", body, { Cookie: cookie });
      expect(response.status).toBe(400);
      expect((await response.text()).length).toBeLessThan(500);
    }
  });
});

describe("405", () => {
  it("always carries Allow", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const checks: [string, string, string][] = [
      ["GET", "/api/manage/add_folder", "POST"],
      ["GET", "/resources/language", "POST"],
      ["POST", "/api/tree", "GET"],
      ["POST", "/api/read/article?articleId=1", "GET"],
    ];
    for (const [method, path, allow] of checks) {
      const response = await SELF.fetch(`${BASE}${path}`, {
        method,
        headers: { Cookie: cookie, "Content-Type": "application/json", Host: "localhost" },
        body: method === "POST" ? "{}" : undefined,
      });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get("Allow"), `${method} ${path}`).toBe(allow);
    }
  });
});
