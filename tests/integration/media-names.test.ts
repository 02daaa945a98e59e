import { env, SELF } from "cloudflare:test";
import { importMuseum } from "./builders";
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { toHex } from "~/lib/crypto";
import { BASE, get, staffSession } from "./helpers";

// Original file names (issue 20): kept at upload (sanitised), answered by the upload, read back with the
// article for the editor (this museum's files only), and carried by the museum archive.

type Json = Record<string, unknown>;
const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...u32(13),
  73,
  72,
  68,
  82,
  ...u32(1),
  ...u32(1),
  8,
  6,
  0,
  0,
  0,
  ...new Array(64).fill(7),
]);
const MP4 = new Uint8Array([
  ...u32(24),
  ...new TextEncoder().encode("ftypisom"),
  ...u32(512),
  ...new TextEncoder().encode("isommp41"),
  ...new Array(3000).fill(3),
]);
const VTT = new TextEncoder().encode("WEBVTT\n\n00:00.000 --> 00:02.000\nBonjour\n");

/** A multipart body written by hand, so the filename parameter is exactly what a client could send. */
function rawForm(fileField: string, filenameParam: string, data: Uint8Array, fields: Record<string, string>) {
  const boundary = "----muselingo-test-boundary";
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(
    enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${filenameParam}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    enc.encode(`\r\n--${boundary}--\r\n`),
  );
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) body.set(c, (at += c.length) - c.length);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

