import { env } from "cloudflare:test";
import { importMuseum } from "./builders";
import { strToU8, unzipSync, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { ARCHIVE_INFLATED_MAX } from "~/archive/import.server";
import { get, staffSession } from "./helpers";

// The museum archive's size accounting (issue 29 §2, decision 111): what the manifest declares is counted before
// any other entry is inflated, and refused with 413 and the reason; each entry is then inflated no further than
// it declared.

type Manifest = { files: { path: string; bytes: number; sha256?: string }[] };

async function exportOf(cookie: string) {
  const response = await get("/api/read/export", cookie);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

function withManifest(archive: Uint8Array, edit: (manifest: Manifest) => void) {
  const files = unzipSync(archive);
  const manifest = JSON.parse(new TextDecoder().decode(files["manifest.json"])) as Manifest;
  edit(manifest);
  files["manifest.json"] = strToU8(JSON.stringify(manifest));
  const out: Zippable = {};
  for (const [name, bytes] of Object.entries(files)) out[name] = [bytes, { level: 0 }];
  return zipSync(out);
}

async function importInto(cookie: string, body: Uint8Array) {
  const response = await importMuseum(cookie, body);
  return { status: response.status, body: (await response.json()) as { error?: { code: string; field?: string; reason?: string; message?: string } } };
}

async function leftBehind(museumId: number) {
  const objects = [...(await env.MEDIA.list({ prefix: `m/${museumId}/` })).objects, ...(await env.MEDIA.list({ prefix: `n/${museumId}/` })).objects];
  const rows = await env.DB.prepare("SELECT (SELECT count(*) FROM articles WHERE museum_id = ?1) + (SELECT count(*) FROM media WHERE museum_id = ?1) AS n")
    .bind(museumId)
    .first<{ n: number }>();
  return { objects: objects.length, rows: rows!.n };
}

describe("museum archive size accounting", () => {
  it("refuses files declared to unpack past the bound (413, with the sizes) before inflating any of them", async () => {
    const a = await staffSession();
    await a.call("add_article", { pathArray: [] });
    const archive = await exportOf(a.cookie);
    const b = await staffSession();

    const huge = withManifest(archive, (m) => {
      for (let i = 0; i < 3; i++) m.files.push({ path: `media/m/1/image/huge-${i}.png`, bytes: 1024 * 1024 * 1024 });
    });
    const refused = await importInto(b.cookie, huge);
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: "too_large", field: "archive", reason: "too_long" });
    expect(refused.body.error!.message).toMatch(/unpack to 3,07\d MB; an import reads at most/);
    expect(3 * 1024 * 1024 * 1024).toBeGreaterThan(ARCHIVE_INFLATED_MAX);
    expect(await leftBehind(b.user.museumId)).toEqual({ objects: 0, rows: 0 });

    const bigData = withManifest(archive, (m) => {
      m.files.find((f) => f.path === "data/articles.json")!.bytes = 49 * 1024 * 1024;
    });
    const data = await importInto(b.cookie, bigData);
    expect(data.status).toBe(413);
    expect(data.body.error).toMatchObject({ field: "archive", reason: "too_long" });
    expect(data.body.error!.message).toContain("data/articles.json unpacks to 49 MB");

    // The same archive as exported is read (the accounting refuses nothing a real export holds).
    const ok = await importInto(b.cookie, archive);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
