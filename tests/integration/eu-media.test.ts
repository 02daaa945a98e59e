import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { routedMedia } from "~/shards/media.server";
import { MoveError, moveMuseum } from "~/shards/move";
import { BASE, createMember, createMuseum, get, signIn } from "./helpers";
import { shardDb } from "./builders";

// Data kept in the EU (decision 144): a museum placed in the EU keeps its rows on an EU shard (DB_2, decision 142)
// and its files in MEDIA_EU, a bucket created in the EU jurisdiction. Every path that reads or writes a file goes
// through one bucket that picks the museum's from the key (app/shards/media.server.ts).

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));

async function museumIn(jurisdiction: "eu" | "") {
  const museum = await createMuseum({ shard: jurisdiction === "eu" ? 2 : 1 });
  if (jurisdiction) await env.DIRECTORY.prepare("UPDATE museums SET jurisdiction = ? WHERE id = ?").bind(jurisdiction, museum.museumId).run();
  const s = await signIn(await createMember(museum));
  const article = (await s.call("add_article", { pathArray: [] })).body.id as number;
  const upload = async (name: string) => {
    const form = new FormData();
    form.append("articleId", String(article));
    form.append("image", new File([PNG], name, { type: "image/png" }));
    const response = await SELF.fetch(`${BASE}/api/upload/image`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { mediaUrl: string }).mediaUrl;
  };
  return { museum, s, article, upload };
}

describe("files kept in the museum's jurisdiction", () => {
  it("an EU museum's upload is stored in MEDIA_EU only, and served from there; another museum's in MEDIA", async () => {
    const eu = await museumIn("eu");
    const url = await eu.upload("Amphore d'Athènes.png");
    const key = url.slice("/media/".length);
    expect(key.startsWith(`m/${eu.museum.museumId}/`)).toBe(true);
    expect(await env.MEDIA_EU.head(key)).not.toBeNull();
    expect(await env.MEDIA.head(key)).toBeNull();
    const served = await get(url, eu.s.cookie);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    const other = await museumIn("");
    const otherKey = (await other.upload("vase.png")).slice("/media/".length);
    expect(await env.MEDIA.head(otherKey)).not.toBeNull();
    expect(await env.MEDIA_EU.head(otherKey)).toBeNull();
  });

  it("one delete of keys of both museums removes each from its own bucket; a key of no museum is MEDIA's", async () => {
    const eu = await museumIn("eu");
    const other = await museumIn("");
    const euKey = (await eu.upload("a.png")).slice("/media/".length);
    const otherKey = (await other.upload("b.png")).slice("/media/".length);
    const media = routedMedia(env, env.KV);
    expect((await media.list({ prefix: `m/${eu.museum.museumId}/` })).objects.map((o) => o.key)).toEqual([euKey]);
    await media.delete([euKey, otherKey]);
    expect(await env.MEDIA_EU.head(euKey)).toBeNull();
    expect(await env.MEDIA.head(otherKey)).toBeNull();
    await media.put("site/robots.txt", "x");
    expect(await env.MEDIA.head("site/robots.txt")).not.toBeNull();
    await media.delete("site/robots.txt");
  });

  it("an EU museum's archive staging goes to MEDIA_EU as well (multipart, resumed by its upload id)", async () => {
    const eu = await museumIn("eu");
    const media = routedMedia(env, env.KV);
    const key = `imports/${eu.museum.museumId}/staging-test`;
    const upload = await media.createMultipartUpload(key);
    const resumed = media.resumeMultipartUpload(key, upload.uploadId);
    const part = await resumed.uploadPart(1, new Uint8Array(16).fill(1));
    await resumed.complete([part]);
    expect((await env.MEDIA_EU.head(key))?.size).toBe(16);
    expect(await env.MEDIA.head(key)).toBeNull();
    await media.delete(key);
  });

  it("a move keeps an EU museum on EU shards: its files could not follow it out", async () => {
    const eu = await museumIn("eu");
    const io = { directory: env.DIRECTORY, shard: (k: number) => shardDb(k), kv: env.KV, jurisdictionOf: (k: number) => (k === 2 ? "eu" : "") };
    await expect(moveMuseum(io, eu.museum.museumId, 1, { propagationMs: 0, graceMs: 0, cleanupAfterMs: 0 })).rejects.toThrow(MoveError);
    expect(await env.DIRECTORY.prepare("SELECT shard, state FROM museums WHERE id = ?").bind(eu.museum.museumId).first()).toEqual({
      shard: 2,
      state: "active",
    });
  });
});
