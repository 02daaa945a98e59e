import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { publishDue } from "~/publishing/publish.server";
import { visitorPage } from "~/visitor/page.server";
import { atAddress, atLink } from "~/visitor/place.server";
import { RequestTiming } from "~/visitor-cache/timing";
import { auditEntries, get, memberSession, publishArticle, recordingScans, staffSession, texts, type StaffSession } from "./helpers";
import { runCron } from "./cron";

type Json = Record<string, unknown>;
type ArticleRead = {
  version: number;
  name: string;
  status: string;
  content: { type: string; content?: string }[];
  draft: { version: number; content: unknown[]; updatedAt: number };
  published: { version: number; content: { type: string; content?: string }[]; publishedAt: number } | null;
  publishAt: number | null;
  publishAtBy: { id: number; email: string } | null;
};

const read = async (s: StaffSession, id: number) => (await s.read(`/api/read/article?articleId=${id}`)).body as ArticleRead;

/** A new article (never published) at the root with `lines` saved as its draft, linked to a code. */
async function draftArticle(s: StaffSession, lines: string[]) {
  const added = await s.call("add_article", { pathArray: [] });
  const id = added.body.id as number;
  const current = await read(s, id);
  const saved = await s.call("update_article", { articleId: id, version: current.version, newContent: [current.content[0], ...texts(lines)] });
  expect(saved.status).toBe(200);
  const code = await s.call("add_qrcode", {});
  await s.call("update_qrcode", { qrcodeId: code.body.id, articleId: id });
  return { id, slug: current.name, version: saved.body.version as number, link: code.body.link as string };
}

async function saveDraft(s: StaffSession, id: number, lines: string[]) {
  const current = await read(s, id);
  const saved = await s.call("update_article", { articleId: id, version: current.version, newContent: [current.content[0], ...texts(lines)] });
  expect(saved.status).toBe(200);
  return saved.body.version as number;
}

const versions = async (id: number) =>
  (
    await env.DB.prepare("SELECT number, published_by, published_by_email, note, content FROM article_versions WHERE article_id = ? ORDER BY number")
      .bind(id)
      .all<Json>()
  ).results;
const audits = (museumId: number, action: string) => auditEntries(museumId, { action });

