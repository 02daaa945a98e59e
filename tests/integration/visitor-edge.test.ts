// The visitor's hot path at the edge (issue 17 §3, decision 039): a cached view reads nothing from D1,
// every staff write that changes what a visitor sees shows on the next view, and every visitor response
// says where its time went in `Server-Timing`.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pseudoTranslate } from "~/translation/engines";
import { changedKey, snapshotKey, STAMP_CHECK_MS } from "~/visitor-cache/snapshot.server";
import { RequestTiming, d1DelayFor, timedD1, timedKv } from "~/visitor-cache/timing";
import { BASE, get, publishNow, staffSession } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;
const FR = { "Accept-Language": "fr" };
const DE = { "Accept-Language": "de" };

/** `{ d1: {count, dur}, kv: …, engine: …, render: …, snapshot }` from a response's Server-Timing header. */
function timing(response: Response) {
  const header = response.headers.get("Server-Timing") ?? "";
  const out: Record<string, { count: number; dur: number; desc: string }> = {};
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = Number(/dur=([\d.]+)/.exec(params.join(";"))?.[1] ?? "NaN");
    const desc = /desc="([^"]*)"/.exec(params.join(";"))?.[1] ?? "";
    out[name!] = { count: Number(desc), dur, desc };
  }
  return out;
}

const withoutNonce = (html: string) => html.replace(/nonce="[^"]*"/g, "");

async function view(path: string, headers: Record<string, string> = FR) {
  const response = await get(path, undefined, headers);
  return { response, status: response.status, html: await response.text(), t: timing(response) };
}

/** A clock tick: a snapshot counts only when its D1 read began after the museum's last change (strictly). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function article(s: Session, texts: string[], folder: string[] = []) {
  const added = await s.call("add_article", { pathArray: folder });
  const articleId = added.body.id as number;
  const read = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: unknown[]; version: number; name: string };
  const save = async (next: string[], url = read.name) => {
    const current = (await s.read(`/api/read/article?articleId=${articleId}`)).body as { content: { url: string }[]; version: number };
    const saved = await s.call("update_article", {
      articleId,
      version: current.version,
      newContent: [{ ...read.content[0]!, url }, ...next.map((content) => ({ type: "text", content }))],
    });
    expect(saved.status).toBe(200);
    // Visitors see what is published (decision 041): each save here is published at once.
    await publishNow(s, articleId);
  };
  await save(texts);
  return { articleId, slug: read.name, save };
}

async function published(texts = ["Amphore attique à figures noires."]) {
  const s = await staffSession();
  const a = await article(s, texts);
  const code = await s.call("add_qrcode", {});
  expect((await s.call("update_qrcode", { qrcodeId: code.body.id, articleId: a.articleId })).status).toBe(200);
  return { s, ...a, qrcodeId: code.body.id as number, link: code.body.link as string, v: `/v/${s.user.museumSlug}/${a.slug}` };
}

/** Views until the page comes from its snapshot (at most 3 views: D1 once, then the translation cache filling). */
async function cachedView(path: string, headers = FR) {
  let last = await view(path, headers);
  for (let i = 0; i < 3 && last.t.d1?.desc !== "0"; i++) {
    await tick();
    last = await view(path, headers);
  }
  return last;
}

