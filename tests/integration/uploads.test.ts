import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { receiveUpload, R2_PART_BYTES, UPLOAD_LIMITS } from "~/models/media.server";
import { purgeExpiredTrash, TRASH_RETENTION_DAYS } from "~/models/trash.server";
import { MultipartReader } from "~/utils/multipart.server";
import { BASE, get, staffSession } from "./helpers";

type Json = Record<string, unknown>;
const bytes = (...parts: (number[] | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const padded = (head: Uint8Array, size = 300) => {
  const out = new Uint8Array(Math.max(size, head.length));
  out.set(head);
  for (let i = head.length; i < out.length; i++) out[i] = i % 251;
  return out;
};

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const PNG = padded(bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32(13), "IHDR", u32(1), u32(1), [8, 6, 0, 0, 0]));
const JPEG = padded(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF", [0]));
const GIF = padded(bytes("GIF89a", [1, 0, 1, 0, 0, 0, 0]));
const WEBP = padded(bytes("RIFF", [0x24, 1, 0, 0], "WEBPVP8 "));
const AVIF = padded(bytes(u32(28), "ftypavif", u32(0), "avifmif1miaf"));
const MP4 = padded(bytes(u32(24), "ftypisom", u32(512), "isommp41"), 4000);
const WEBM = padded(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1], [0x42, 0x82, 0x84], "webm"), 4000);
const VTT = new TextEncoder().encode("WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n");

async function withArticle() {
  const s = await staffSession();
  const article = (await s.call("add_article", { pathArray: [] })).body.id as number;
  const upload = async (kind: string, fields: Record<string, string | File>, cookie: string | null = s.cookie) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const response = await SELF.fetch(`${BASE}/api/upload/${kind}`, { method: "POST", body: form, headers: cookie ? { Cookie: cookie } : {} });
    return { status: response.status, body: (await response.json()) as Json & { error: Json } };
  };
  return { ...s, article, upload };
}

const file = (data: Uint8Array, name: string, type = "application/octet-stream") => new File([data as Uint8Array<ArrayBuffer>], name, { type });
const mediaRow = (url: unknown) => env.DB.prepare("SELECT * FROM media WHERE r2_key = ?").bind(String(url).slice("/media/".length)).first<Json>();

