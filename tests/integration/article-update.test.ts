import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { staffSession } from "./helpers";

type Json = Record<string, unknown>;

async function withArticle() {
  const s = await staffSession();
  const created = await s.call("add_article", { pathArray: [] });
  const id = created.body.id as number;
  const read = async () => (await s.read(`/api/read/article?articleId=${id}`)).body as Json & { content: Json[]; version: number };
  return { ...s, id, slug: created.body.name as string, readArticle: read };
}

const text = (content: string) => ({ type: "text", content });

describe("POST /api/manage/update_article", () => {
  it("saves content, private name and address, fills defaults, and bumps the version", async () => {
    const a = await withArticle();
    const before = await a.readArticle();
    const saved = await a.call("update_article", {
      articleId: a.id,
      version: before.version,
      unformatted_name: "Amphore étrusque",
      newContent: [{ type: "metadatas", url: "amphore-etrusque", backgroundColor: "#112233" }, text("Une amphore.")],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: a.id, name: "amphore-etrusque", unformatted_name: "Amphore étrusque", version: before.version + 1 });
    const after = await a.readArticle();
    expect(after.name).toBe("amphore-etrusque");
    expect(after.content[0]).toEqual({ type: "metadatas", url: "amphore-etrusque", backgroundColor: "#112233" });
    expect(after.content[1]).toMatchObject({ type: "text", content: "Une amphore.", fontSize: 16, color: "#ffffff", size: 100 });
  });

  it("still saves the spec's payload without a version", async () => {
    const a = await withArticle();
    const saved = await a.call("update_article", {
      articleId: a.id,
      unformatted_name: "Sans version",
      newContent: [{ type: "metadatas", url: a.slug, backgroundColor: "#341539" }],
    });
    expect(saved.status).toBe(200);
  });

  it("refuses a save naming an older version with 409, keeping the newer content", async () => {
    const a = await withArticle();
    const { version } = await a.readArticle();
    const first = await a.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("first")] });
    expect(first.status).toBe(200);
    const stale = await a.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text("stale")] });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: "conflict", field: "version", reason: "stale_version" } } });
    expect((await a.readArticle()).content[1]).toMatchObject({ content: "first" });
  });

  it("lets exactly one of two parallel saves of the same version win", async () => {
    const a = await withArticle();
    const { version } = await a.readArticle();
    const results = await Promise.all(
      ["left", "right"].map((who) => a.call("update_article", { articleId: a.id, version, newContent: [{ type: "metadatas", url: a.slug }, text(who)] })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await a.readArticle()).version).toBe(winner.body.version);
  });

  it("answers 413 past 256 KB of content and changes nothing", async () => {
    const a = await withArticle();
    const before = await a.readArticle();
    const big = Array.from({ length: 20 }, () => text("é".repeat(7_000)));
    const result = await a.call("update_article", { articleId: a.id, newContent: [{ type: "metadatas", url: a.slug }, ...big] });
    expect(result).toMatchObject({ status: 413, body: { error: { code: "too_large", field: "newContent" } } });
    expect(await a.readArticle()).toEqual(before);
  });

  it.each([
    ["a javascript: link", [{ type: "link", link: "javascript:alert(1)", content: "x" }]],
    ["an unknown element type", [{ type: "marquee", content: "x" }]],
    ["a second metadatas", [{ type: "metadatas", url: "x" }]],
    ["a size of 101", [{ type: "text", content: "x", size: 101 }]],
  ])("answers 400 for %s and changes nothing", async (_, elements) => {
    const a = await withArticle();
    const before = await a.readArticle();
    const result = await a.call("update_article", { articleId: a.id, newContent: [{ type: "metadatas", url: a.slug }, ...elements] });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: { code: "invalid_input", field: expect.stringMatching(/^newContent\.1/) } });
    expect(await a.readArticle()).toEqual(before);
  });

  it("refuses content that does not start with metadatas, a bad address and a bad name", async () => {
    const a = await withArticle();
    for (const body of [
      { articleId: a.id, newContent: [text("no metadatas")] },
      { articleId: a.id, newContent: [] },
      { articleId: a.id, newContent: [{ type: "metadatas", url: "Not A Slug!" }] },
      { articleId: a.id, newContent: [{ type: "metadatas", url: a.slug }], unformatted_name: "a/b" },
      { articleId: a.id, newContent: "[]" },
    ]) {
      expect((await a.call("update_article", body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  // Decision 035: the visitor page and the preview serve media only from this origin (CSP), so an address
  // on another site is refused at the API, naming the field, rather than saved and never shown.
  it("refuses image, video and subtitle addresses on other sites with 400 naming the field, changing nothing", async () => {
    const a = await withArticle();
    const before = await a.readArticle();
    const meta = { type: "metadatas", url: a.slug };
    const cases: [unknown, string][] = [
      [{ type: "image", src: "https://cdn.example.org/amphore.jpg" }, "newContent.2.src"],
      [{ type: "video", videoId: "abc123", src: "https://cdn.example.org/film.mp4" }, "newContent.2.src"],
      [{ type: "video", videoId: "abc123", subtitles: "https://cdn.example.org/film.vtt" }, "newContent.2.subtitles"],
      [{ type: "legendItem", src: "HTTPS://CDN.EXAMPLE.ORG/a.png" }, "newContent.2.src"],
      [{ type: "link", link: "https://example.org/", src: "https://cdn.example.org/logo.png" }, "newContent.2.src"],
      [{ type: "accordion", details: [{ type: "image", src: "https://cdn.example.org/a.png" }] }, "newContent.2.details.0.src"],
    ];
    for (const [element, field] of cases) {
      const result = await a.call("update_article", { articleId: a.id, newContent: [meta, text("avant"), element] });
      expect(result, JSON.stringify(element)).toMatchObject({ status: 400, body: { error: { code: "invalid_input", field, reason: "external_media" } } });
      expect(JSON.stringify(result.body)).not.toContain("cdn.example.org");
    }
    // 30 identical refusals at once: all 400, none 500, nothing written.
    const burst = await Promise.all(
      Array.from({ length: 30 }, () =>
        a.call("update_article", { articleId: a.id, newContent: [meta, { type: "image", src: "https://cdn.example.org/a.jpg" }] }),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(30).fill(400));
    expect(await a.readArticle()).toEqual(before);
    // This app's own media addresses still save.
    const own = await a.call("update_article", { articleId: a.id, newContent: [meta, { type: "image", src: "/media/images/amphore.webp" }] });
    expect(own.status).toBe(200);
  });

  it("answers 409 naming the address when another article of the museum has it", async () => {
    const a = await withArticle();
    const other = await a.call("add_article", { pathArray: [] });
    const result = await a.call("update_article", { articleId: a.id, newContent: [{ type: "metadatas", url: other.body.name }] });
    expect(result).toMatchObject({ status: 409, body: { error: { field: "newContent.0.url" } } });
  });

  it("answers 404 for another museum's or a trashed article, changing nothing", async () => {
    const a = await withArticle();
    const stranger = await staffSession();
    const foreign = await stranger.call("update_article", { articleId: a.id, newContent: [{ type: "metadatas", url: "pwned" }] });
    expect(foreign.status).toBe(404);
    await a.call("delete_item", { type: "article", id: a.id });
    const trashed = await a.call("update_article", { articleId: a.id, newContent: [{ type: "metadatas", url: "late" }] });
    expect(trashed.status).toBe(404);
    const row = await env.DB.prepare("SELECT slug FROM articles WHERE id = ?").bind(a.id).first<{ slug: string }>();
    expect(row!.slug).toBe(a.slug);
  });

  it("reads damaged stored content without failing", async () => {
    const a = await withArticle();
    await env.DB.prepare("UPDATE articles SET content = ? WHERE id = ?")
      .bind(JSON.stringify([{ type: "metadatas", url: a.slug }, { type: "text", content: "ok" }, { type: "bogus" }, 42]), a.id)
      .run();
    const article = await a.readArticle();
    expect(article.content[0]).toMatchObject({ type: "metadatas" });
    expect(article.content.some((e) => e.type === "text")).toBe(true);
    expect(article.content.some((e) => e.type === "bogus")).toBe(false);
  });
});
