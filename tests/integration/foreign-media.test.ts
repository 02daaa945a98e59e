import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, publishArticle, staffSession, texts, type StaffSession } from "./helpers";

// An article never points at another museum's files (decision 114): every write that stores content with
// `/media/…` addresses checks them against the museum's own `media` rows, as a tour's cover is checked, and
// refuses another museum's file with 400 `foreign_media` naming the field.

/** A real 1×1 PNG (its IHDR says 1×1), padded, uploaded by `s`; its `/media/…` address. */
async function upload(s: StaffSession, kind: "image" | "subtitles" = "image") {
  const bytes =
    kind === "image"
      ? new Uint8Array([
          0x89,
          0x50,
          0x4e,
          0x47,
          0x0d,
          0x0a,
          0x1a,
          0x0a,
          0,
          0,
          0,
          13,
          73,
          72,
          68,
          82,
          0,
          0,
          0,
          1,
          0,
          0,
          0,
          1,
          8,
          6,
          0,
          0,
          0,
          ...new Array(64).fill(3),
        ])
      : new TextEncoder().encode("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nBonjour\n");
  const form = new FormData();
  form.set(kind, new File([bytes], kind === "image" ? "a.png" : "a.vtt", { type: kind === "image" ? "image/png" : "text/vtt" }));
  if (kind === "subtitles") {
    const { articleId } = await publishArticle(s, texts(["Porte-sous-titres"]));
    form.set("videoId", "abc123");
    form.set("articleId", String(articleId));
  }
  const response = await SELF.fetch(`${BASE}/api/upload/${kind}`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { mediaUrl: string }).mediaUrl;
}

async function draftOf(s: StaffSession, articleId: number) {
  return (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number };
}

async function save(s: StaffSession, articleId: number, elements: unknown[]) {
  const current = await draftOf(s, articleId);
  return s.call("update_article", { articleId, version: current.version, newContent: [current.content[0], ...elements] });
}

const refusal = (body: Record<string, unknown>) => (body as { error: { code: string; field?: string; reason?: string; message: string } }).error;

describe("another museum's files in an article", () => {
  it("update_article refuses another museum's image, subtitles or picture anywhere, naming the field; own files and unknown addresses pass", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const [theirs, theirSubtitles, mine] = [await upload(a), await upload(a, "subtitles"), await upload(b)];
    expect(theirs).toMatch(new RegExp(`^/media/m/${a.user.museumId}/image/`));
    const { articleId } = await publishArticle(b, texts(["Amphore"]));
    const before = await draftOf(b, articleId);

    const cases: [unknown[], string][] = [
      [[{ type: "image", src: theirs, alt: "" }], "newContent.1.src"],
      [
        [
          { type: "text", content: "x" },
          { type: "legendItem", src: theirs, content: "Légende" },
        ],
        "newContent.2.src",
      ],
      [[{ type: "link", link: "https://example.org/", src: theirs, content: "Lien" }], "newContent.1.src"],
      [[{ type: "video", videoId: "abc123", src: "", subtitles: theirSubtitles }], "newContent.1.subtitles"],
      [
        [
          {
            type: "accordion",
            header: { content: "Plus" },
            details: [
              { type: "text", content: "y" },
              { type: "image", src: theirs },
            ],
          },
        ],
        "newContent.1.details.1.src",
      ],
      [
        [
          { type: "image", src: mine },
          { type: "image", src: theirs },
        ],
        "newContent.2.src",
      ],
    ];
    for (const [elements, field] of cases) {
      const refused = await save(b, articleId, elements);
      expect(refused.status, field).toBe(400);
      expect(refusal(refused.body)).toMatchObject({ code: "invalid_input", field, reason: "foreign_media" });
      expect(refusal(refused.body).message).toContain(field.endsWith("subtitles") ? theirSubtitles : theirs);
    }
    // Nothing was written: the draft is still the version it was.
    expect((await draftOf(b, articleId)).version).toBe(before.version);

    // Its own file, an address no file has (a purged one, a placeholder) and no file at all are saved.
    for (const src of [
      mine,
      `/media/m/${b.user.museumId}/image/${crypto.randomUUID()}.png`,
      `/media/m/${a.user.museumId}/image/${crypto.randomUUID()}.png`,
      "/media/cards/amphore.webp",
    ]) {
      const saved = await save(b, articleId, [{ type: "image", src, alt: "" }]);
      expect(saved.status, src).toBe(200);
    }
    // The owner itself still uses it.
    const own = await publishArticle(a, [{ type: "image", src: theirs, alt: "" }]);
    expect(own.articleId).toBeGreaterThan(0);
  });

  it("50 identical refused saves at once: all 400, the draft untouched", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const theirs = await upload(a);
    const { articleId } = await publishArticle(b, texts(["Vase"]));
    const current = await draftOf(b, articleId);
    const body = { articleId, version: current.version, newContent: [current.content[0], { type: "image", src: theirs }] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => b.call("update_article", body)));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(400));
    expect((await draftOf(b, articleId)).version).toBe(current.version);
  });

  it("restore_article_version refuses a version that names another museum's file (kept from before the check)", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const theirs = await upload(a);
    const { articleId, edit } = await publishArticle(b, texts(["Stèle"]));
    await edit(texts(["Stèle, deuxième version"]));
    // Version 1 as a save made before this check could have kept it (the API refuses it now).
    const row = await env.DB.prepare("SELECT content FROM article_versions WHERE article_id = ? AND number = 1").bind(articleId).first<{ content: string }>();
    const planted = JSON.parse(row!.content) as unknown[];
    planted.push({ type: "image", src: theirs, alt: "" });
    await env.DB.prepare("UPDATE article_versions SET content = ? WHERE article_id = ? AND number = 1").bind(JSON.stringify(planted), articleId).run();

    const before = await draftOf(b, articleId);
    const refused = await b.call("restore_article_version", { id: articleId, version: 1 });
    expect(refused.status).toBe(400);
    expect(refusal(refused.body)).toMatchObject({ field: "version", reason: "foreign_media" });
    expect((await draftOf(b, articleId)).version).toBe(before.version);
    expect((await b.call("restore_article_version", { id: articleId, version: 2 })).status).toBe(200);
  });

  it("the visitor page of the refusing museum never shows the other museum's file", async () => {
    const a = await staffSession();
    const b = await staffSession();
    const theirs = await upload(a);
    const { articleId, slug } = await publishArticle(b, texts(["Kouros"]));
    expect((await save(b, articleId, [{ type: "image", src: theirs }])).status).toBe(400);
    const page = await (await get(`/v/${b.user.museumSlug}/${slug}`)).text();
    expect(page).not.toContain(theirs);
  });
});
