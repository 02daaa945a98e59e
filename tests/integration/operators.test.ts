import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { base32Decode, hotp } from "~/operator/totp";
import { dayInTimeZone, dayNumber } from "~/lib/dates";
import { BASE, createArticleRow, createMember, createMuseum, get, logIn, postJson, publishArticle, staffSession, texts } from "./helpers";
import { shardDb } from "./builders";
import { followLink, postForm } from "./team-helpers";
import { code, cookieOf, enrolled, login, newOperator, PASSWORD } from "./operator-helpers";

// Operators (issue 33 §1, decision 146): a setup link, password + TOTP or a recovery code, a session of their own,
// and the audit log. The rows are written as `npm run operator:create` writes them (scripts/operator-command.mjs,
// whose SQL tests/unit/operator-command.test.ts runs on the directory's migrations).

describe("operators: setup, sign-in with a second factor, their own sessions", () => {
  it("the setup link shows the secret once, enrols with a current code, returns ten recovery codes, and works once", async () => {
    const op = await newOperator();
    const page = await get(`/operator/setup/${op.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toContain("no-store");
    const html = await page.text();
    expect(html).toContain(op.secret.slice(0, 4));
    expect(html).toContain("<svg");
    // A wrong code: 400, nothing spent.
    const wrong = await postForm(`/operator/setup/${op.token}`, { password: PASSWORD, code: "000000" === (await code(op.secret)) ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    const short = await postForm(`/operator/setup/${op.token}`, { password: "court", code: await code(op.secret) });
    expect(short.status).toBe(400);
    const done = await postForm(`/operator/setup/${op.token}`, { password: PASSWORD, code: await code(op.secret) });
    expect(done.status).toBe(200);
    const codes = [...(await done.text()).matchAll(/<code>([a-z0-9]{5}-[a-z0-9]{5})<\/code>/g)].map((m) => m[1]);
    expect(new Set(codes).size).toBe(10);
    expect(cookieOf(done)).toMatch(/^muselingo_operator=/);
    expect(done.headers.get("Set-Cookie")).toContain("HttpOnly");
    expect(done.headers.get("Set-Cookie")).toContain("SameSite=Strict");
    // The link is spent: the page says so (and shows no secret), the form is refused.
    const spent = await get(`/operator/setup/${op.token}`);
    expect(await spent.text()).not.toContain(op.secret.slice(0, 8));
    expect((await postForm(`/operator/setup/${op.token}`, { password: PASSWORD, code: await code(op.secret, 1) })).status).toBe(404);
  });

  it("ten setups of one link at once: exactly one enrols", async () => {
    const op = await newOperator();
    const current = await code(op.secret);
    const answers = await Promise.all(Array.from({ length: 10 }, () => postForm(`/operator/setup/${op.token}`, { password: PASSWORD, code: current })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    const stored = await env.DIRECTORY.prepare("SELECT count(*) AS n FROM operator_recovery_codes o JOIN operators p ON p.id = o.operator_id WHERE p.email = ?")
      .bind(op.email)
      .first<{ n: number }>();
    expect(stored!.n).toBe(10);
  });

  it("signs in with the password and a code of a step not used before; a used code, a wrong one or a wrong password is one refusal", async () => {
    const op = await enrolled();
    // The code the setup spent cannot sign in again.
    const secret = base32Decode(op.secret)!;
    expect((await login(op.email, PASSWORD, await hotp(secret, op.usedStep))).status).toBe(401);
    const next = await hotp(secret, op.usedStep + 1);
    expect((await login(op.email, "pas le bon mot de passe", next)).status).toBe(401);
    expect((await login(`other-${op.email}`, PASSWORD, next)).status).toBe(401);
    // The next step's code (a phone a little ahead, or the next 30 seconds) signs in, once.
    const ok = await login(op.email.toUpperCase(), PASSWORD, next);
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/operator");
    expect((await login(op.email, PASSWORD, next)).status).toBe(401);
    const console = await get("/operator", cookieOf(ok));
    expect(console.status).toBe(200);
    expect(await console.text()).toContain(op.email);
  });

  it("a recovery code signs in once; two sign-ins racing with the same code: one session", async () => {
    const op = await enrolled();
    const [first, second] = await Promise.all([
      login(op.email, PASSWORD, op.recoveryCodes[0]!.toUpperCase()),
      login(op.email, PASSWORD, ` ${op.recoveryCodes[0]!.replace("-", "")} `),
    ]);
    expect([first.status, second.status].sort()).toEqual([302, 401]);
    expect((await login(op.email, PASSWORD, op.recoveryCodes[0]!)).status).toBe(401);
    expect((await login(op.email, PASSWORD, op.recoveryCodes[1]!)).status).toBe(302);
  });

  it("no museum member reaches the console, and an operator's cookie opens no museum page", async () => {
    const staff = await staffSession();
    for (const path of ["/operator", "/operator/audit.csv"]) {
      expect((await get(path)).status, `${path} without a session`).toBe(404);
      expect((await get(path, staff.cookie)).status, `${path} with a museum admin's session`).toBe(404);
    }
    // The museum's session cookie under the operator's name is no operator session either.
    const token = /muselingo_session=([^;]+)/.exec(staff.cookie)?.[1] ?? "";
    expect((await get("/operator", `muselingo_operator=${token.replace(/^\d+\./, "")}`)).status).toBe(404);
    const op = await enrolled();
    expect((await get("/operator", op.cookie)).status).toBe(200);
    expect((await get("/api/read/glossary", op.cookie)).status).toBe(401);
    const dashboard = await get("/dashboard", op.cookie);
    expect(dashboard.status).toBe(302);
  });

  it("refuses malformed sign-ins with 400 naming the field, limits guessing, and never answers 500", async () => {
    const op = await enrolled();
    expect((await postForm("/operator/login", { email: op.email, password: PASSWORD })).status).toBe(400);
    for (const odd of ["\u0000", "e\u0301@ex.org", "𝓸𝓹@example.org", "x".repeat(300)]) {
      const answer = await login(odd, PASSWORD, "123456");
      expect([400, 401], odd.slice(0, 20)).toContain(answer.status);
    }
    const address = { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 200)}` };
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await login(op.email, "mauvais mot de passe", "123456", address)).status);
    expect(answers.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(answers[10]).toBe(429);
  });

  it("logs every operator action, exported as CSV; sign-out ends the session", async () => {
    const op = await enrolled();
    const csv = await get("/operator/audit.csv", op.cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain(op.email);
    expect(text).toContain("operator.enrolled");
    const out = await postForm("/operator/logout", {}, { Cookie: op.cookie });
    expect(out.status).toBe(302);
    expect(out.headers.get("Set-Cookie")).toContain("Max-Age=0");
    expect((await get("/operator", op.cookie)).status).toBe(404);
    const entries = await env.DIRECTORY.prepare("SELECT action FROM operator_audit WHERE operator_email = ? ORDER BY id")
      .bind(op.email)
      .all<{ action: string }>();
    expect(entries.results.map((r) => r.action)).toEqual(["operator.enrolled", "operator.logout"]);
  });

  it("lists each museum with its figures from its own shard, filters, sorts, and exports the same list as CSV", async () => {
    const op = await enrolled();
    const tag = crypto.randomUUID().slice(0, 8);
    const a = await createMuseum({ shard: 1, name: `Musée d’Orsay ${tag}`, slug: `orsay-${tag}` });
    const b = await createMuseum({ shard: 2, name: `Ateneum ${tag}`, slug: `ateneum-${tag}` });
    for (let i = 0; i < 3; i++) await createMember(a);
    await createMember(b);
    const article = await createArticleRow(a);
    await createArticleRow(a);
    await createArticleRow(b);
    const today = dayNumber(dayInTimeZone(Date.now(), "UTC"));
    const stats = shardDb(1).prepare("INSERT INTO daily_stats (museum_id, day, article_id, lang, scans, views) VALUES (?, ?, ?, ?, ?, ?)");
    await shardDb(1).batch([
      stats.bind(a.museumId, today, article, "de", 5, 2),
      stats.bind(a.museumId, today - 3, article, "ja", 1, 0),
      // Older than 30 days: not counted.
      stats.bind(a.museumId, today - 40, article, "es", 100, 100),
      shardDb(1)
        .prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/webp', 2500000)")
        .bind(a.museumId, `m/${a.museumId}/${tag}.webp`),
      shardDb(1).prepare("INSERT INTO narration_spend (museum_id, month, chars) VALUES (?, ?, 12345)").bind(a.museumId, new Date().toISOString().slice(0, 7)),
    ]);
    const page = await get(`/operator?q=${encodeURIComponent(tag)}&sort=scans30&dir=desc`, op.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.indexOf(`orsay-${tag}`)).toBeGreaterThan(0);
    expect(html.indexOf(`orsay-${tag}`)).toBeLessThan(html.indexOf(`ateneum-${tag}`));
    const csv = await get(`/operator/museums.csv?q=${encodeURIComponent(tag.toUpperCase())}&sort=name&dir=asc`, op.cookie);
    expect(csv.status).toBe(200);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(3);
    const [head, first, second] = lines.map((line) => line.split(","));
    const row = (cells: string[]) => Object.fromEntries(head!.map((h, i) => [h, cells[i]]));
    // Sorted by name: Ateneum before Musée d’Orsay.
    expect(row(first!)).toMatchObject({ slug: `ateneum-${tag}`, shard: "2", members: "1", articles: "1", scans_30d: "0" });
    expect(row(second!)).toMatchObject({
      slug: `orsay-${tag}`,
      shard: "1",
      members: "3",
      articles: "2",
      languages_30d: "2",
      scans_30d: "6",
      views_30d: "2",
      narration_chars_month: "12345",
      media_bytes: "2500000",
      state: "active",
    });
    // One museum's page reads that museum alone, from its own shard.
    const one = await get(`/operator/museums/${a.museumId}`, op.cookie);
    expect(one.status).toBe(200);
    const onePage = await one.text();
    expect(onePage).toContain(`orsay-${tag}`);
    expect(onePage).not.toContain(`ateneum-${tag}`);
    for (const id of ["999999999", "0", "abc", "1e3"]) expect((await get(`/operator/museums/${id}`, op.cookie)).status, id).toBe(404);
    // Odd or hostile query strings: the list as it would be without them, never an error.
    for (const query of ["?sort=__proto__", "?dir=sideways", `?q=${"%F0%9F%8F%BA".repeat(40)}`, "?q=%E2%80%AE", "?sort=name&sort=id"])
      expect((await get(`/operator${query}`, op.cookie)).status, query).toBe(200);
    expect((await get(`/operator/museums.csv`, (await staffSession()).cookie)).status).toBe(404);
  });

  it("creates a museum on the shard asked (or with the most room) and invites its first admin, who joins; refusals name their field", async () => {
    const op = await enrolled();
    const tag = crypto.randomUUID().slice(0, 8);
    const admin = `first-admin-${tag}@example.org`;
    const fields = { name: `Musée des Augustins ${tag}`, slug: `augustins-${tag}`, sourceLang: "fr", timezone: "Europe/Paris", shard: "1", adminEmail: admin };
    const made = await postForm("/operator/museums/new", fields, { Cookie: op.cookie });
    expect(made.status).toBe(200);
    expect(made.headers.get("Cache-Control")).toContain("no-store");
    const link = /http:\/\/localhost\/invite\/[A-Za-z0-9._-]+/.exec(await made.text())?.[0];
    expect(link).toBeTruthy();
    const row = await env.DIRECTORY.prepare("SELECT id, shard FROM museums WHERE slug = ?").bind(fields.slug).first<{ id: number; shard: number }>();
    expect(row!.shard).toBe(1);
    expect(await shardDb(1).prepare("SELECT name, source_lang AS sourceLang, timezone FROM museums WHERE id = ?").bind(row!.id).first()).toEqual({
      name: fields.name,
      sourceLang: "fr",
      timezone: "Europe/Paris",
    });
    // The first admin follows the link and is signed in as the museum's admin.
    const joined = await followLink(link!);
    expect(joined.status, await joined.clone().text()).toBe(200);
    expect(((await joined.json()) as { user: { role: string } }).user.role).toBe("admin");
    const audit = await env.DIRECTORY.prepare("SELECT action, museum_id AS museumId FROM operator_audit WHERE operator_email = ? AND action = 'museum.create'")
      .bind(op.email)
      .all();
    expect(audit.results).toEqual([{ action: "museum.create", museumId: row!.id }]);

    // Refusals: the same address (409 slug), an address with an account (409), bad fields (400 naming them).
    expect((await postForm("/operator/museums/new", { ...fields, adminEmail: `other-${admin}` }, { Cookie: op.cookie })).status).toBe(409);
    expect((await postForm("/operator/museums/new", { ...fields, slug: `autre-${tag}` }, { Cookie: op.cookie })).status).toBe(409);
    for (const [field, value] of [
      ["name", " "],
      ["slug", "Pas-Un-Slug"],
      ["slug", "-tiret"],
      ["sourceLang", "xx-nope"],
      ["timezone", "Mars/Olympus"],
      ["shard", "99"],
      ["shard", "deux"],
      // Shard 2 is the EU's (EU_SHARDS): only for a museum kept in the EU.
      ["shard", "2"],
      ["adminEmail", "pas une adresse"],
    ] as const) {
      const refused = await postForm("/operator/museums/new", { ...fields, slug: `x-${tag}-${field.toLowerCase()}`, [field]: value }, { Cookie: op.cookie });
      expect(refused.status, `${field} = ${value}`).toBe(400);
    }
    // An address already invited elsewhere, not joined yet: 409 (it could join only one museum).
    const pending = `pending-${admin}`;
    expect((await postForm("/operator/museums/new", { ...fields, slug: `p1-${tag}`, adminEmail: pending }, { Cookie: op.cookie })).status).toBe(200);
    const twice = await postForm("/operator/museums/new", { ...fields, slug: `p2-${tag}`, adminEmail: pending }, { Cookie: op.cookie });
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain("invitation");
    // A new invitation link from the museum's page (the first expired unused, or went astray): it replaces this
    // address's pending one; an address invited elsewhere, or malformed, is refused; the new link makes an admin.
    const p1 = await env.DIRECTORY.prepare("SELECT id FROM museums WHERE slug = ?").bind(`p1-${tag}`).first<number>("id");
    const again = await postForm(`/operator/museums/${p1}`, { intent: "invite", adminEmail: pending.toUpperCase() }, { Cookie: op.cookie });
    expect(again.status).toBe(200);
    const newLink = /http:\/\/localhost\/invite\/[A-Za-z0-9._-]+/.exec(await again.text())?.[0];
    expect(newLink).toBeTruthy();
    expect((await postForm(`/operator/museums/${p1}`, { intent: "invite", adminEmail: "pas une adresse" }, { Cookie: op.cookie })).status).toBe(400);
    expect((await postForm(`/operator/museums/${p1}`, { intent: "invite", adminEmail: admin }, { Cookie: op.cookie })).status).toBe(409);
    const elsewhere = `elsewhere-${admin}`;
    expect((await postForm("/operator/museums/new", { ...fields, slug: `p3-${tag}`, adminEmail: elsewhere }, { Cookie: op.cookie })).status).toBe(200);
    const refused = await postForm(`/operator/museums/${p1}`, { intent: "invite", adminEmail: elsewhere }, { Cookie: op.cookie });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('id="adminEmail-error"');
    const joinedAgain = await followLink(newLink!);
    expect(joinedAgain.status).toBe(200);
    expect(((await joinedAgain.json()) as { user: { role: string } }).user.role).toBe("admin");
    // A body that is not the form: its status, never a 500.
    const json = await SELF.fetch(`${BASE}/operator/museums/new`, {
      method: "POST",
      body: "{}",
      headers: { Cookie: op.cookie, "Content-Type": "application/json" },
    });
    expect(json.status).toBe(415);
    // Kept in the EU: on the EU shard, with its files in the EU bucket; never on another.
    const eu = await postForm(
      "/operator/museums/new",
      { ...fields, slug: `eu-${tag}`, adminEmail: `eu-${admin}`, shard: "auto", eu: "on" },
      { Cookie: op.cookie },
    );
    expect(eu.status).toBe(200);
    expect(await env.DIRECTORY.prepare("SELECT shard, jurisdiction FROM museums WHERE slug = ?").bind(`eu-${tag}`).first()).toEqual({
      shard: 2,
      jurisdiction: "eu",
    });
    const notEu = await postForm(
      "/operator/museums/new",
      { ...fields, slug: `eu1-${tag}`, adminEmail: `eu1-${admin}`, shard: "1", eu: "on" },
      { Cookie: op.cookie },
    );
    expect(notEu.status).toBe(400);
    // Ten creations of one address at once: one museum.
    const slug = `race-${tag}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => postForm("/operator/museums/new", { ...fields, slug, adminEmail: `race-${i}-${admin}` }, { Cookie: op.cookie })),
    );
    expect(answers.map((r) => r.status).filter((s) => s === 200)).toHaveLength(1);
    expect(answers.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const count = await env.DIRECTORY.prepare("SELECT count(*) AS n FROM museums WHERE slug = ?").bind(slug).first<{ n: number }>();
    expect(count!.n).toBe(1);
    // Only an operator: a museum admin's session is refused, as if the page did not exist.
    expect((await postForm("/operator/museums/new", { ...fields, slug: `nope-${tag}` }, { Cookie: (await staffSession()).cookie })).status).toBe(404);
  });

  it("suspends a museum: visitors get the polite page (503), its team is signed out and kept out; resuming restores it all", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const { link } = await publishArticle(staff, texts(["Une amphore attique."]));
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(200);
    const id = staff.user.museumId;
    const act = (intent: string, cookie = op.cookie) => postForm(`/operator/museums/${id}`, { intent }, { Cookie: cookie });

    // Two operators suspending at once: one suspends, the other hears it was done.
    const [a, b] = await Promise.all([act("suspend"), act("suspend")]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const page = await get(`/r/${link}?lang=fr`);
    expect(page.status).toBe(503);
    expect(page.headers.get("Retry-After")).toBe("3600");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex");
    const html = await page.text();
    expect(html).not.toContain("amphore");
    expect((await get(`/v/${staff.user.museumSlug}/${"x"}`)).status).not.toBe(500);
    // The team: the session opens nothing any more, and signing in says why.
    expect((await get("/api/read/glossary", staff.cookie)).status).toBe(401);
    const signIn = await postJson("/login", { email: staff.user.email, password: staff.user.password });
    expect(signIn.status).toBe(403);
    expect(await signIn.json()).toMatchObject({ error: { reason: "museum_suspended" } });
    const figures = await get(`/operator/museums.csv?q=${encodeURIComponent(staff.user.museumSlug)}`, op.cookie);
    expect(await figures.text()).toContain(",suspended,");
    // Resumed: everything at once, nothing lost.
    expect((await act("resume")).status).toBe(200);
    expect((await act("resume")).status).toBe(409);
    const back = await get(`/r/${link}?lang=fr`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain("amphore");
    expect(await logIn(staff.user)).toMatch(/muselingo_session=/);
    const audit = await env.DIRECTORY.prepare("SELECT action FROM operator_audit WHERE museum_id = ? AND action LIKE 'museum.%' ORDER BY id")
      .bind(id)
      .all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["museum.suspend", "museum.resume"]);
    // Refusals: an unknown intent 400, an unknown museum 404, a museum member 404.
    expect((await act("delete")).status).toBe(400);
    expect((await postForm("/operator/museums/999999999", { intent: "suspend" }, { Cookie: op.cookie })).status).toBe(404);
    expect((await act("suspend", staff.cookie)).status).toBe(404);
  });
});