describe("a cached visitor view reads nothing from D1", () => {
  it("/r/{link} and /v/{museum}/{slug}: the first view reads D1 once, the next none, with Server-Timing figures", async () => {
    const p = await published();
    await tick();
    for (const path of [`/r/${p.link}`, p.v]) {
      const warmed = Date.now();
      const first = await view(path);
      expect(first.status).toBe(200);
      expect(first.html).toContain("Amphore attique");
      expect(first.t.d1!.count).toBeGreaterThan(0);
      expect(first.t.snapshot!.desc).toBe("d1");
      await tick();
      const second = await view(path);
      expect(second.status).toBe(200);
      expect(withoutNonce(second.html)).toBe(withoutNonce(first.html));
      expect(second.response.headers.get("Server-Timing")).toMatch(
        /^d1;dur=0;desc="0", kv;dur=[\d.]+;desc="\d+", engine;dur=[\d.]+;desc="0", render;dur=[\d.]+/,
      );
      // Within the bound of the first view's check (its D1 read), no KV read at all (decision 133); after it, the stamp.
      if (Date.now() - warmed < STAMP_CHECK_MS) expect(second.t.kv!.count).toBe(0);
      else expect(second.t.kv!.count).toBeGreaterThanOrEqual(1);
      expect(second.t.snapshot!.desc).toMatch(/^(isolate|kv)$/);
    }
  });

  it("in a translated language too (the translation from KV, the engine not called)", async () => {
    const p = await published();
    await tick();
    const first = await view(`/r/${p.link}`, DE);
    expect(first.html).toContain(pseudoTranslate("Amphore attique à figures noires.", "de"));
    expect(first.t.engine!.count).toBeGreaterThan(0);
    const cached = await cachedView(`/r/${p.link}`, DE);
    expect(cached.t.d1!.desc).toBe("0");
    expect(cached.t.engine!.desc).toBe("0");
    expect(cached.html).toContain(pseudoTranslate("Amphore attique à figures noires.", "de"));
  });

  it("from KV when this isolate has not kept it: a snapshot planted for another address is never served (tenancy)", async () => {
    const a = await published(["Texte du musée A."]);
    const b = await published(["Texte du musée B."]);
    await tick();
    // Museum A's snapshot, stored under museum B's address (as a key collision or a bad write would).
    await view(a.v);
    const aKey = await snapshotKey(`v/${JSON.stringify([a.s.user.museumSlug, a.slug])}`);
    const bKey = await snapshotKey(`v/${JSON.stringify([b.s.user.museumSlug, b.slug])}`);
    for (let i = 0; i < 50 && (await env.KV.get(aKey)) === null; i++) await tick();
    const planted = await env.KV.get(aKey);
    expect(planted).not.toBeNull();
    await env.KV.put(bKey, planted!);
    const seen = await view(b.v);
    expect(seen.html).toContain("Texte du musée B.");
    expect(seen.html).not.toContain("Texte du musée A.");
    expect(seen.t.snapshot!.desc).toBe("d1");
  });

  it("50 simultaneous views of a fresh code all answer the same page", async () => {
    const p = await published();
    await tick();
    const pages = await Promise.all(Array.from({ length: 50 }, () => view(`/r/${p.link}`)));
    expect(new Set(pages.map((x) => x.status))).toEqual(new Set([200]));
    expect(new Set(pages.map((x) => withoutNonce(x.html))).size).toBe(1);
    expect((await cachedView(`/r/${p.link}`)).t.d1!.desc).toBe("0");
  });

  it("an address that leads nowhere is not kept (it belongs to no museum), and answers 404 with Server-Timing", async () => {
    for (let i = 0; i < 2; i++) {
      const missing = await view("/r/zzzzzzzz");
      expect(missing.status).toBe(404);
      expect(missing.t.d1!.count).toBeGreaterThan(0);
    }
  });
});

