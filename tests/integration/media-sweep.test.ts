import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { referencedKeys, SWEEP_GRACE_MS, sweepOrphanMedia } from "~/media/sweep.server";
import { createTour, staffSession } from "./helpers";
import { runCron } from "./cron";

// The daily sweep of files no row references (issue 29 §2, decision 112): what an import killed midway left in
// R2 goes after the grace period; every kind of reference keeps its file, however the file is named.

const DAILY = "30 3 * * *";
const later = (ms = SWEEP_GRACE_MS + 60_000) => Date.now() + ms;
const keys = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.map((o) => o.key).sort();
const put = (key: string) => env.MEDIA.put(key, new Uint8Array([1, 2, 3]));

async function article(s: Awaited<ReturnType<typeof staffSession>>) {
  const added = await s.call("add_article", { pathArray: [] });
  expect(added.status).toBe(200);
  return added.body.id as number;
}

const contentWith = (src: string) =>
  JSON.stringify([
    { type: "metadatas", url: "a", backgroundColor: "#ffffff" },
    { type: "image", src, alt: "" },
  ]);

describe("the media sweep", () => {
  // The sweep walks the whole bucket, and the tests of a file share one R2 (storage is isolated per file, not per
  // test): each test starts from an empty bucket and no saved cursor, so what it counts is its own.
  beforeEach(async () => {
    for (let page = await env.MEDIA.list(); ; page = await env.MEDIA.list({ cursor: page.cursor })) {
      if (page.objects.length > 0) await env.MEDIA.delete(page.objects.map((o) => o.key));
      if (!page.truncated) break;
    }
    for (const { name } of (await env.KV.list({ prefix: "media-sweep:" })).keys) await env.KV.delete(name);
  });

  it("deletes what a killed import left once past the grace period, and keeps every file a row names", async () => {
    const s = await staffSession();
    const m = s.user.museumId;
    const id = await article(s);
    const other = await article(s);
    const key = (name: string, space = "m", kind = "image") => `${space}/${m}/${kind}/${name}-${crypto.randomUUID()}.png`;

    // What an import killed between its R2 writes and its D1 batch leaves: files, no row.
    const orphans = [key("import-1"), key("import-2"), key("archive", "m", "video"), key("narration", "n", "rec")];
    // A file for each kind of reference.
    const kept = {
      mediaRow: key("media-row"),
      subtitles: key("subtitles", "m", "subtitles"),
      narration: key("narration-row", "n", "rec"),
      draft: key("draft"),
      published: key("published"),
      version: key("version"),
      cover: key("cover"),
      easyRead: key("easy-read"),
      easyReadApproved: key("easy-read-approved"),
      videoSubtitles: key("video-subtitles", "m", "subtitles"),
    };
    // Never in the swept spaces: narration pieces (a cache, decision 106) and archive staging (decision 064).
    const elsewhere = [`n/${m}/p/${id}/de/${"a".repeat(64)}.mp3`, `imports/${m}/${crypto.randomUUID()}.zip`];
    for (const k of [...orphans, ...Object.values(kept), ...elsewhere]) await put(k);

    const db = env.DB;
    await db
      .prepare("INSERT INTO media (museum_id, r2_key, kind, content_type, bytes) VALUES (?, ?, 'image', 'image/png', 3), (?, ?, 'subtitles', 'text/vtt', 3)")
      .bind(m, kept.mediaRow, m, kept.subtitles)
      .run();
    await db
      .prepare("INSERT INTO narrations (museum_id, article_id, lang, kind, r2_key, content_type, bytes) VALUES (?, ?, 'fr', 'recorded', ?, 'audio/mpeg', 3)")
      .bind(m, id, kept.narration)
      .run();
    await db
      .prepare("UPDATE articles SET content = ?, published_content = ? WHERE id = ?")
      .bind(contentWith(`/media/${kept.draft}`), contentWith(`/media/${kept.published}`), id)
      .run();
    const video = JSON.stringify([{ type: "accordion", details: [{ type: "video", src: "", subtitles: `/media/${kept.videoSubtitles}` }] }]);
    await db.prepare("UPDATE articles SET content = ? WHERE id = ?").bind(video, other).run();
    await db
      .prepare("INSERT INTO article_versions (article_id, museum_id, number, content, name, published_at) VALUES (?, ?, 1, ?, 'v1', ?)")
      .bind(id, m, contentWith(`/media/${kept.version}`), Date.now())
      .run();
    await createTour(m, [], { name: "Tour", cover: `/media/${kept.cover}`, description: "", minutes: null, link: crypto.randomUUID().slice(0, 8) });
    await db
      .prepare("INSERT INTO easy_read_versions (article_id, museum_id, content, approved_content, updated_at) VALUES (?, ?, ?, ?, ?)")
      .bind(id, m, contentWith(`/media/${kept.easyRead}`), contentWith(`/media/${kept.easyReadApproved}`), Date.now())
      .run();

    // Within the grace period (an import may still be under way) nothing goes.
    const early = await sweepOrphanMedia({ db, bucket: env.MEDIA, kv: env.KV }, Date.now());
    expect(early).toMatchObject({ candidates: 0, deleted: 0, complete: true });
    expect(await keys(`m/${m}/`)).toHaveLength(orphans.length - 1 + Object.keys(kept).length - 1);

    // Past it, the daily cron removes the orphans only.
    await runCron(DAILY, new Date(later()));
    const left = [...(await keys(`m/${m}/`)), ...(await keys(`n/${m}/`)), ...(await keys(`imports/${m}/`))].sort();
    expect(left).toEqual([...Object.values(kept), ...elsewhere].sort());
    for (const orphan of orphans) expect(await env.MEDIA.head(orphan)).toBeNull();

    // The rows still serve their files: a second run changes nothing.
    const again = await sweepOrphanMedia({ db, bucket: env.MEDIA, kv: env.KV }, later());
    expect(again.deleted).toBe(0);
  });

  it("looks for references in the file's own museum and never deletes another museum's referenced file", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const aKey = `m/${a.user.museumId}/image/${crypto.randomUUID()}.png`;
    const bKey = `m/${b.user.museumId}/image/${crypto.randomUUID()}.png`;
    await put(aKey);
    await put(bKey);
    const bArticle = await article(b);
    await env.DB.prepare("UPDATE articles SET content = ? WHERE id = ?")
      .bind(contentWith(`/media/${bKey}`), bArticle)
      .run();
    expect([...(await referencedKeys(env.DB, [aKey, bKey]))]).toEqual([bKey]);
    // Keys outside the museum spaces (a malformed name) are never candidates.
    await put("m/not-a-museum/x.png");
    const result = await sweepOrphanMedia({ db: env.DB, bucket: env.MEDIA, kv: env.KV }, later());
    expect(await env.MEDIA.head(aKey)).toBeNull();
    expect(await env.MEDIA.head(bKey)).not.toBeNull();
    expect(await env.MEDIA.head("m/not-a-museum/x.png")).not.toBeNull();
    expect(result.deleted).toBe(1);
  });

  it("walks a bounded number of pages per run and goes on from there the next day", async () => {
    const s = await staffSession();
    const m = s.user.museumId;
    const many = Array.from({ length: 25 }, (_, i) => `m/${m}/image/${String(i).padStart(5, "0")}.png`);
    await Promise.all(many.map(put));
    const deps = { db: env.DB, bucket: env.MEDIA, kv: env.KV };
    const run = () => sweepOrphanMedia(deps, later(), { pagesPerRun: 1, pageSize: 10 });
    const first = await run();
    expect(first).toMatchObject({ deleted: 10, complete: false });
    expect(await env.KV.get("media-sweep:cursor:m/")).not.toBeNull();
    const second = await run();
    expect(second).toMatchObject({ deleted: 10, complete: false });
    const third = await run();
    expect(third.complete).toBe(true);
    expect(first.deleted + second.deleted + third.deleted).toBe(25);
    expect(await env.KV.get("media-sweep:cursor:m/")).toBeNull();
    expect(await keys(`m/${m}/`)).toEqual([]);
  });
});