describe("publish_article", () => {
  it("publishes the saved draft: visitors see it, a version and an audit entry are written", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Première version"]);
    const before = await read(s, a.id);
    expect(before.status).toBe("never_published");
    expect(before.published).toBeNull();
    const published = await s.call("publish_article", { id: a.id, version: a.version, note: "  Ouverture  " });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ id: a.id, status: "published", version: a.version, publishedVersion: a.version, versionNumber: 1, publishAt: null });
    const after = await read(s, a.id);
    expect(after.status).toBe("published");
    expect(after.published?.content[1]?.content).toBe("Première version");
    expect(after.draft.version).toBe(a.version);
    expect(await versions(a.id)).toMatchObject([{ number: 1, published_by: s.user.userId, published_by_email: s.user.email.toLowerCase(), note: "Ouverture" }]);
    expect(await audits(s.user.museumId, "article.publish")).toMatchObject([{ actor_id: s.user.userId, target: `article:${a.id}` }]);
    expect(await (await get(`/r/${a.link}`)).text()).toContain("Première version");
  });

  it("of 50 identical requests at once, exactly one publishes (one version row, one audit entry)", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Course"]);
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("publish_article", { id: a.id, version: a.version })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(49);
    expect(results.find((r) => r.status === 409)?.body).toMatchObject({ error: { code: "conflict", reason: "no_changes" } });
    expect(await versions(a.id)).toHaveLength(1);
    expect(await audits(s.user.museumId, "article.publish")).toHaveLength(1);
  });

  it("two editors: one publishes, the other (stale version) gets 409 stale_version; nothing new gets no_changes", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Un"]);
    const v2 = await saveDraft(s, a.id, ["Deux"]);
    const stale = await s.call("publish_article", { id: a.id, version: a.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: { code: "conflict", field: "version", reason: "stale_version" } });
    expect((await s.call("publish_article", { id: a.id, version: v2 })).status).toBe(200);
    const again = await s.call("publish_article", { id: a.id, version: v2 });
    expect(again.body).toMatchObject({ error: { code: "conflict", field: "id", reason: "no_changes" } });
    // A second publication is version 2 of the history.
    const v3 = await saveDraft(s, a.id, ["Trois"]);
    expect((await s.call("publish_article", { id: a.id, version: v3 })).body).toMatchObject({ versionNumber: 2 });
    expect((await versions(a.id)).map((v) => v.number)).toEqual([1, 2]);
  });

  it("visitors never see a draft: saving changes nothing for them until publication", async () => {
    const s = await staffSession();
    const a = await publishArticle(s, texts(["Texte publié"]));
    await saveDraft(s, a.articleId, ["Brouillon secret"]);
    for (const path of [`/r/${a.link}`, `/v/${s.user.museumSlug}/${a.slug}`, `/r/${a.link}?lang=en`]) {
      const html = await (await get(path)).text();
      expect(html, path).not.toContain("Brouillon secret");
    }
    expect(await (await get(`/r/${a.link}`)).text()).toContain("Texte publié");
    const state = await read(s, a.articleId);
    expect(state.status).toBe("draft");
    expect(state.content[1]?.content).toBe("Brouillon secret");
    expect(state.published?.content[1]?.content).toBe("Texte publié");
    await s.call("publish_article", { id: a.articleId, version: state.version });
    // Published: the cached page changes at once.
    expect(await (await get(`/r/${a.link}`)).text()).toContain("Brouillon secret");
  });

  it("refuses malformed bodies and odd values with 400 naming the field", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["x"]);
    const cases: [unknown, string][] = [
      [{ version: a.version }, "id"],
      [{ id: a.id }, "version"],
      [{ id: a.id, version: "1" }, "version"],
      [{ id: a.id, version: 1.5 }, "version"],
      [{ id: a.id, version: -1 }, "version"],
      [{ id: "abc", version: 1 }, "id"],
      [{ id: a.id, version: a.version, at: 12 }, "at"],
      [{ id: a.id, version: a.version, at: "tomorrow" }, "at"],
      [{ id: a.id, version: a.version, at: "2030-02-30T10:00" }, "at"],
      [{ id: a.id, version: a.version, at: "2030-01-01T25:00" }, "at"],
      [{ id: a.id, version: a.version, at: "x".repeat(5000) }, "at"],
      [{ id: a.id, version: a.version, note: "a\u202Eb" }, "note"],
      [{ id: a.id, version: a.version, note: "\uD800" }, "note"],
      [{ id: a.id, version: a.version, note: "n".repeat(501) }, "note"],
      [{ id: a.id, version: a.version, note: 3 }, "note"],
    ];
    for (const [body, field] of cases) {
      const r = await s.call("publish_article", body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((r.body.error as Json).field, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    for (const body of ["", "[]", "null", "{", '{"id":'] as const) {
      const r = await SELF.fetch("http://localhost/api/manage/publish_article", {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: s.cookie },
        body,
      });
      expect(r.status).toBe(400);
    }
    expect((await s.call("discard_draft", { id: [] })).status).toBe(400);
    expect(await versions(a.id)).toHaveLength(0);
    // An odd but valid note in any script is kept as written.
    const ok = await s.call("publish_article", { id: a.id, version: a.version, note: "Ouverture 🎨 العربية" });
    expect(ok.status).toBe(200);
    expect((await versions(a.id))[0]!.note).toBe("Ouverture 🎨 العربية");
  });

  it("another museum's article is 404 for every call; a translator and a viewer get 403 and change nothing", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const a = await draftArticle(s, ["Privé"]);
    for (const [name, body] of [
      ["publish_article", { id: a.id, version: a.version }],
      ["publish_article", { id: a.id, version: a.version, at: "2099-01-01T10:00" }],
      ["publish_article", { id: a.id, version: a.version, at: null }],
      ["discard_draft", { id: a.id }],
    ] as const) {
      const r = await other.call(name, body);
      expect(r.status, name).toBe(404);
    }
    expect((await other.read(`/api/read/article?articleId=${a.id}`)).status).toBe(404);
    for (const role of ["translator", "viewer"] as const) {
      const m = await memberSession(s.user, { role });
      expect((await m.call("publish_article", { id: a.id, version: a.version })).body).toMatchObject({ error: { code: "forbidden" } });
      expect((await m.call("discard_draft", { id: a.id })).status).toBe(403);
    }
    const editor = await memberSession(s.user, { role: "editor" });
    expect((await editor.call("publish_article", { id: a.id, version: a.version })).status).toBe(200);
    expect((await read(s, a.id)).status).toBe("published");
  });
});