describe("each staff write that changes a visitor page shows on the next view", () => {
  /** Warms the page into its snapshot, then checks the next view after `change` reads D1 and shows `expectation`. */
  async function afterChange(
    path: string,
    change: () => Promise<void>,
    expectation: (page: Awaited<ReturnType<typeof view>>) => void,
    headers = FR,
    warm = true,
  ) {
    await tick();
    if (warm) expect((await cachedView(path, headers)).t.d1!.desc).toBe("0");
    await change();
    const next = await view(path, headers);
    expectation(next);
    expect(next.t.snapshot!.desc).toBe("d1");
    return next;
  }

  it("saving an article (content, and its address)", async () => {
    const p = await published(["Avant la modification."]);
    await afterChange(
      `/r/${p.link}`,
      () => p.save(["Après la modification."]),
      (page) => expect(page.html).toContain("Après la modification."),
    );
    await afterChange(
      p.v,
      () => p.save(["Après la modification."], `${p.slug}-nouveau`),
      (page) => expect(page.status).toBe(404),
    );
    expect((await view(`${p.v}-nouveau`)).html).toContain("Après la modification.");
  });

  it("linking a code to another article, then unlinking it (deactivating)", async () => {
    const p = await published(["Premier article."]);
    const other = await article(p.s, ["Second article."]);
    const path = `/r/${p.link}`;
    await afterChange(
      path,
      async () => void expect((await p.s.call("update_qrcode", { qrcodeId: p.qrcodeId, articleId: other.articleId })).status).toBe(200),
      (page) => expect(page.html).toContain("Second article."),
    );
    await afterChange(
      path,
      async () => void expect((await p.s.call("update_qrcode", { qrcodeId: p.qrcodeId, articleId: null })).status).toBe(200),
      (page) => expect(page.html).toContain("Ce code ne mène encore à aucun article"),
    );
  });

  it("trashing and restoring the article", async () => {
    const p = await published(["Article à jeter."]);
    const path = `/r/${p.link}`;
    await afterChange(
      path,
      async () => void expect((await p.s.call("delete_item", { type: "article", id: p.articleId, pathArray: [] })).status).toBe(200),
      (page) => expect(page.html).toContain("Ce code ne mène encore à aucun article"),
    );
    await afterChange(
      path,
      async () => void expect((await p.s.call("restore_item", { type: "article", id: p.articleId })).status).toBe(200),
      (page) => expect(page.html).toContain("Article à jeter."),
    );
  });

  it("trashing and restoring the folder that holds it", async () => {
    const s = await staffSession();
    expect((await s.call("add_folder", { pathArray: [], id: "Salle 1" })).status).toBe(200);
    const a = await article(s, ["Dans la salle 1."], ["Salle 1"]);
    const v = `/v/${s.user.museumSlug}/${a.slug}`;
    await afterChange(
      v,
      async () => void expect((await s.call("delete_item", { type: "folder", id: "Salle 1", pathArray: [] })).status).toBe(200),
      (page) => expect(page.status).toBe(404),
    );
    const trash = (await s.read("/api/read/trash")).body as { type: string; id: number }[];
    const folder = trash.find((item) => item.type === "folder")!;
    await afterChange(
      v,
      async () => void expect((await s.call("restore_item", { type: "folder", id: folder.id })).status).toBe(200),
      (page) => expect(page.html).toContain("Dans la salle 1."),
      FR,
      false, // a 404 is never kept, so there is nothing to warm
    );
    expect((await cachedView(v)).t.d1!.desc).toBe("0");
  });

  it("adding and deleting a glossary term", async () => {
    const p = await published(["La Victoire de Samothrace."]);
    const path = `/r/${p.link}`;
    let termId = 0;
    await afterChange(
      path,
      async () => {
        const added = await p.s.call("add_glossary_term", { term: "Samothrace" });
        expect(added.status).toBe(200);
        termId = added.body.id as number;
      },
      (page) => expect(page.html).toContain(pseudoTranslate("La Victoire de ⟦1⟧.", "de").replace("⟦1⟧", "Samothrace")),
      DE,
    );
    await afterChange(
      path,
      async () => void expect((await p.s.call("delete_glossary_term", { id: termId })).status).toBe(200),
      (page) => expect(page.html).toContain(pseudoTranslate("La Victoire de Samothrace.", "de")),
      DE,
    );
  });

  it("the museum's settings (name, source language)", async () => {
    const p = await published(["Texte en français."]);
    const settings = (fields: Record<string, string>) =>
      SELF.fetch(`${BASE}/settings`, {
        method: "POST",
        headers: { Cookie: p.s.cookie, Host: "localhost", Origin: BASE },
        body: new URLSearchParams({ intent: "museum", timezone: "Europe/Paris", ...fields }),
        redirect: "manual",
      });
    await afterChange(
      `/r/${p.link}`,
      async () => void expect((await settings({ name: "Musée renommé", sourceLang: "fr" })).status).toBe(200),
      (page) => expect(page.html).toContain("Musée renommé"),
    );
    // The source language: a German visitor gets the article as written once German is the source.
    await afterChange(
      `/r/${p.link}`,
      async () => void expect((await settings({ name: "Musée renommé", sourceLang: "de" })).status).toBe(200),
      (page) => {
        expect(page.html).toContain("Texte en français.");
        expect(page.html).not.toContain(pseudoTranslate("Texte en français.", "de"));
      },
      DE,
    );
  });

  it("a staff correction of the translation, then resetting it (the translation kept in this isolate goes too)", async () => {
    const p = await published(["Une amphore attique."]);
    const path = `/r/${p.link}`;
    await afterChange(
      path,
      async () => {
        const read = (await p.s.read(`/api/read/translation?articleId=${p.articleId}&lang=de`)).body as { segments: { id: string; source: string }[] };
        const segment = read.segments.find((x) => x.source === "Une amphore attique.")!;
        expect(
          (await p.s.call("update_translation", { articleId: p.articleId, lang: "de", segmentId: segment.id, text: "Eine attische Amphore." })).status,
        ).toBe(200);
      },
      (page) => expect(page.html).toContain("Eine attische Amphore."),
      DE,
    );
    await afterChange(
      path,
      async () => void expect((await p.s.call("reset_translation", { articleId: p.articleId, lang: "de" })).status).toBe(200),
      (page) => expect(page.html).toContain(pseudoTranslate("Une amphore attique.", "de")),
      DE,
    );
    await afterChange(
      path,
      async () => {
        const read = (await p.s.read(`/api/read/translation?articleId=${p.articleId}&lang=de`)).body as { segments: { id: string; source: string }[] };
        const segment = read.segments.find((x) => x.source === "Une amphore attique.")!;
        expect((await p.s.call("update_translation", { articleId: p.articleId, lang: "de", segmentId: segment.id, text: "Wieder korrigiert." })).status).toBe(
          200,
        );
        expect((await p.s.call("reset_traductions", { articleId: p.articleId })).status).toBe(200);
      },
      (page) => expect(page.html).toContain(pseudoTranslate("Une amphore attique.", "de")),
      DE,
    );
  });

  it("a change stamp newer than the snapshot sends the next view to D1 (another location's change, seen through KV once this isolate's check is STAMP_CHECK_MS old)", async () => {
    const p = await published(["Texte."]);
    await afterChange(
      `/r/${p.link}`,
      async () => {
        await env.KV.put(changedKey(p.s.user.museumId), String(Date.now() + 60_000));
        await new Promise((resolve) => setTimeout(resolve, STAMP_CHECK_MS + 10));
      },
      (page) => expect(page.status).toBe(200),
    );
  });
});

