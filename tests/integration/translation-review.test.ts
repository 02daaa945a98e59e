import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, postJson, publishArticle, staffSession } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;
type Segment = { id: string; source: string; text: string | null; origin: string | null; stale: boolean; previousSource?: string; machineText?: string | null };

const ELEMENTS = [
  { type: "text", content: "Une amphore attique.\nVers 530 avant notre ère." },
  { type: "accordion", header: { content: "Le peintre" }, details: [{ type: "text", content: "Le peintre d'Amasis." }] },
];

const publish = (s: Session, elements: unknown[] = ELEMENTS) => publishArticle(s, elements);

async function review(s: Session, articleId: number, lang: string) {
  const r = await s.read(`/api/read/translation?articleId=${articleId}&lang=${lang}`);
  expect(r.status).toBe(200);
  return r.body as { segments: Segment[]; reports: { id: number; message: string }[] };
}

const visit = async (link: string, lang: string) => (await get(`/r/${link}?lang=${lang}`)).text();

describe("translation review", () => {
  it("lists languages, shows segments side by side, and a correction reaches visitors at once", async () => {
    const s = await staffSession();
    const { articleId, link } = await publish(s);
    expect(await visit(link, "de")).toContain("[de] Úñé ámphóré áttíqúé.");
    await visit(link, "es");

    const list = await s.read(`/api/read/translations?articleId=${articleId}`);
    expect(list.body).toEqual({
      total: 4,
      languages: [
        { lang: "de", views: 0, segments: 4, reviewed: 0, stale: 0, reports: 0, failing: null },
        { lang: "es", views: 0, segments: 4, reviewed: 0, stale: 0, reports: 0, failing: null },
      ],
    });
    const de = await review(s, articleId, "de");
    expect(de.segments.map((x) => [x.id, x.source, x.origin])).toEqual([
      ["e1.content.0", "Une amphore attique.", "machine"],
      ["e1.content.1", "Vers 530 avant notre ère.", "machine"],
      ["e2.header.0", "Le peintre", "machine"],
      ["e2.d0.content.0", "Le peintre d'Amasis.", "machine"],
    ]);

    const fixed = await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "  Eine attische Amphore.  " });
    expect(fixed.status).toBe(200);
    expect(fixed.body.segment).toMatchObject({ id: "e1.content.0", text: "Eine attische Amphore.", origin: "edited" });
    const page = await visit(link, "de");
    expect(page).toContain("Eine attische Amphore.");
    expect(page).not.toContain("[de] Úñé ámphóré");
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toMatchObject({
      languages: [
        { lang: "de", reviewed: 1 },
        { lang: "es", reviewed: 0 },
      ],
    });

    // Every segment reviewed: the page says so.
    for (const x of de.segments.slice(1)) await s.call("update_translation", { articleId, lang: "de", segmentId: x.id, text: `Geprüft: ${x.source}` });
    expect(await visit(link, "de")).toContain("révíéwéd bý thé múséúm");
  });

  it("a reviewed segment survives edits of others; a changed source makes it stale until confirmed", async () => {
    const s = await staffSession();
    const { articleId, link, edit } = await publish(s);
    await visit(link, "de");
    await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." });

    await edit([{ type: "text", content: "Une amphore attique.\nVers 520 avant notre ère." }, ELEMENTS[1]]);
    let de = await review(s, articleId, "de");
    expect(de.segments[0]).toMatchObject({ text: "Eine attische Amphore.", origin: "edited", stale: false });
    expect(await visit(link, "de")).toContain("Eine attische Amphore.");

    await edit([{ type: "text", content: "Une grande amphore attique.\nVers 520 avant notre ère." }, ELEMENTS[1]]);
    de = await review(s, articleId, "de");
    expect(de.segments[0]).toMatchObject({
      source: "Une grande amphore attique.",
      text: "Eine attische Amphore.",
      origin: "edited",
      stale: true,
      previousSource: "Une amphore attique.",
      machineText: null,
    });
    // Visitors get the fresh machine translation meanwhile, never the stale review.
    const page = await visit(link, "de");
    expect(page).toContain("[de] Úñé gráñdé ámphóré áttíqúé.");
    expect(page).not.toContain("Eine attische Amphore.");
    expect((await review(s, articleId, "de")).segments[0]!.machineText).toBe("[de] Úñé gráñdé ámphóré áttíqúé.");
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toMatchObject({ languages: [{ lang: "de", stale: 1, reviewed: 0 }] });

    await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine große attische Amphore." });
    expect((await review(s, articleId, "de")).segments[0]).toMatchObject({ stale: false, origin: "edited", text: "Eine große attische Amphore." });
    expect(await visit(link, "de")).toContain("Eine große attische Amphore.");

    // A paragraph that only moves is not stale.
    await edit([ELEMENTS[1], { type: "text", content: "Une grande amphore attique.\nVers 520 avant notre ère." }]);
    expect((await review(s, articleId, "de")).segments.filter((x) => x.stale)).toEqual([]);
  });

  it("resets one language, or all, and pretranslates", async () => {
    const s = await staffSession();
    const { articleId, link } = await publish(s);
    await visit(link, "de");
    await visit(link, "es");
    await s.call("update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "Eine attische Amphore." });

    const reset = await s.call("reset_translation", { articleId, lang: "de" });
    expect(reset).toEqual({ status: 200, body: { articleId, lang: "de", deleted: 4 } });
    expect((await env.KV.list({ prefix: `tr:v1:${articleId}:de:` })).keys).toHaveLength(0);
    expect((await review(s, articleId, "es")).segments.every((x) => x.origin === "machine")).toBe(true);
    expect((await review(s, articleId, "de")).segments.every((x) => x.text === null && !x.stale)).toBe(true);

    const pre = await s.call("pretranslate", { articleId, langs: ["ja", "ar", "ja"] });
    expect(pre).toEqual({
      status: 200,
      body: {
        articleId,
        results: [
          { lang: "ja", status: "machine" },
          { lang: "ar", status: "machine" },
        ],
      },
    });
    expect((await env.KV.list({ prefix: `tr:v1:${articleId}:ar:` })).keys).toHaveLength(1);
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toMatchObject({ languages: [{ lang: "ar" }, { lang: "es" }, { lang: "ja" }] });

    expect((await s.call("reset_traductions", { articleId })).status).toBe(200);
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toEqual({ languages: [], total: 4 });
  });

  it("refuses bad input with the field, and other museums' articles with 404", async () => {
    const s = await staffSession();
    const { articleId } = await publish(s);
    const cases: [string, unknown, number, string?][] = [
      ["update_translation", { articleId, lang: "xx-nope", segmentId: "e1.content.0", text: "x" }, 400, "lang"],
      ["update_translation", { articleId, lang: "fr", segmentId: "e1.content.0", text: "x" }, 400, "lang"],
      ["update_translation", { articleId, lang: "de", segmentId: "e9.content.0", text: "x" }, 404, "segmentId"],
      ["update_translation", { articleId, lang: "de", segmentId: "'; DROP TABLE", text: "x" }, 400, "segmentId"],
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "   " }, 400, "text"],
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "zwei\nZeilen" }, 400, "text"],
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "\u202eevil" }, 400, "text"],
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "x".repeat(20_001) }, 400, "text"],
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0" }, 400, "text"],
      ["reset_translation", { articleId: "abc", lang: "de" }, 400, "articleId"],
      ["pretranslate", { articleId, langs: [] }, 400, "langs"],
      ["pretranslate", { articleId, langs: Array.from({ length: 21 }, () => "de") }, 400, "langs"],
      ["pretranslate", { articleId, langs: ["fr"] }, 400, "lang"],
      ["resolve_report", { reportId: 999_999_999 }, 404, "reportId"],
    ];
    for (const [call, body, status, field] of cases) {
      const r = await s.call(call, body);
      expect(r.status, `${call} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      if (field) expect((r.body.error as { field?: string }).field ?? "").toContain(field);
    }
    expect((await s.read(`/api/read/translation?articleId=${articleId}&lang=klingon`)).status).toBe(400);

    const other = await staffSession();
    for (const [call, body] of [
      ["update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "x" }],
      ["reset_translation", { articleId, lang: "de" }],
      ["pretranslate", { articleId, langs: ["de"] }],
    ] as const) {
      expect((await other.call(call, body)).status).toBe(404);
    }
    expect((await other.read(`/api/read/translations?articleId=${articleId}`)).status).toBe(404);
    expect((await other.read(`/api/read/translation?articleId=${articleId}&lang=de`)).status).toBe(404);
    expect((await get(`/api/read/translations?articleId=${articleId}`)).status).toBe(401);
    expect((await postJson("/api/manage/update_translation", { articleId, lang: "de", segmentId: "e1.content.0", text: "x" })).status).toBe(401);
  });

  it("50 identical corrections at once and two conflicting ones leave one consistent answer", async () => {
    const s = await staffSession();
    const { articleId, link } = await publish(s);
    const body = { articleId, lang: "it", segmentId: "e1.content.0", text: "Un'anfora attica." };
    const all = await Promise.all(Array.from({ length: 50 }, () => s.call("update_translation", body)));
    expect(all.every((r) => r.status === 200)).toBe(true);
    const [a, b] = await Promise.all([
      s.call("update_translation", { ...body, text: "Versione A." }),
      s.call("update_translation", { ...body, text: "Versione B." }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const final = (await review(s, articleId, "it")).segments[0]!.text;
    expect(["Versione A.", "Versione B."]).toContain(final);
    expect(await visit(link, "it")).toContain(final!);
    const rows = await env.DB.prepare("SELECT text FROM translation_reviews WHERE article_id = ? AND target_lang = 'it'")
      .bind(articleId)
      .all<{ text: string }>();
    expect(rows.results).toEqual([{ text: final }]);
    // 50 writes that each drop cached pages: slow on a busy CI machine, never wrong.
  }, 120_000);
});

describe("visitor reports", () => {
  const report = (link: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    SELF.fetch(`${BASE}/r/${link}/report`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "203.0.113.7", ...headers },
      body: new URLSearchParams(fields),
    });

  it("a visitor reports a problem without login; staff see it for that language and resolve it", async () => {
    const s = await staffSession();
    const { articleId, link } = await publish(s);
    const page = await visit(link, "de");
    expect(page).toContain(`action="/r/${link}/report"`);

    const sent = await report(link, { lang: "de", message: "  Der zweite Satz ist falsch übersetzt. 🙂 " }, { "CF-Connecting-IP": "203.0.113.1" });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("[de] Thé múséúm wíll réád");
    const de = await review(s, articleId, "de");
    expect(de.reports).toEqual([expect.objectContaining({ message: "Der zweite Satz ist falsch übersetzt. 🙂" })]);
    expect((await s.read(`/api/read/translations?articleId=${articleId}`)).body).toMatchObject({ languages: [{ lang: "de", reports: 1 }] });

    const dashboard = await (await get("/dashboard", s.cookie)).text();
    expect(dashboard).toContain("Signalements de traduction ouverts (1)");
    expect(dashboard).toContain(`href="/translations?id=${articleId}&amp;lang=de"`);

    const other = await staffSession();
    expect((await other.call("resolve_report", { reportId: de.reports[0]!.id })).status).toBe(404);
    expect(await (await get("/dashboard", other.cookie)).text()).toContain("Signalements de traduction ouverts (0)");
    const resolved = await s.call("resolve_report", { reportId: de.reports[0]!.id });
    expect(resolved.status).toBe(200);
    expect((await s.call("resolve_report", { reportId: de.reports[0]!.id })).body.resolvedAt).toBe(resolved.body.resolvedAt);
    expect((await review(s, articleId, "de")).reports).toEqual([]);
  });

  it("refuses empty and long messages in the form, limits each address, and 404s codes leading nowhere", async () => {
    const s = await staffSession();
    const { link } = await publish(s);
    const empty = await report(link, { lang: "en", message: " \u0000 " }, { "CF-Connecting-IP": "203.0.113.2" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please write a few words about the problem.");
    const long = await report(link, { lang: "en", message: "é".repeat(501) }, { "CF-Connecting-IP": "203.0.113.2" });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("500 characters at most");
    expect((await report(link, { lang: "en", message: "😀".repeat(500) }, { "CF-Connecting-IP": "203.0.113.2" })).status).toBe(200);

    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => report(link, { lang: "en", message: `Report ${i}` }, { "CF-Connecting-IP": "203.0.113.3" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 200)).toHaveLength(5);
    expect(statuses.filter((x) => x === 429)).toHaveLength(3);
    expect(results.find((r) => r.status === 429)!.headers.get("Retry-After")).toMatch(/^\d+$/);

    const json = await SELF.fetch(`${BASE}/r/${link}/report`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(json.status).toBe(415);
    const inactive = await s.call("add_qrcode", {});
    expect((await report(inactive.body.link as string, { lang: "en", message: "x" })).status).toBe(404);
    expect((await report("zzzzzzzz", { lang: "en", message: "x" })).status).toBe(404);
    expect((await get(`/r/${link}/report?lang=en`)).status).toBe(200);
  });
});