describe("discard_draft", () => {
  it("brings the draft back to the published content; open editors get 409; never published is 409", async () => {
    const s = await staffSession();
    const fresh = await draftArticle(s, ["Jamais publié"]);
    expect((await s.call("discard_draft", { id: fresh.id })).body).toMatchObject({ error: { code: "conflict", reason: "never_published" } });

    const a = await publishArticle(s, texts(["Publié"]));
    expect((await s.call("discard_draft", { id: a.articleId })).body).toMatchObject({ error: { reason: "no_changes" } });
    const v = await saveDraft(s, a.articleId, ["Brouillon raté"]);
    const discarded = await s.call("discard_draft", { id: a.articleId });
    expect(discarded.status).toBe(200);
    expect(discarded.body).toMatchObject({ status: "published", version: v + 1, publishedVersion: v + 1 });
    const state = await read(s, a.articleId);
    expect(state.content[1]?.content).toBe("Publié");
    expect(state.status).toBe("published");
    // An editor still holding version v cannot save over it.
    const late = await s.call("update_article", { articleId: a.articleId, version: v, newContent: [state.content[0], ...texts(["Vieux"])] });
    expect(late.status).toBe(409);
    expect(await audits(s.user.museumId, "article.discard_draft")).toHaveLength(1);
    expect(await versions(a.articleId)).toHaveLength(1);
  });
});