describe("the local-only D1 delay switch", () => {
  const local = (headers: Record<string, string>, url = "http://127.0.0.1:8797/r/x") => new Request(url, { headers });
  it("is honoured only with DEV_D1_DELAY=allow, on a local address, within 1..1000 ms", () => {
    const header = { "X-Dev-D1-Delay-Ms": "100" };
    expect(d1DelayFor(local(header), { DEV_D1_DELAY: "allow" })).toBe(100);
    expect(d1DelayFor(local(header, "http://localhost/r/x"), { DEV_D1_DELAY: "allow" })).toBe(100);
    expect(d1DelayFor(local(header), {})).toBe(0);
    expect(d1DelayFor(local(header), { DEV_D1_DELAY: "1" })).toBe(0);
    expect(d1DelayFor(local(header, "https://muselingo.example/r/x"), { DEV_D1_DELAY: "allow" })).toBe(0);
    expect(d1DelayFor(local({ "X-Dev-D1-Delay-Ms": "99999" }), { DEV_D1_DELAY: "allow" })).toBe(1000);
    for (const bad of ["-5", "1e3x", "abc", "0.5", ""]) expect(d1DelayFor(local({ "X-Dev-D1-Delay-Ms": bad }), { DEV_D1_DELAY: "allow" })).toBe(0);
  });

  it("is off in the tested configuration (wrangler.toml sets no DEV_D1_DELAY): the header changes nothing", async () => {
    expect((env as unknown as Record<string, unknown>).DEV_D1_DELAY).toBeUndefined();
    const headers = { ...FR, "X-Dev-D1-Delay-Ms": "1000" };
    // The switch, asked with this very request and the tested Worker's env, holds nothing back (no clock read:
    // the request's wall time on a busy machine says nothing).
    expect(d1DelayFor(new Request("http://localhost/r/zzzzzzzz", { headers }), env as unknown as Record<string, unknown>)).toBe(0);
    const page = await view("/r/zzzzzzzz", headers);
    expect(page.status).toBe(404);
  });
});

describe("the per-request wrappers count what goes through them", () => {
  it("D1: each statement run and each batch is one round trip; KV: each call; results unchanged", async () => {
    const timing = new RequestTiming();
    const db = timedD1(env.DB, timing);
    expect(await db.prepare("SELECT ?1 + 1 AS n").bind(41).first()).toEqual({ n: 42 });
    expect((await db.prepare("SELECT 1 AS n").all()).results).toEqual([{ n: 1 }]);
    const [a, b] = await db.batch([db.prepare("SELECT 2 AS n"), db.prepare("SELECT ?1 AS n").bind(3)]);
    expect([a!.results, b!.results]).toEqual([[{ n: 2 }], [{ n: 3 }]]);
    expect(timing.d1.count).toBe(3);
    await expect(db.prepare("SELECT * FROM no_such_table").all()).rejects.toThrow(/no such table/);
    expect(timing.d1.count).toBe(4);
    const kv = timedKv(env.KV, timing);
    await kv.put("edge-test", "x");
    expect(await kv.get("edge-test")).toBe("x");
    expect(timing.kv.count).toBe(2);
    expect(timing.header()).toMatch(/^d1;dur=[\d.]+;desc="4", kv;dur=[\d.]+;desc="2", engine;dur=0;desc="0", render;dur=0$/);
  });

  it("with a delay, every D1 round trip waits that long first", async () => {
    const timing = new RequestTiming();
    const db = timedD1(env.DB, timing, 60);
    const started = Date.now();
    await db.prepare("SELECT 1").first();
    await db.batch([db.prepare("SELECT 1")]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    expect(timing.d1.ms).toBeGreaterThanOrEqual(120);
  });
});
