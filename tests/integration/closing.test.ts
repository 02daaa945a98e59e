import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MOVED_TABLES, checkMuseum } from "~/shards/move";
import { BASE, createMember, get, logIn, postJson, publishArticle, signIn, staffSession, texts } from "./helpers";
import { createMuseum } from "./builders";
import { runCron } from "./cron";
import { enrolled } from "./operator-helpers";
import { postForm } from "./team-helpers";

// Issue 33 §2–3, decision 148: what each museum asks of the engines, its own bounds, and closing it (archive kept
// 30 days, then everything purged).

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const month = () => new Date().toISOString().slice(0, 7);
const DAILY_CRON = "30 3 * * *";

async function usage(museumId: number) {
  const { results } = await env.DB.prepare("SELECT kind, engine, chars, calls FROM engine_usage WHERE museum_id = ? AND month = ? ORDER BY kind, engine")
    .bind(museumId, month())
    .all<{ kind: string; engine: string; chars: number; calls: number }>();
  return results;
}

const spent = async (museumId: number) =>
  (await env.DB.prepare("SELECT chars FROM translation_spend WHERE museum_id = ? AND month = ?").bind(museumId, month()).first<number>("chars")) ?? 0;

const memoryRows = async (museumId: number, lang: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM translation_memory WHERE museum_id = ? AND target_lang = ?").bind(museumId, lang).first<number>("n"))!;

describe("engine use and the monthly bounds (decision 148)", () => {
  it("counts what each engine translated, by museum and month; the console shows it and its estimated cost", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const id = staff.user.museumId;
    const lines = ["Une amphore attique à figures noires.", "Achille et Ajax jouent aux dés ✓."];
    const { link } = await publishArticle(staff, texts(lines));
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    const chars = [...lines.join("")].length;
    // One engine call for both lines; the second view reads the memory and counts nothing.
    expect(await usage(id)).toEqual([{ kind: "translation", engine: "pseudo", chars, calls: 1 }]);
    expect(await spent(id)).toBe(chars);
    const csv = await (await get(`/operator/museums.csv?q=${staff.user.museumSlug}`, op.cookie)).text();
    const [head, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
    const cell = (name: string) => row!.split(",")[head!.split(",").indexOf(name)];
    expect(cell("translation_chars_month")).toBe(String(chars));
    // The offline engine costs nothing; an engine without a price would be named.
    expect(cell("estimated_cost_usd_month")).toBe("0.00");
    expect(cell("translation_bound")).toBe("default");
    const page = await (await get(`/operator/museums/${id}`, op.cookie)).text();
    expect(page).toContain("<code>pseudo</code>");
  });

  it("at the museum's translation bound visitors read the original, never an error; 50 first views at once never overshoot it", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const id = staff.user.museumId;
    const lines = ["Un cratère en calice.", "Peint par Euphronios vers 515 av. J.-C."];
    const { link } = await publishArticle(staff, texts(lines));
    const perLanguage = [...lines.join("")].length;
    // Room for exactly two languages.
    const set = await postForm(
      `/operator/museums/${id}`,
      { intent: "bounds", translationBound: String(2 * perLanguage), narrationBound: "", seenTranslationBound: "", seenNarrationBound: "" },
      { Cookie: op.cookie },
    );
    expect(set.status).toBe(200);
    const languages = ["de", "es", "it", "nl", "pt"];
    const views = await Promise.all(Array.from({ length: 50 }, (_, i) => get(`/r/${link}?lang=${languages[i % languages.length]}`)));
    expect(views.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(await spent(id)).toBeLessThanOrEqual(2 * perLanguage);
    const translated: string[] = [];
    for (const lang of languages) if ((await memoryRows(id, lang)) > 0) translated.push(lang);
    expect(translated).toHaveLength(2);
    // A language past the bound: the original text, 200, nothing stored.
    const late = languages.find((lang) => !translated.includes(lang))!;
    const page = await get(`/r/${link}?lang=${late}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Euphronios vers 515");
    expect(await memoryRows(id, late)).toBe(0);
    // Staff are told why, on the dashboard.
    const dashboard = await (await get("/dashboard", staff.cookie)).text();
    expect(dashboard).toMatch(/allowance for this month is used|quota de traduction du musée est épuisé/);
    // Raised: the next view translates.
    const raise = await postForm(
      `/operator/museums/${id}`,
      { intent: "bounds", translationBound: "", narrationBound: "", seenTranslationBound: String(2 * perLanguage), seenNarrationBound: "" },
      { Cookie: op.cookie },
    );
    expect(raise.status).toBe(200);
    // A bound reached is asked again a minute later: that minute, passed.
    await env.DB.prepare("UPDATE translation_failures SET retry_at = 0 WHERE museum_id = ? AND reason = 'bound'").bind(id).run();
    await get(`/r/${link}?lang=${late}`);
    expect(await memoryRows(id, late)).toBeGreaterThan(0);
  });

  it("refuses a malformed bound with 400 naming it, a stale form with 409, and takes one of two conflicting changes", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const id = staff.user.museumId;
    const send = (fields: Record<string, string>) =>
      postForm(
        `/operator/museums/${id}`,
        { intent: "bounds", translationBound: "", narrationBound: "", seenTranslationBound: "", seenNarrationBound: "", ...fields },
        { Cookie: op.cookie },
      );
    for (const bad of ["abc", "-5", "1e9", "１２", "1000000001", "12.5", "0x10", "\u202e12"]) {
      const refused = await send({ translationBound: bad });
      expect(refused.status, bad).toBe(400);
      expect(await refused.text()).toContain('id="translationBound-error"');
    }
    expect((await send({ narrationBound: "lots" })).status).toBe(400);
    const row = () => env.DB.prepare("SELECT translation_monthly_chars AS t, narration_monthly_chars AS n FROM museums WHERE id = ?").bind(id).first();
    expect(await row()).toEqual({ t: null, n: null });
    // Typed as people type numbers.
    expect((await send({ translationBound: "1 500 000", narrationBound: "250,000" })).status).toBe(200);
    expect(await row()).toEqual({ t: 1_500_000, n: 250_000 });
    // A form that showed the old values: 409, nothing written.
    expect((await send({ translationBound: "5" })).status).toBe(409);
    // Two operators at once from the same page: one wins, the other hears of it.
    const seen = { seenTranslationBound: "1500000", seenNarrationBound: "250000" };
    const [a, b] = await Promise.all([
      send({ ...seen, translationBound: "10", narrationBound: "250000" }),
      send({ ...seen, translationBound: "20", narrationBound: "250000" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([10, 20]).toContain(((await row()) as { t: number }).t);
    // The museum's own narration bound is what its staff's narration panel counts against.
    const { articleId } = await publishArticle(staff, texts(["Un vase."]));
    const narration = (await staff.read(`/api/read/narrations?articleId=${articleId}`)).body as { budget: { limit: number } };
    expect(narration.budget.limit).toBe(250_000);
    // The third bound: answers to visitors' questions (decision 151), refused as the others when malformed.
    const current = { seenTranslationBound: String(((await row()) as { t: number }).t), seenNarrationBound: "250000" };
    const answers = await send({ ...current, translationBound: current.seenTranslationBound, narrationBound: "250000", questionsBound: "twelve" });
    expect(answers.status).toBe(400);
    expect(await answers.text()).toContain('id="questionsBound-error"');
    expect((await send({ ...current, translationBound: current.seenTranslationBound, narrationBound: "250000", questionsBound: "1 000" })).status).toBe(200);
    expect(await env.DB.prepare("SELECT questions_monthly AS q FROM museums WHERE id = ?").bind(id).first("q")).toBe(1000);
    // The form that showed no questions bound is now stale.
    expect((await send({ ...current, translationBound: current.seenTranslationBound, narrationBound: "250000", questionsBound: "5" })).status).toBe(409);
    const page = await (await SELF.fetch(`${BASE}/operator/museums/${id}`, { headers: { Cookie: op.cookie } })).text();
    expect(page).toContain('name="seenQuestionsBound" value="1000"');
  });
});

describe("each museum's share of its database (decision 150)", () => {
  it("is measured by the nightly cron, row by row, and adds up to the size D1 reports for the shard", async () => {
    const op = await enrolled();
    const big = await createMuseum({ shard: 1 });
    const small = await createMuseum({ shard: 1 });
    const writer = await signIn(await createMember(big));
    for (let i = 0; i < 3; i++) await publishArticle(writer, texts([`Vitrine ${i} : ${"une longue description d’amphore. ".repeat(40)}`]));
    await createMember(small);
    await runCron(DAILY_CRON, new Date());
    const sizes = await env.DIRECTORY.prepare("SELECT id, d1_bytes AS bytes, d1_measured_at AS at FROM museums WHERE shard = 1").all<{
      id: number;
      bytes: number;
      at: number;
    }>();
    const of = (id: number) => sizes.results.find((r) => r.id === id)!;
    expect(of(small.museumId).bytes).toBeGreaterThan(0);
    expect(of(big.museumId).bytes).toBeGreaterThan(of(small.museumId).bytes * 3);
    expect(of(big.museumId).at).toBeGreaterThan(Date.now() - 60_000);
    const shard = (await env.DIRECTORY.prepare("SELECT bytes FROM shards WHERE shard = 1").first<number>("bytes"))!;
    const total = sizes.results.reduce((sum, r) => sum + r.bytes, 0);
    if (shard > 0) expect(Math.abs(total - shard)).toBeLessThanOrEqual(sizes.results.length);
    const csv = await (await get(`/operator/museums.csv?q=${big.museumSlug}`, op.cookie)).text();
    const [head, row] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(row!.split(",")[head!.split(",").indexOf("d1_bytes")]).toBe(String(of(big.museumId).bytes));
  });
});

async function kvKeysAndValues(): Promise<{ name: string; value: string }[]> {
  const out = [];
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown> = await env.KV.list({ cursor });
    for (const key of page.keys) out.push({ name: key.name, value: (await env.KV.get(key.name)) ?? "" });
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}

async function r2Keys(prefix: string) {
  return (await env.MEDIA.list({ prefix })).objects.map((o) => o.key);
}

describe("closing a museum (decision 148)", () => {
  it("closes: visitors get 410, the team is out, the admin downloads the archive; the purge 30 days on leaves nothing, and no other museum loses a row", async () => {
    const op = await enrolled();
    const marker = `Musée-fermé-${crypto.randomUUID().slice(0, 8)}`;
    const tag = `ZK-${Date.now()}-${Math.floor(Math.random() * 1e6)}-QX`;
    const staff = await staffSession();
    const other = await staffSession();
    const id = staff.user.museumId;
    await env.DB.prepare("UPDATE museums SET name = ? WHERE id = ?").bind(marker, id).run();
    const { link, articleId } = await publishArticle(staff, texts([`${marker} : une amphore attique.`, `Achille et Ajax ${tag}.`]));
    const form = new FormData();
    form.append("articleId", String(articleId));
    form.append("image", new File([PNG], "amphore.png", { type: "image/png" }));
    expect((await SELF.fetch(`${BASE}/api/upload/image`, { method: "POST", body: form, headers: { Cookie: staff.cookie } })).status).toBe(200);
    await env.MEDIA.put(`n/${id}/${articleId}/a.mp3`, new Uint8Array([4, 5]));
    expect((await get(`/r/${link}?lang=de`)).status).toBe(200);
    const kept = await publishArticle(other, texts(["Une autre maison, un autre musée."]));
    expect((await get(`/r/${kept.link}?lang=de`)).status).toBe(200);
    const editor = await createMember({ museumId: id, museumSlug: staff.user.museumSlug }, { role: "editor" });
    const otherBefore = await checkMuseum(env.DB, other.user.museumId);
    const act = (fields: Record<string, string>, cookie = op.cookie) => postForm(`/operator/museums/${id}`, fields, { Cookie: cookie });

    // The slug typed wrong: 400 naming the field, nothing closed.
    const wrong = await act({ intent: "close", confirm: "pas-le-bon" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('id="confirm-error"');
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(200);
    // Two operators closing at once: one closes, the other hears it is closed.
    const [a, b] = await Promise.all([
      act({ intent: "close", confirm: staff.user.museumSlug }),
      act({ intent: "close", confirm: ` ${staff.user.museumSlug} ` }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);

    const gone = await get(`/r/${link}?lang=fr`);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("Retry-After")).toBeNull();
    const html = await gone.text();
    expect(html).not.toContain("amphore");
    expect(html).toContain("n’est plus disponible");
    expect((await get("/api/read/glossary", staff.cookie)).status).toBe(401);
    // The admin signing in gets a link to the archive; an editor is only told.
    const admin = await postJson("/login", { email: staff.user.email, password: staff.user.password });
    expect(admin.status).toBe(403);
    const refusal = (await admin.json()) as { error: { reason: string; archive?: { url: string; until: number } } };
    expect(refusal.error.reason).toBe("museum_closed");
    expect(refusal.error.archive!.until).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const byEditor = await postJson("/login", { email: editor.email, password: editor.password });
    expect(((await byEditor.json()) as { error: { archive?: unknown } }).error.archive).toBeUndefined();
    const zip = await get(refusal.error.archive!.url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("Content-Type")).toBe("application/zip");
    const bytes = new Uint8Array(await zip.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    // A forged, altered or other museum's link: 404.
    const url = refusal.error.archive!.url;
    expect((await get(url.replace(/.$/, url.endsWith("0") ? "1" : "0"))).status).toBe(404);
    expect((await get(url.replace(`/${id}.`, `/${other.user.museumId}.`))).status).toBe(404);
    expect((await get("/closed-archive/nothing")).status).toBe(404);
    // The operator downloads it from the console too.
    expect((await get(`/operator/museums/${id}/archive`, op.cookie)).status).toBe(200);
    expect((await get(`/operator/museums/${id}/archive`, other.cookie)).status).toBe(404);
    const consoleRow = await (await get(`/operator/museums.csv?q=${staff.user.museumSlug}`, op.cookie)).text();
    expect(consoleRow).toContain(",closing,");

    // A day before the 30 days are over: nothing purged.
    const closedAt = (await env.DB.prepare("SELECT closed_at FROM museums WHERE id = ?").bind(id).first<number>("closed_at"))!;
    await runCron(DAILY_CRON, new Date(closedAt + 29 * 86_400_000));
    expect(await env.DB.prepare("SELECT 1 FROM museums WHERE id = ?").bind(id).first()).not.toBeNull();
    expect(await r2Keys(`archives/${id}/`)).toHaveLength(1);

    // What the purge must remove is there: the German translation's cache, the museum's stamp, its files.
    // Found by what they hold, not by their key: the test files share one KV while each has its own D1, so another
    // file's article or museum may carry the same id. The tag is letters the pseudo-translation leaves as they are.
    const ofMuseum = (entries: { name: string; value: string }[]) =>
      entries.filter((entry) => [marker, tag, staff.user.museumSlug].some((mark) => entry.value.includes(mark)));
    expect((await kvKeysAndValues().then(ofMuseum)).length).toBeGreaterThanOrEqual(2);
    expect(await r2Keys(`m/${id}/`)).toHaveLength(1);
    await runCron(DAILY_CRON, new Date(closedAt + 30 * 86_400_000 + 60_000));
    // Nothing of it remains: no row in any table that holds a museum's rows, in the directory, in R2 or in KV.
    for (const spec of MOVED_TABLES) {
      const n = await env.DB.prepare(`SELECT count(*) AS n FROM "${spec.name}" WHERE ${spec.scope}`).bind(id).first<number>("n");
      expect(n, spec.name).toBe(0);
    }
    for (const table of ["museums", "accounts", "links"])
      expect(
        await env.DIRECTORY.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table === "museums" ? "id" : "museum_id"} = ?`)
          .bind(id)
          .first<number>("n"),
        table,
      ).toBe(0);
    for (const prefix of [`m/${id}/`, `n/${id}/`, `imports/${id}/`, `archives/${id}/`]) expect(await r2Keys(prefix), prefix).toEqual([]);
    expect(await kvKeysAndValues().then(ofMuseum)).toEqual([]);
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(404);
    expect((await get(url)).status).toBe(404);
    // The other museum lost nothing, and still answers.
    expect(await checkMuseum(env.DB, other.user.museumId)).toEqual(otherBefore);
    expect((await get(`/r/${kept.link}?lang=de`)).status).toBe(200);
    expect(await logIn(other.user)).toMatch(/muselingo_session=/);
    const audit = await env.DIRECTORY.prepare("SELECT action FROM operator_audit WHERE museum_id = ? ORDER BY id").bind(id).all<{ action: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["museum.close", "museum.archive_download", "museum.purge"]);
  });

  it("50 identical requests at once, and bodies that are not the form: one change, clear refusals, never a 500", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const id = staff.user.museumId;
    const url = `/operator/museums/${id}`;
    const bounds = { intent: "bounds", translationBound: "123456", narrationBound: "", seenTranslationBound: "", seenNarrationBound: "" };
    const saves = await Promise.all(Array.from({ length: 50 }, () => postForm(url, bounds, { Cookie: op.cookie })));
    const saved = saves.map((r) => r.status);
    expect(saved.filter((s) => s === 200)).toHaveLength(1);
    expect(saved.every((s) => s === 200 || s === 409)).toBe(true);
    const closes = await Promise.all(
      Array.from({ length: 50 }, () => postForm(url, { intent: "close", confirm: staff.user.museumSlug }, { Cookie: op.cookie })),
    );
    const closed = closes.map((r) => r.status);
    expect(closed.filter((s) => s === 200)).toHaveLength(1);
    expect(closed.every((s) => s === 200 || s === 409)).toBe(true);
    expect((await env.MEDIA.list({ prefix: `archives/${id}/` })).objects).toHaveLength(1);
    // Not the form: JSON, an empty body, a huge one, odd Unicode in every field.
    const send = (body: BodyInit, type: string) => SELF.fetch(`${BASE}${url}`, { method: "POST", body, headers: { Cookie: op.cookie, "Content-Type": type } });
    for (const [body, type] of [
      [JSON.stringify({ intent: "reopen" }), "application/json"],
      ["", "application/x-www-form-urlencoded"],
      [`intent=bounds&translationBound=${"9".repeat(200_000)}`, "application/x-www-form-urlencoded"],
      ["intent=%F0%9F%8F%BA&confirm=%00", "application/x-www-form-urlencoded"],
      ["intent=bounds&translationBound=%E2%80%AE12&narrationBound=%EF%BC%91", "application/x-www-form-urlencoded"],
      ["intent=move&to=%C2%B2", "application/x-www-form-urlencoded"],
    ] as const) {
      const answer = await send(body, type);
      expect(answer.status, `${type} ${body.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${type} ${body.slice(0, 40)}`).toBeLessThan(500);
    }
  });

  it("reopens before the purge: suspended until resumed, its archive removed; a closed museum takes no bounds, and its members no 500", async () => {
    const op = await enrolled();
    const staff = await staffSession();
    const id = staff.user.museumId;
    const { link } = await publishArticle(staff, texts(["Une stèle funéraire."]));
    const act = (fields: Record<string, string>) => postForm(`/operator/museums/${id}`, fields, { Cookie: op.cookie });
    expect((await act({ intent: "reopen" })).status).toBe(409);
    expect((await act({ intent: "close", confirm: staff.user.museumSlug })).status).toBe(200);
    // Closed, it takes nothing but a reopen: no resume that would show its guide again, no suspend, no bounds, no move.
    expect((await act({ intent: "suspend" })).status).toBe(409);
    expect((await act({ intent: "resume" })).status).toBe(409);
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(410);
    const bounds = { intent: "bounds", translationBound: "5", narrationBound: "", seenTranslationBound: "", seenNarrationBound: "" };
    expect((await act(bounds)).status).toBe(409);
    expect((await act({ intent: "move", to: "1" })).status).toBe(409);
    // Even a suspension cleared behind the console's back leaves the guide closed.
    await env.DB.prepare("UPDATE museums SET suspended_at = NULL WHERE id = ?").bind(id).run();
    await env.DB.prepare("UPDATE museums SET name = name WHERE id = ?").bind(id).run();
    await runCron("* * * * *");
    expect((await get(`/r/${link}?lang=de`)).status).toBe(410);
    await env.DB.prepare("UPDATE museums SET suspended_at = closed_at WHERE id = ?").bind(id).run();
    expect(await r2Keys(`archives/${id}/`)).toHaveLength(1);
    expect((await act({ intent: "reopen" })).status).toBe(200);
    expect(await r2Keys(`archives/${id}/`)).toEqual([]);
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(503);
    expect((await act({ intent: "resume" })).status).toBe(200);
    expect((await get(`/r/${link}?lang=fr`)).status).toBe(200);
    expect(await logIn(staff.user)).toMatch(/muselingo_session=/);
    // Malformed closes: no 500.
    for (const confirm of ["", "\u0000", "é".repeat(500), staff.user.museumSlug.toUpperCase()])
      expect((await act({ intent: "close", confirm })).status).toBe(400);
    expect((await postForm(`/operator/museums/${id}`, { intent: "close" }, { Cookie: op.cookie })).status).toBe(400);
    expect((await postForm("/operator/museums/999999999", { intent: "close", confirm: "x" }, { Cookie: op.cookie })).status).toBe(404);
  });
});