describe("uploads", () => {
  it("accepts each image type by its first bytes, stores it under the museum's prefix and records it", async () => {
    const s = await withArticle();
    const cases: [Uint8Array, string, string][] = [
      [PNG, "png", "image/png"],
      [JPEG, "jpg", "image/jpeg"],
      [GIF, "gif", "image/gif"],
      [WEBP, "webp", "image/webp"],
      [AVIF, "avif", "image/avif"],
    ];
    for (const [data, ext, type] of cases) {
      const r = await s.upload("image", { image: file(data, `photo.${ext}`), articleId: String(s.article) });
      expect(r.status, ext).toBe(200);
      expect(r.body.videoId).toBeNull();
      expect(r.body.mediaUrl).toMatch(new RegExp(`^/media/m/${s.user.museumId}/image/[0-9a-f-]{36}\\.${ext}$`));
      expect(await mediaRow(r.body.mediaUrl)).toMatchObject({
        museum_id: s.user.museumId,
        kind: "image",
        content_type: type,
        bytes: data.length,
        article_id: s.article,
      });
      const object = await env.MEDIA.get(String(r.body.mediaUrl).slice(7));
      expect(new Uint8Array(await object!.arrayBuffer())).toEqual(data);
      expect(object!.httpMetadata?.contentType).toBe(type);
    }
  });

  it("trusts the bytes, not the name or the declared type: a PNG named .jpg is a PNG; SVG and text are refused", async () => {
    const s = await withArticle();
    const renamed = await s.upload("image", { image: file(PNG, "photo.jpg", "image/jpeg") });
    expect(renamed.status).toBe(200);
    expect(renamed.body.mediaUrl).toMatch(/\.png$/);
    expect(await mediaRow(renamed.body.mediaUrl)).toMatchObject({ content_type: "image/png", article_id: null });

    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const bad of [file(bytes(svg), "a.svg", "image/svg+xml"), file(bytes("hello"), "a.png", "image/png"), file(MP4, "a.png", "image/png")]) {
      const r = await s.upload("image", { image: bad });
      expect(r.status, bad.name).toBe(415);
      expect(r.body.error).toMatchObject({ code: "unsupported_media_type", field: "image" });
    }
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("takes an image of exactly 200 KB and refuses one byte more with 413 'Image file is too large'", async () => {
    const s = await withArticle();
    expect((await s.upload("image", { image: file(padded(PNG, 204_800), "a.png") })).status).toBe(200);
    const r = await s.upload("image", { image: file(padded(PNG, 204_801), "a.png") });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatchObject({ code: "too_large", message: "Image file is too large" });
    const listed = await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` });
    expect(listed.objects).toHaveLength(1);
  });

  it("accepts MP4 and WebM videos with their videoId, refuses a fake one", async () => {
    const s = await withArticle();
    const mp4 = await s.upload("video", { video: file(MP4, "clip.mov"), videoId: "abc123", articleId: String(s.article) });
    expect(mp4).toMatchObject({ status: 200, body: { videoId: "abc123" } });
    expect(mp4.body.mediaUrl).toMatch(/\/video\/.*\.mp4$/);
    expect(await mediaRow(mp4.body.mediaUrl)).toMatchObject({ kind: "video", content_type: "video/mp4", bytes: MP4.length });
    // Fields may come before the file.
    const webm = await s.upload("video", { videoId: "XYZ789", articleId: String(s.article), video: file(WEBM, "clip.webm") });
    expect(webm).toMatchObject({ status: 200, body: { videoId: "XYZ789" } });
    expect(await mediaRow(webm.body.mediaUrl)).toMatchObject({ content_type: "video/webm" });

    for (const fake of [padded(bytes("not a video at all")), AVIF, PNG]) {
      const r = await s.upload("video", { video: file(fake, "clip.mp4", "video/mp4"), videoId: "abc123", articleId: String(s.article) });
      expect(r.status).toBe(415);
    }
  });

  it("checks videoId and articleId, and deletes the stored file when a field after it is refused", async () => {
    const s = await withArticle();
    const cases: [Record<string, string | File>, number, string, string][] = [
      [{ video: file(MP4, "v.mp4"), articleId: String(s.article) }, 400, "videoId", "required"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc12", articleId: String(s.article) }, 400, "videoId", "invalid"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc-12", articleId: String(s.article) }, 400, "videoId", "invalid"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc123" }, 400, "articleId", "required"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc123", articleId: "x1" }, 400, "articleId", "invalid"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc123", articleId: "987654" }, 404, "articleId", ""],
      [{ videoId: "abc123", articleId: String(s.article) }, 400, "video", "required"],
      [{ video: "not a file", videoId: "abc123", articleId: String(s.article) }, 400, "video", "wrong_type"],
      [{ video: file(MP4, "v.mp4"), videoId: "abc123", articleId: String(s.article), other: "1" }, 400, "other", "invalid"],
    ];
    for (const [fields, status, field, reason] of cases) {
      const r = await s.upload("video", fields);
      expect(r.status, JSON.stringify(Object.keys(fields))).toBe(status);
      expect(r.body.error).toMatchObject({ field, ...(reason ? { reason } : {}) });
    }
    const form = new FormData();
    form.append("video", file(MP4, "a.mp4"));
    form.append("video", file(WEBM, "b.webm"));
    form.append("videoId", "abc123");
    form.append("articleId", String(s.article));
    const two = await SELF.fetch(`${BASE}/api/upload/video`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(two.status).toBe(400);
    expect(await two.json()).toMatchObject({ error: { field: "video", reason: "too_many" } });
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toEqual([]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });

  it("accepts WebVTT subtitles (BOM or not) as text/vtt and refuses anything else", async () => {
    const s = await withArticle();
    const base = { videoId: "abc123", articleId: String(s.article) };
    for (const data of [VTT, bytes([0xef, 0xbb, 0xbf], "WEBVTT - Salle 3\r\n\r\n"), bytes("WEBVTT")]) {
      const r = await s.upload("subtitles", { ...base, subtitles: file(data, "fr.txt", "text/plain") });
      expect(r).toMatchObject({ status: 200, body: { videoId: "abc123" } });
      expect(r.body.mediaUrl).toMatch(/\/subtitles\/.*\.vtt$/);
      expect(await mediaRow(r.body.mediaUrl)).toMatchObject({ kind: "subtitles", content_type: "text/vtt" });
    }
    for (const data of [bytes("1\n00:00:00,000 --> 00:00:02,000\nSRT\n"), bytes("WEBVTTX\n"), bytes("webvtt\n"), PNG]) {
      expect((await s.upload("subtitles", { ...base, subtitles: file(data, "fr.vtt", "text/vtt") })).status).toBe(415);
    }
    const big = padded(bytes("WEBVTT\n\n"), UPLOAD_LIMITS.subtitles + 1).map((b, i) => (i < 8 ? b : 0x61));
    const r = await s.upload("subtitles", { ...base, subtitles: file(big, "fr.vtt") });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatchObject({ code: "too_large", message: "Subtitles file is too large" });
  });

  it("answers 401 without a session, 404 for another museum's or a trashed article", async () => {
    const s = await withArticle();
    const other = await withArticle();
    for (const kind of ["image", "video", "subtitles"]) {
      const r = await s.upload(kind, { [kind]: file(PNG, "a.png") }, null);
      expect(r.status, kind).toBe(401);
    }
    const theirs = await s.upload("image", { image: file(PNG, "a.png"), articleId: String(other.article) });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ code: "not_found", field: "articleId" });
    const video = await s.upload("video", { articleId: String(other.article), videoId: "abc123", video: file(MP4, "a.mp4") });
    expect(video.status).toBe(404);
    await s.call("delete_item", { type: "article", id: s.article });
    expect((await s.upload("image", { image: file(PNG, "a.png"), articleId: String(s.article) })).status).toBe(404);
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toEqual([]);
  });

  it("never answers 500 for a bad body", async () => {
    const s = await withArticle();
    const send = (body: BodyInit | null, contentType?: string) =>
      SELF.fetch(`${BASE}/api/upload/image`, {
        method: "POST",
        body,
        headers: { Cookie: s.cookie, ...(contentType ? { "Content-Type": contentType } : {}) },
      });
    const crlf = (...lines: string[]) => lines.join("\r\n");
    const cases: [BodyInit | null, string | undefined, number][] = [
      [null, undefined, 415],
      [null, "multipart/form-data; boundary=x", 400],
      ["{}", "application/json", 415],
      [PNG, "image/png", 415],
      ["x", "multipart/form-data", 400],
      ["", "multipart/form-data; boundary=abc", 400],
      ["garbage without a boundary", "multipart/form-data; boundary=abc", 400],
      [crlf("--abc", 'Content-Disposition: form-data; name="image"; filename="a.png"', "", "\x89PNG"), "multipart/form-data; boundary=abc", 400],
      [crlf("--abc", "Content-Type: text/plain", "", "x", "--abc--"), "multipart/form-data; boundary=abc", 400],
      [crlf("--abc", 'Content-Disposition: attachment; name="image"', "", "x", "--abc--"), "multipart/form-data; boundary=abc", 400],
      [crlf("--abc--", ""), "multipart/form-data; boundary=abc", 400],
      [crlf("--abc", `X-Long: ${"a".repeat(10_000)}`, "", "x", "--abc--"), "multipart/form-data; boundary=abc", 400],
    ];
    for (const [body, type, status] of cases) {
      const response = await send(body, type);
      expect(response.status, `${type} ${String(body).slice(0, 40)}`).toBe(status);
      expect(((await response.json()) as Json).error).toBeTruthy();
    }
    // A hand-written body with a quoted boundary, a preamble and an epilogue is fine.
    const ok = await send(
      new Blob([crlf("preamble", "--a'b", 'Content-Disposition: form-data; name="image"; filename="x"', "", ""), PNG, crlf("", "--a'b--", "epilogue")]),
      `multipart/form-data; boundary="a'b"`,
    );
    expect(ok.status).toBe(200);
    expect((await SELF.fetch(`${BASE}/api/upload/image`, { headers: { Cookie: s.cookie } })).status).toBe(405);
  });

  it("refuses a video whose declared length is over 95 MB before reading it", async () => {
    const s = await withArticle();
    const response = await SELF.fetch(`${BASE}/api/upload/video`, {
      method: "POST",
      headers: { Cookie: s.cookie, "Content-Type": "multipart/form-data; boundary=abc", "Content-Length": String(96 * 1024 * 1024) },
      body: new ReadableStream({ start: (c) => c.close() }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "too_large", message: "Video file is too large" } });
  });

  it("aborts a streamed video without Content-Length once it passes 95 MB, leaving nothing behind", async () => {
    const s = await withArticle();
    const boundary = "----muselingo-big";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.mp4"\r\n\r\n`);
    const chunk = new Uint8Array(1 << 20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(head);
        c.enqueue(MP4);
      },
      pull(c) {
        // Never more than the limit plus 2 MiB: the Worker must stop reading on its own.
        if (sent > UPLOAD_LIMITS.video + (2 << 20)) return c.close();
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const response = await SELF.fetch(`${BASE}/api/upload/video`, {
      method: "POST",
      headers: { Cookie: s.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: "too_large", message: "Video file is too large", field: "video" } });
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toEqual([]);
  });

  it("streams a multi-part video to R2 and aborts one past the limit, leaving nothing behind", async () => {
    const s = await withArticle();
    const db = createDb(env.DB);
    const boundary = "----muselingo-test";
    const body = (size: number) => {
      let sent = 0;
      const head = new TextEncoder().encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="videoId"\r\n\r\nabc123\r\n--${boundary}\r\nContent-Disposition: form-data; name="articleId"\r\n\r\n${s.article}\r\n--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="v.mp4"\r\n\r\n`,
      );
      const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
      const chunk = padded(new Uint8Array(0), 1 << 20);
      return new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(head);
          c.enqueue(MP4);
          sent = MP4.length;
        },
        pull(c) {
          if (sent >= size) {
            c.enqueue(tail);
            c.close();
            return;
          }
          const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
          sent += piece.length;
          c.enqueue(piece);
        },
      });
    };
    const limit = 3 * R2_PART_BYTES;
    const size = 2 * R2_PART_BYTES + 12_345;
    const reader = new MultipartReader(body(size).getReader(), boundary, limit + 4096, () => new Error("too large"));
    const ok = await receiveUpload(db, env.MEDIA, s.user.museumId, "video", reader, limit);
    const object = await env.MEDIA.head(ok.mediaUrl.slice(7));
    expect(object?.size).toBe(size);
    expect(await mediaRow(ok.mediaUrl)).toMatchObject({ bytes: size, content_type: "video/mp4" });
    const ranged = await get(`${ok.mediaUrl}`, undefined, { Range: `bytes=${R2_PART_BYTES - 2}-${R2_PART_BYTES + 1}` });
    expect(ranged.status).toBe(206);
    // Across the first part boundary: the filler's byte at p is ((p - MP4.length) mod 1 MiB) mod 251.
    const expected = [0, 1, 2, 3].map((i) => ((R2_PART_BYTES - 2 + i - MP4.length) % (1 << 20)) % 251);
    expect([...new Uint8Array(await ranged.arrayBuffer())]).toEqual(expected);

    const over = new MultipartReader(body(limit + 1).getReader(), boundary, limit + 4096, () => new Error("too large"));
    await expect(receiveUpload(db, env.MEDIA, s.user.museumId, "video", over, limit)).rejects.toMatchObject({
      status: 413,
      message: "Video file is too large",
    });
    expect((await env.MEDIA.list({ prefix: `m/${s.user.museumId}/` })).objects).toHaveLength(1);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE museum_id = ?").bind(s.user.museumId).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});

describe("GET /media/*", () => {
  async function uploaded() {
    const s = await withArticle();
    const r = await s.upload("image", { image: file(PNG, "a.png"), articleId: String(s.article) });
    return { ...s, url: String(r.body.mediaUrl) };
  }

  it("serves a recorded file publicly with its type, nosniff, immutable caching, ETag and ranges", async () => {
    const s = await uploaded();
    for (const cookie of [undefined, s.cookie]) {
      const full = await get(s.url, cookie);
      expect(full.status).toBe(200);
      expect(full.headers.get("Content-Type")).toBe("image/png");
      expect(full.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(full.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      expect(full.headers.get("Accept-Ranges")).toBe("bytes");
      expect(full.headers.get("ETag")).toMatch(/^"[^"]+"$/);
      expect(new Uint8Array(await full.arrayBuffer())).toEqual(PNG);
    }
    const cases: [string, number, number][] = [
      ["bytes=0-7", 0, 8],
      ["bytes=10-", 10, PNG.length - 10],
      ["bytes=-5", PNG.length - 5, 5],
      ["bytes=290-100000", 290, PNG.length - 290],
      ["bytes=-100000", 0, PNG.length],
    ];
    for (const [range, offset, length] of cases) {
      const response = await get(s.url, undefined, { Range: range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get("Content-Range")).toBe(`bytes ${offset}-${offset + length - 1}/${PNG.length}`);
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG.slice(offset, offset + length));
    }
    for (const range of [`bytes=${PNG.length}-`, "bytes=-0", "bytes=99999-100000"]) {
      const response = await get(s.url, undefined, { Range: range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get("Content-Range")).toBe(`bytes */${PNG.length}`);
    }
    // Several ranges or nonsense: the whole file.
    for (const range of ["bytes=0-1,4-5", "items=0-1", "bytes=5-2"]) {
      const response = await get(s.url, undefined, { Range: range });
      expect(response.status, range).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(PNG.length);
    }
  });

  it("answers HEAD with the headers and no body, and 304 for a matching If-None-Match", async () => {
    const s = await uploaded();
    const head = await SELF.fetch(`${BASE}${s.url}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe("image/png");
    expect(head.headers.get("Content-Length")).toBe(String(PNG.length));
    expect(await head.text()).toBe("");
    const whole = await get(s.url);
    const etag = whole.headers.get("ETag")!;
    await whole.arrayBuffer();
    const cached = await get(s.url, undefined, { "If-None-Match": etag });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    const changed = await get(s.url, undefined, { "If-None-Match": '"other"' });
    expect(changed.status).toBe(200);
    expect((await changed.arrayBuffer()).byteLength).toBe(PNG.length);
  });

  it("answers 404 for anything not recorded, even when the object exists", async () => {
    const s = await uploaded();
    await env.MEDIA.put(`m/${s.user.museumId}/image/stray.png`, PNG);
    for (const path of [`/media/m/${s.user.museumId}/image/stray.png`, "/media/m/1/image/nope.png", "/media/", `${s.url}x`]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });

  it("purges the files of articles purged from the trash, objects and rows", async () => {
    const s = await uploaded();
    const kept = await s.upload("image", { image: file(GIF, "b.gif") });
    await s.call("delete_item", { type: "article", id: s.article });
    const longAgo = Date.now() - (TRASH_RETENTION_DAYS + 1) * 86_400_000;
    await env.DB.prepare("UPDATE articles SET deleted_at = ? WHERE id = ?").bind(longAgo, s.article).run();
    const purged = await purgeExpiredTrash(createDb(env.DB), env.MEDIA);
    expect(purged).toMatchObject({ articles: 1, media: 1 });
    expect(await env.MEDIA.head(s.url.slice(7))).toBeNull();
    expect(await mediaRow(s.url)).toBeNull();
    expect((await get(s.url)).status).toBe(404);
    const still = await get(String(kept.body.mediaUrl));
    expect(still.status).toBe(200);
    expect(new Uint8Array(await still.arrayBuffer())).toEqual(GIF);
  });
});