async function setUp() {
  const s = await staffSession();
  const article = (await s.call("add_article", { pathArray: [] })).body.id as number;
  const send = async (kind: string, filenameParam: string, data: Uint8Array, fields: Record<string, string> = {}) => {
    const form = rawForm(kind, filenameParam, data, { articleId: String(article), ...fields });
    const response = await SELF.fetch(`${BASE}/api/upload/${kind}`, {
      method: "POST",
      body: form.body,
      headers: { Cookie: s.cookie, "Content-Type": form.type },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const nameOf = async (mediaUrl: unknown) =>
    (await env.DB.prepare("SELECT original_name FROM media WHERE r2_key = ?")
      .bind(String(mediaUrl).slice("/media/".length))
      .first<{ original_name: string | null }>())!.original_name;
  return { ...s, article, send, nameOf };
}

describe("original file names", () => {
  it("keeps the name an upload sends, answers it with the size, for each kind", async () => {
    const s = await setUp();
    const image = await s.send("image", "Amphore attique.png", PNG);
    expect(image).toMatchObject({ status: 200, body: { originalName: "Amphore attique.png", bytes: PNG.length } });
    expect(await s.nameOf(image.body.mediaUrl)).toBe("Amphore attique.png");
    const video = await s.send("video", "visite salle 3.mp4", MP4, { videoId: "abc123" });
    expect(video).toMatchObject({ status: 200, body: { originalName: "visite salle 3.mp4", bytes: MP4.length, videoId: "abc123" } });
    const subtitles = await s.send("subtitles", "visite.fr.vtt", VTT, { videoId: "abc123" });
    expect(subtitles).toMatchObject({ status: 200, body: { originalName: "visite.fr.vtt", bytes: VTT.length } });
    // The browser's own FormData (quotes escaped as %22 by the HTML form encoding) arrives as typed.
    const form = new FormData();
    form.append("image", new File([PNG], 'Le "Vase" François.png'));
    const r = await SELF.fetch(`${BASE}/api/upload/image`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(((await r.json()) as Json).originalName).toBe('Le "Vase" François.png');
  });

  it("sanitises: NFC, no path, no control or bidi-override characters, at most 200 characters; RTL and emoji kept", async () => {
    const s = await setUp();
    const cases: [string, string | null][] = [
      ["C:\\\\Users\\\\Léa\\\\Desktop\\\\clip.png", "clip.png"],
      ["../../etc/passwd.png", "passwd.png"],
      ["Cafe\u0301 cre\u0300me.png", "Café crème.png"],
      ["تمثال الملك.png", "تمثال الملك.png"],
      ["מוזיאון 🏺 אמפורה.png", "מוזיאון 🏺 אמפורה.png"],
      ["photo\u202Egnp.exe", "photognp.exe"],
      ["tab\there\u0007bell.png", "tabherebell.png"],
      ["line%0D%0Abreak.png", "linebreak.png"],
      ["100%41.png", "100%41.png"],
      ["   ", null],
      ["..", null],
      ["", null],
    ];
    for (const [sent, kept] of cases) {
      const r = await s.send("image", sent, PNG);
      expect(r.status, sent).toBe(200);
      expect(r.body.originalName, sent).toBe(kept);
      expect(await s.nameOf(r.body.mediaUrl), sent).toBe(kept);
    }
    const long = await s.send("image", `${"é".repeat(400)}.png`, PNG);
    const name = long.body.originalName as string;
    expect(Array.from(name).length).toBe(200);
    expect(name.endsWith("….png")).toBe(true);
  });

  it("reads each media address of the article back with its name, kind and size; another museum's never", async () => {
    const s = await setUp();
    const named = await s.send("video", "Ψ visite 🏛.mp4", MP4, { videoId: "abc123" });
    const subtitles = await s.send("subtitles", "visite.vtt", VTT, { videoId: "abc123" });
    const image = await s.send("image", "vase.png", PNG);
    // A file from before names were kept.
    await env.DB.prepare("UPDATE media SET original_name = NULL WHERE r2_key = ?").bind(String(image.body.mediaUrl).slice(7)).run();
    const other = await setUp();
    const foreign = await other.send("image", "secret-plan.png", PNG);
    const version = ((await s.read(`/api/read/article?articleId=${s.article}`)).body as { version: number }).version;
    const own = [
      { type: "metadatas", url: `article-${s.article}`, backgroundColor: "#341539" },
      { type: "video", src: named.body.mediaUrl, subtitles: subtitles.body.mediaUrl, videoId: "abc123" },
      { type: "image", src: image.body.mediaUrl, alt: "Vase" },
    ];
    const foreignImage = { type: "image", src: foreign.body.mediaUrl, alt: "Pas à nous" };
    // Another museum's file is refused at the save (decision 114)…
    const refused = await s.call("update_article", { articleId: s.article, version, newContent: [...own, foreignImage] });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({ error: { field: "newContent.3.src", reason: "foreign_media" } });
    const saved = await s.call("update_article", { articleId: s.article, version, newContent: own });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // …and one already stored (content from before that rule, planted here) is still never read back with its name.
    const row = await env.DB.prepare("SELECT content FROM articles WHERE id = ?").bind(s.article).first<{ content: string }>();
    const planted = [...(JSON.parse(row!.content) as unknown[]), foreignImage];
    await env.DB.prepare("UPDATE articles SET content = ? WHERE id = ?").bind(JSON.stringify(planted), s.article).run();
    const read = (await s.read(`/api/read/article?articleId=${s.article}`)).body as { media: Record<string, unknown> };
    expect(read.media).toEqual({
      [String(named.body.mediaUrl)]: { name: "Ψ visite 🏛.mp4", kind: "video", bytes: MP4.length },
      [String(subtitles.body.mediaUrl)]: { name: "visite.vtt", kind: "subtitles", bytes: VTT.length },
      [String(image.body.mediaUrl)]: { name: null, kind: "image", bytes: PNG.length },
    });
    expect(JSON.stringify(read)).not.toContain("secret-plan");
    // The editor page shows the names in its forms (closed cards keep their fields in the page), a file
    // without a name by its kind and size, and never a storage path as the file's label.
    const page = await get(`/article?id=${s.article}`, s.cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Ψ visite 🏛.mp4 (");
    expect(html).toContain("visite.vtt (");
    expect(html).toMatch(/<bdi class="ef-upload__url">Image \(0,1(\u202f|&nbsp;|\u00a0| )?ko\)<\/bdi>/);
    expect(html).not.toContain("secret-plan");
  });

  it("50 identical uploads at once each keep the name; the museum archive carries names, and an archive without them imports", async () => {
    const s = await setUp();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.send("image", "même nom.png", PNG)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(new Set(results.map((r) => r.body.mediaUrl)).size).toBe(50);
    const names = await env.DB.prepare("SELECT DISTINCT original_name AS n FROM media WHERE museum_id = ?").bind(s.user.museumId).all<{ n: string }>();
    expect(names.results).toEqual([{ n: "même nom.png" }]);

    const exported = await get("/api/read/export", s.cookie);
    expect(exported.status).toBe(200);
    const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
    const rows = JSON.parse(new TextDecoder().decode(files["data/media.json"]!)) as Json[];
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.originalName === "même nom.png")).toBe(true);

    const importInto = async (archive: Uint8Array) => {
      const b = await staffSession();
      const response = await importMuseum(b.cookie, archive);
      expect(response.status, await response.clone().text()).toBe(200);
      return (await env.DB.prepare("SELECT original_name AS n FROM media WHERE museum_id = ?").bind(b.user.museumId).all<{ n: string | null }>()).results;
    };
    const same = await importInto(zipAgain(files));
    expect(same).toHaveLength(50);
    expect(same.every((r) => r.n === "même nom.png")).toBe(true);

    // An archive written before names were kept: its media rows have no originalName.
    const old = { ...files, "data/media.json": strToU8(JSON.stringify(rows.map(({ originalName: _, ...rest }) => rest))) };
    const imported = await importInto(await resealed(old));
    expect(imported).toHaveLength(50);
    expect(imported.every((r) => r.n === null)).toBe(true);
  });
});

function zipAgain(files: Record<string, Uint8Array>) {
  const out: Zippable = {};
  for (const [name, bytes] of Object.entries(files)) out[name] = [bytes, { level: 0 }];
  return zipSync(out);
}

/** The files with the manifest's sizes and hashes and the checksums file written again for what they now hold. */
async function resealed(files: Record<string, Uint8Array>) {
  const sha = async (bytes: Uint8Array) => toHex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"]!)) as { files: { path: string; bytes: number; sha256?: string }[] };
  for (const f of manifest.files) {
    const bytes = files[f.path]!;
    f.bytes = bytes.length;
    if (f.sha256) f.sha256 = await sha(bytes);
  }
  const next: Record<string, Uint8Array> = { ...files, "manifest.json": strToU8(JSON.stringify(manifest)) };
  const lines: string[] = [];
  for (const line of new TextDecoder().decode(files["checksums.sha256"]!).split("\n").filter(Boolean)) {
    const path = line.slice(66);
    lines.push(`${await sha(next[path]!)}  ${path}\n`);
  }
  return zipAgain({ ...next, "checksums.sha256": strToU8(lines.join("")) });
}
