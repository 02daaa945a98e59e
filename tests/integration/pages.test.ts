import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, createMuseumWithUser, get, logIn } from "./helpers";

describe("security headers", () => {
  it("send a CSP whose nonce matches the page's scripts, and the other headers", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    const csp = response.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
  });

  it("use a fresh nonce on every response", async () => {
    const a = (await get("/")).headers.get("Content-Security-Policy");
    const b = (await get("/")).headers.get("Content-Security-Policy");
    expect(a).not.toBe(b);
  });

  it("reach JSON answers too", async () => {
    const response = await get("/session");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });
});

describe("interface language", () => {
  it("is French by default, with <html lang>", async () => {
    const html = await (await get("/login")).text();
    expect(html).toContain('<html lang="fr"');
    expect(html).toContain("<title>Connexion — Muselingo</title>");
  });

  it("follows Accept-Language when no choice was made", async () => {
    const html = await (await get("/login", undefined, { "Accept-Language": "en-GB,en;q=0.9" })).text();
    expect(html).toContain('<html lang="en"');
  });

  it("is kept in a cookie once chosen, over Accept-Language", async () => {
    const response = await SELF.fetch(`${BASE}/resources/language`, {
      method: "POST",
      body: new URLSearchParams({ lng: "en", redirectTo: "/contact" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/contact");
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    const html = await (await get("/contact", cookie, { "Accept-Language": "fr-FR" })).text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain("Contact us");
  });

  it("refuses an unknown language with 400 naming the field", async () => {
    const response = await SELF.fetch(`${BASE}/resources/language`, { method: "POST", body: new URLSearchParams({ lng: "de" }) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { field: string } }).error.field).toBe("lng");
  });
});

describe("not-found page", () => {
  it("answers 404 in French", async () => {
    const response = await get("/no/such/page");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Il n&#x27;y a rien par ici...");
    expect(html).toContain("Retour à l&#x27;accueil");
  });

  it("answers 404 in English", async () => {
    const response = await get("/no/such/page", "lng=ImVuIg%3D%3D");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Nothing there...");
    expect(html).toContain("Back to home");
  });
});

describe("pages that need a login", () => {
  it.each(["/dashboard", "/settings"])("%s redirects to /login when logged out", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  });

  it("the dashboard shows its four links and is not indexed", async () => {
    const user = await createMuseumWithUser();
    const html = await (await get("/dashboard", await logIn(user))).text();
    for (const href of ["/articles", "/qrcodes", "/stats", "/settings"]) expect(html).toContain(`href="${href}"`);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(html).toContain("Déconnexion");
    expect(html).not.toContain("Réserver une démo");
  });

  it("a logged-out page shows the demo button and no logout", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain("Réserver une démo");
    expect(html).not.toContain("Déconnexion");
  });

  it("/login sends a logged-in user to the dashboard", async () => {
    const user = await createMuseumWithUser();
    const response = await get("/login", await logIn(user));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
  });
});

describe("every page", () => {
  it.each(["/", "/login", "/contact", "/no-such-page"])("%s has a title and a description", async (path) => {
    const html = await (await get(path)).text();
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]+"\/>/);
  });
});