describe("scheduled publication", () => {
  it("refuses a time in the past or more than a year ahead; accepts the museum's wall clock; cancels", async () => {
    const s = await staffSession();
    await env.DB.prepare("UPDATE museums SET timezone = 'America/New_York' WHERE id = ?").bind(s.user.museumId).run();
    const a = await draftArticle(s, ["Expo"]);
    expect((await s.call("publish_article", { id: a.id, version: a.version, at: "2020-01-01T10:00" })).body).toMatchObject({
      error: { field: "at", reason: "in_the_past" },
    });
    const far = new Date(Date.now() + 400 * 86_400_000).toISOString();
    expect((await s.call("publish_article", { id: a.id, version: a.version, at: far })).body).toMatchObject({ error: { field: "at", reason: "out_of_range" } });
    const year = new Date().getUTCFullYear() + 1;
    const local = `${year}-01-15T09:30`;
    const scheduled = await s.call("publish_article", { id: a.id, version: a.version, at: local });
    expect(scheduled.status).toBe(200);
    // 09:30 in New York in January is 14:30 UTC.
    expect(scheduled.body.publishAt).toBe(Date.UTC(year, 0, 15, 14, 30));
    expect(scheduled.body).toMatchObject({ status: "never_published", publishAtBy: { id: s.user.userId } });
    expect((await read(s, a.id)).publishAt).toBe(Date.UTC(year, 0, 15, 14, 30));
    expect(await audits(s.user.museumId, "article.schedule")).toHaveLength(1);
    const cancelled = await s.call("publish_article", { id: a.id, version: a.version, at: null });
    expect(cancelled.body).toMatchObject({ publishAt: null, publishAtBy: null });
    expect(await audits(s.user.museumId, "article.unschedule")).toHaveLength(1);
    // Cancelling again is fine and records nothing.
    expect((await s.call("publish_article", { id: a.id, version: a.version, at: null })).status).toBe(200);
    expect(await audits(s.user.museumId, "article.unschedule")).toHaveLength(1);
    // An absolute time with an offset is taken as that instant.
    const absolute = await s.call("publish_article", { id: a.id, version: a.version, at: `${year}-03-01T09:00+01:00` });
    expect(absolute.body.publishAt).toBe(Date.UTC(year, 2, 1, 8, 0));
  });

  it("publishes on time, exactly once under overlapping cron runs, as the member who scheduled, the draft as it is then", async () => {
    const s = await staffSession();
    const editor = await memberSession(s.user, { role: "editor" });
    const a = await draftArticle(s, ["Avant"]);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await editor.call("publish_article", { id: a.id, version: a.version, at })).status).toBe(200);
    await saveDraft(s, a.id, ["Texte de l’ouverture"]);
    const db = createDb(env.DB);
    // Not due yet.
    expect((await publishDue(db, Date.now())).published).toBe(0);
    expect((await get(`/r/${a.link}`)).status).toBe(404);
    // Due: five overlapping runs.
    const due = Date.parse(at) + 1_000;
    const runs = await Promise.all(Array.from({ length: 5 }, () => publishDue(createDb(env.DB), due)));
    expect(runs.reduce((n, r) => n + r.published, 0)).toBe(1);
    const rows = await versions(a.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ number: 1 });
    expect(rows[0]!.published_by).not.toBe(s.user.userId);
    expect(String(rows[0]!.content)).toContain("Texte de l’ouverture");
    const entries = await audits(s.user.museumId, "article.publish");
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actor_email).toMatch(/^editor-/);
    const state = await read(s, a.id);
    expect(state).toMatchObject({ status: "published", publishAt: null });
    expect((await publishDue(db, due + 60_000)).published).toBe(0);
  });

  it("the Worker's per-minute cron publishes what is due and the page changes at once", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Par le cron"]);
    expect((await get(`/r/${a.link}`)).status).toBe(404);
    await s.call("publish_article", { id: a.id, version: a.version, at: new Date(Date.now() + 120_000).toISOString() });
    // Made due by moving the schedule into the past, as a minute passing would.
    await env.DB.prepare("UPDATE articles SET publish_at = ? WHERE id = ?")
      .bind(Date.now() - 1_000, a.id)
      .run();
    // The daily cron does not publish.
    await runCron("30 3 * * *", new Date());
    expect((await read(s, a.id)).status).toBe("never_published");
    await runCron("* * * * *", new Date());
    expect((await read(s, a.id)).status).toBe("published");
    const page = await get(`/r/${a.link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Par le cron");
  });
});

describe("what visitors get of an article never published", () => {
  it("its code and its address show 'not available yet' in the visitor's language, 404, noindex", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Titre secret"]);
    const fr = await get(`/r/${a.link}`, undefined, { "Accept-Language": "fr" });
    expect(fr.status).toBe(404);
    const frHtml = await fr.text();
    expect(frHtml).toContain("Cet article n’est pas encore disponible");
    expect(frHtml).not.toContain("Titre secret");
    expect(frHtml).toContain('name="robots" content="noindex"');
    const en = await get(`/v/${s.user.museumSlug}/${a.slug}?lang=en`);
    expect(en.status).toBe(404);
    expect(await en.text()).toContain("This article is not available yet");
    const de = await get(`/r/${a.link}?lang=de`);
    expect(de.status).toBe(404);
    // Other languages: the English words through the engines (the pseudo engine here).
    expect(await de.text()).toContain("[de]");
  });

  it("counts no scan for the not-available page nor for a draft preview", async () => {
    const s = await staffSession();
    const a = await draftArticle(s, ["Rien à compter"]);
    // The real local SCANS queue, each message also kept (helpers.ts recordingScans).
    const { sent, env: scansEnv } = recordingScans<unknown>();
    // What the page hands to waitUntil (where a scan is sent) is kept, and awaited before counting.
    const scheduled: Promise<unknown>[] = [];
    const ctx = { waitUntil: (p: Promise<unknown>) => void scheduled.push(p), passThroughOnException: () => undefined };
    const context = {
      db: createDb(env.DB),
      kv: env.KV,
      timing: new RequestTiming(),
      scans: scansEnv.SCANS,
      cloudflare: { env, ctx },
      config: { SESSION_SECRET: "x" },
    } as unknown as Parameters<typeof visitorPage>[1];
    const headers = { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1" };
    const notAvailable = await visitorPage(new Request(`http://localhost/r/${a.link}`, { headers }), context, await atLink(context, { link: a.link }));
    expect(notAvailable.status).toBe(404);
    const params = { museum: s.user.museumSlug, slug: a.slug };
    const preview = await visitorPage(
      new Request(`http://localhost/v/x/y?preview=draft`, { headers }),
      context,
      await atAddress(context, params, s.user.museumId),
    );
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain("Rien à compter");
    await Promise.all(scheduled);
    expect(sent).toHaveLength(0);
    // The same published page is counted (the check above could fail).
    await s.call("publish_article", { id: a.id, version: a.version });
    const published = await visitorPage(new Request(`http://localhost/r/${a.link}`, { headers }), context, await atLink(context, { link: a.link }));
    expect(published.status).toBe(200);
    await Promise.all(scheduled);
    expect(sent).toHaveLength(1);
  });
});

