import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, createMuseumWithUser, get, logIn, postJson } from "./helpers";

function postForm(path: string, cookie: string, fields: Record<string, string>) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Host: "localhost", Origin: BASE },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** The fields the re-rendered page marks as wrong. */
async function fieldsInError(response: Response): Promise<string[]> {
  const html = await response.text();
  return [...html.matchAll(/id="(\w+)-error" class="field__error"/g)].map((m) => m[1]!);
}

async function museumRow(id: number) {
  return env.DB.prepare("SELECT name, source_lang, timezone FROM museums WHERE id = ?").bind(id).first();
}

describe("settings: museum", () => {
  it("saves the name, source language and timezone of the user's own museum only", async () => {
    const a = await createMuseumWithUser();
    const b = await createMuseumWithUser();
    const before = await museumRow(b.museumId);
    const response = await postForm("/settings", await logIn(a), {
      intent: "museum",
      name: "Musée d'histoire",
      sourceLang: "en",
      timezone: "America/Montreal",
    });
    expect(response.status).toBe(200);
    expect(await museumRow(a.museumId)).toEqual({ name: "Musée d'histoire", source_lang: "en", timezone: "America/Montreal" });
    expect(await museumRow(b.museumId)).toEqual(before);
  });

  it.each([
    ["name", { name: "   " }],
    ["timezone", { timezone: "Mars/Olympus_Mons" }],
    ["sourceLang", { sourceLang: "xx" }],
  ])("answers 400 naming %s and changes nothing", async (field, override) => {
    const user = await createMuseumWithUser();
    const before = await museumRow(user.museumId);
    const response = await postForm("/settings", await logIn(user), {
      intent: "museum",
      name: "Valid",
      sourceLang: "fr",
      timezone: "Europe/Paris",
      ...override,
    });
    expect(response.status).toBe(400);
    expect(await fieldsInError(response)).toEqual([field]);
    expect(await museumRow(user.museumId)).toEqual(before);
  });

  it("shows the museum's current values", async () => {
    const user = await createMuseumWithUser();
    const html = await (await get("/settings", await logIn(user))).text();
    expect(html).toContain(`value="Museum ${user.museumSlug}"`);
    expect(html).toMatch(/<option value="Europe\/Paris" selected="">/);
    expect(html).toMatch(/<option value="fr" selected="">/);
  });
});

describe("settings: password", () => {
  it("needs the current password", async () => {
    const user = await createMuseumWithUser();
    const response = await postForm("/settings", await logIn(user), {
      intent: "password",
      currentPassword: "not it at all",
      newPassword: "a brand new secret",
      confirmPassword: "a brand new secret",
    });
    expect(response.status).toBe(400);
    expect(await fieldsInError(response)).toEqual(["currentPassword"]);
    expect((await postJson("/login", { email: user.email, password: user.password })).status).toBe(200);
  });

  it("refuses a short or mismatched new password", async () => {
    const user = await createMuseumWithUser();
    const cookie = await logIn(user);
    const short = await postForm("/settings", cookie, { intent: "password", currentPassword: user.password, newPassword: "short", confirmPassword: "short" });
    expect(short.status).toBe(400);
    const mismatch = await postForm("/settings", cookie, {
      intent: "password",
      currentPassword: user.password,
      newPassword: "long enough one",
      confirmPassword: "long enough two",
    });
    expect(mismatch.status).toBe(400);
    expect(await fieldsInError(mismatch)).toEqual(["confirmPassword"]);
  });

  it("changes the password and logs out the user's other sessions", async () => {
    const user = await createMuseumWithUser();
    const current = await logIn(user);
    const other = await logIn(user);
    const response = await postForm("/settings", current, {
      intent: "password",
      currentPassword: user.password,
      newPassword: "a brand new secret",
      confirmPassword: "a brand new secret",
    });
    expect(response.status).toBe(200);
    expect((await postJson("/login", { email: user.email, password: user.password })).status).toBe(401);
    expect((await postJson("/login", { email: user.email, password: "a brand new secret" })).status).toBe(200);
    expect(await (await get("/session", current)).json()).toMatchObject({ email: user.email });
    expect(await (await get("/session", other)).json()).toEqual({});
  });

  it("answers 400 for an unknown intent", async () => {
    const user = await createMuseumWithUser();
    const response = await postForm("/settings", await logIn(user), { intent: "drop-tables" });
    expect(response.status).toBe(400);
  });

  it("redirects a logged-out post to /login and changes nothing", async () => {
    const response = await SELF.fetch(`${BASE}/settings`, {
      method: "POST",
      headers: { Host: "localhost" },
      body: new URLSearchParams({ intent: "museum", name: "x", sourceLang: "fr", timezone: "UTC" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toContain("/login");
  });
});

describe("settings: a password of spaces", () => {
  it("is refused, naming the new password", async () => {
    const user = await createMuseumWithUser();
    const response = await SELF.fetch(`${BASE}/settings`, {
      method: "POST",
      headers: { Cookie: await logIn(user), Host: "localhost", Origin: BASE },
      body: new URLSearchParams({ intent: "password", currentPassword: user.password, newPassword: " ".repeat(12), confirmPassword: " ".repeat(12) }),
      redirect: "manual",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('id="newPassword-error"');
  });
});