describe("the staff preview of the draft", () => {
  it("shows the draft only with a session of the same museum, privately, with a banner; never cached for visitors", async () => {
    const s = await staffSession();
    const other = await staffSession();
    const a = await publishArticle(s, texts(["Version publique"]));
    await saveDraft(s, a.articleId, ["Version brouillon"]);
    const path = `/v/${s.user.museumSlug}/${a.slug}?preview=draft&ignoreStats=true`;
    const mine = await get(path, s.cookie);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Cache-Control")).toBe("private, no-store");
    expect(mine.headers.get("X-Robots-Tag")).toContain("noindex");
    const html = await mine.text();
    expect(html).toContain("Version brouillon");
    expect(html).toContain("Aperçu du brouillon");
    expect(html).toContain('content="noindex, nofollow"');
    expect(html).toContain("preview=draft");
    // Anyone else: the published page.
    for (const cookie of [undefined, other.cookie]) {
      const page = await get(path, cookie);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain("Version publique");
      expect(text).not.toContain("Version brouillon");
      expect(text).not.toContain("Aperçu du brouillon");
    }
    // A viewer may not read content: the published page too.
    const viewer = await memberSession(s.user, { role: "viewer" });
    expect(await (await get(path, viewer.cookie)).text()).not.toContain("Version brouillon");
    const translator = await memberSession(s.user, { role: "translator" });
    expect(await (await get(path, translator.cookie)).text()).toContain("Version brouillon");
    // The preview left nothing in the visitors' cache.
    expect(await (await get(`/v/${s.user.museumSlug}/${a.slug}`)).text()).not.toContain("Version brouillon");
    // A never-published article previews its draft too; visitors get the 404.
    const fresh = await draftArticle(s, ["Tout neuf"]);
    const previewFresh = await get(`/v/${s.user.museumSlug}/${fresh.slug}?preview=draft`, s.cookie);
    expect(previewFresh.status).toBe(200);
    expect(await previewFresh.text()).toContain("Tout neuf");
    expect((await get(`/v/${s.user.museumSlug}/${fresh.slug}?preview=draft`)).status).toBe(404);
  });
});

describe("translation follows the published text", () => {
  it("the review shows the published sentences; pretranslation covers the draft's new ones too", async () => {
    const s = await staffSession();
    const a = await publishArticle(s, texts(["Une phrase publiée."]));
    await saveDraft(s, a.articleId, ["Une phrase publiée.", "Une phrase du brouillon."]);
    const pre = await s.call("pretranslate", { articleId: a.articleId, langs: ["de"] });
    expect(pre.status).toBe(200);
    expect(pre.body.results).toEqual([{ lang: "de", status: "machine", draftStatus: "machine" }]);
    const review = (await s.read(`/api/read/translation?articleId=${a.articleId}&lang=de`)).body as { segments: { source: string; text: string | null }[] };
    expect(review.segments.map((x) => x.source)).toEqual(["Une phrase publiée."]);
    expect(review.segments[0]!.text).toContain("[de]");
    // The draft's new sentence is already in the memory: ready at publication.
    const memory = await env.DB.prepare(
      "SELECT source_text FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ? AND target_lang = 'de' ORDER BY source_text",
    )
      .bind(s.user.museumId)
      .all<{ source_text: string }>();
    expect(memory.results.map((r) => r.source_text)).toEqual(["Une phrase du brouillon.", "Une phrase publiée."]);
    // Visitors in German still get the published text only.
    const page = await (await get(`/r/${a.link}?lang=de`)).text();
    expect(page).not.toContain("brouillon");
    // Never published: the review follows the draft.
    const fresh = await draftArticle(s, ["Rien que le brouillon."]);
    const freshReview = (await s.read(`/api/read/translation?articleId=${fresh.id}&lang=de`)).body as { segments: { source: string }[] };
    expect(freshReview.segments.map((x) => x.source)).toEqual(["Rien que le brouillon."]);
  });
});
