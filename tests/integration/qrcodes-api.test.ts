import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LINK_ALPHABET } from "~/models/qrcode-input";
import { BASE, get, staffSession } from "./helpers";

type Json = Record<string, unknown>;

async function withCodes() {
  const s = await staffSession();
  const read = async (path: string) => {
    const response = await get(path, s.cookie);
    return { status: response.status, body: (await response.json()) as Json & Json[] };
  };
  const article = async (name: string) => {
    const created = await s.call("add_article", { pathArray: [] });
    await s.call("rename_article", { articleId: created.body.id, newName: name });
    return created.body.id as number;
  };
  return { ...s, read, article };
}

const LINK = new RegExp(`^[${LINK_ALPHABET}]{8}$`);

describe("QR codes API", () => {
  it("answers 401 without a session", async () => {
    for (const path of ["/api/read/qrcodes", "/api/read/qrcode?qrcodeId=1"]) expect((await get(path)).status, path).toBe(401);
    const add = await SELF.fetch(`${BASE}/api/manage/add_qrcode`, { method: "POST" });
    expect(add.status).toBe(401);
  });

  it("creates inactive codes with an 8-character link without look-alikes, with or without a body", async () => {
    const s = await withCodes();
    const bare = await SELF.fetch(`${BASE}/api/manage/add_qrcode`, { method: "POST", headers: { Cookie: s.cookie } });
    expect(bare.status).toBe(200);
    const code = (await bare.json()) as Json;
    expect(code).toEqual({ id: expect.any(Number), link: expect.stringMatching(LINK), id_article: null, name: null });
    const withBody = await s.call("add_qrcode", {});
    expect(withBody.status).toBe(200);
    expect(withBody.body.link).not.toBe(code.link);
    expect((await s.call("add_qrcode", { surprise: 1 })).status).toBe(400);
  });

  it("gives 50 parallel creations 50 distinct links", async () => {
    const s = await withCodes();
    const results = await Promise.all(Array.from({ length: 50 }, () => s.call("add_qrcode", {})));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(new Set(results.map((r) => r.body.link)).size).toBe(50);
    expect((await s.read("/api/read/qrcodes")).body).toHaveLength(50);
  });

  it("links, relinks and unlinks a code, and reads it back", async () => {
    const s = await withCodes();
    const amphora = await s.article("Amphore étrusque");
    const stele = await s.article("Stèle funéraire");
    const code = (await s.call("add_qrcode", {})).body;

    const linked = await s.call("update_qrcode", { qrcodeId: code.id, articleId: amphora });
    expect(linked).toEqual({ status: 200, body: { id: code.id, link: code.link, id_article: amphora, name: "Amphore étrusque" } });
    const relinked = await s.call("update_qrcode", { qrcodeId: code.id, articleId: String(stele) });
    expect(relinked.body).toMatchObject({ id_article: stele, name: "Stèle funéraire" });

    const read = await s.read(`/api/read/qrcode?qrcodeId=${code.id}`);
    expect(read.body).toEqual({ id: code.id, link: code.link, id_article: stele, name: "Stèle funéraire", url: `http://localhost/r/${code.link}` });
    expect((await s.read("/api/read/qrcodes")).body).toEqual([{ id: code.id, link: code.link, id_article: stele, name: "Stèle funéraire" }]);

    const unlinked = await s.call("update_qrcode", { qrcodeId: code.id, articleId: null });
    expect(unlinked.body).toMatchObject({ id_article: null, name: null });
    // The code itself never changes when its article does.
    expect(unlinked.body.link).toBe(code.link);
  });

  it("refuses another museum's article or code, a trashed article, and bad ids, changing nothing", async () => {
    const s = await withCodes();
    const other = await withCodes();
    const mine = await s.article("Mine");
    const theirs = await other.article("Theirs");
    const code = (await s.call("add_qrcode", {})).body;
    const theirCode = (await other.call("add_qrcode", {})).body;
    await s.call("update_qrcode", { qrcodeId: code.id, articleId: mine });

    expect(await s.call("update_qrcode", { qrcodeId: code.id, articleId: theirs })).toMatchObject({
      status: 404,
      body: { error: { code: "not_found", field: "articleId" } },
    });
    expect(await s.call("update_qrcode", { qrcodeId: theirCode.id, articleId: mine })).toMatchObject({
      status: 404,
      body: { error: { field: "qrcodeId" } },
    });
    expect((await s.read(`/api/read/qrcode?qrcodeId=${theirCode.id}`)).status).toBe(404);
    expect((await s.read("/api/read/qrcodes")).body.map((c: Json) => c.id)).toEqual([code.id]);

    const trashed = await s.article("Trashed");
    await s.call("delete_item", { type: "article", id: trashed });
    expect((await s.call("update_qrcode", { qrcodeId: code.id, articleId: trashed })).status).toBe(404);

    for (const body of [{ qrcodeId: "x", articleId: mine }, { qrcodeId: code.id }, { qrcodeId: -1, articleId: mine }, { qrcodeId: code.id, articleId: 1.5 }]) {
      const result = await s.call("update_qrcode", body);
      expect(result.status, JSON.stringify(body)).toBe(400);
    }
    for (const query of ["", "?qrcodeId=", "?qrcodeId=abc", "?qrcodeId=0"]) {
      expect((await s.read(`/api/read/qrcode${query}`)).status, query).toBe(400);
    }
    expect((await s.read(`/api/read/qrcode?qrcodeId=${code.id}`)).body).toMatchObject({ id_article: mine, name: "Mine" });
    expect((await other.read(`/api/read/qrcode?qrcodeId=${theirCode.id}`)).body).toMatchObject({ id_article: null });
  });

  it("shows a code inactive while its article is in the trash, and active again once restored", async () => {
    const s = await withCodes();
    await s.call("add_folder", { pathArray: [], id: "Salle" });
    const created = await s.call("add_article", { pathArray: ["Salle"] });
    const articleId = created.body.id as number;
    const code = (await s.call("add_qrcode", {})).body;
    await s.call("update_qrcode", { qrcodeId: code.id, articleId });

    await s.call("delete_item", { type: "folder", id: "Salle", pathArray: [] });
    expect((await s.read(`/api/read/qrcode?qrcodeId=${code.id}`)).body).toMatchObject({ id_article: null, name: null });
    const trash = (await s.read("/api/read/trash")).body as Json[];
    await s.call("restore_item", { type: "folder", id: trash[0]!.id });
    expect((await s.read(`/api/read/qrcode?qrcodeId=${code.id}`)).body).toMatchObject({ id_article: articleId });
  });

  it("never links a code to an article deleted at the same moment", async () => {
    const s = await withCodes();
    const articleId = await s.article("Fleeting");
    const code = (await s.call("add_qrcode", {})).body;
    const [link] = await Promise.all([s.call("update_qrcode", { qrcodeId: code.id, articleId }), s.call("delete_item", { type: "article", id: articleId })]);
    const row = await env.DB.prepare("SELECT article_id FROM qrcodes WHERE id = ?").bind(code.id).first<{ article_id: number | null }>();
    if (link.status === 200) {
      // Linked first, then the article went to the trash: the code shows inactive until a restore.
      expect((await s.read(`/api/read/qrcode?qrcodeId=${code.id}`)).body).toMatchObject({ id_article: null });
    } else {
      expect(link.status).toBe(404);
      expect(row!.article_id).toBeNull();
    }
  });
});

describe("GET /api/read/qrcode_image", () => {
  it("serves the museum's own code as PNG (the default) and SVG downloads named after the link, cached in KV", async () => {
    const s = await withCodes();
    const code = (await s.call("add_qrcode", {})).body;
    const png = await get(`/api/read/qrcode_image?qrcodeId=${code.id}`, s.cookie);
    expect(png.status).toBe(200);
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect(png.headers.get("Content-Disposition")).toBe(`attachment; filename="qrcode-${code.link}.png"`);
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");

    const svg = await get(`/api/read/qrcode_image?qrcodeId=${code.id}&format=svg`, s.cookie);
    expect(svg.headers.get("Content-Type")).toBe("image/svg+xml; charset=utf-8");
    expect(svg.headers.get("Content-Disposition")).toBe(`attachment; filename="qrcode-${code.link}.svg"`);
    const text = await svg.text();
    expect(text).toMatch(/^<svg[^>]+width="300" height="300"/);
    expect(text).not.toContain(code.link); // modules only, never the data as text

    const keys = await env.KV.list({ prefix: "qrimg:" });
    expect(keys.keys.length).toBeGreaterThanOrEqual(2);
    const again = new Uint8Array(await (await get(`/api/read/qrcode_image?qrcodeId=${code.id}`, s.cookie)).arrayBuffer());
    expect(again).toEqual(bytes);
  });

  it("refuses another museum's code, a bad format and no session", async () => {
    const s = await withCodes();
    const other = await withCodes();
    const theirs = (await other.call("add_qrcode", {})).body;
    const mine = (await s.call("add_qrcode", {})).body;
    expect((await get(`/api/read/qrcode_image?qrcodeId=${theirs.id}`, s.cookie)).status).toBe(404);
    const bad = await get(`/api/read/qrcode_image?qrcodeId=${mine.id}&format=gif`, s.cookie);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { field: "format", reason: "invalid" } });
    expect((await get(`/api/read/qrcode_image?qrcodeId=${mine.id}`)).status).toBe(401);
  });
});

// Issue 29 (decision 115): black on white is what every reader decodes, so it is the default; the spec's white on
// black is served on request (`look=light-on-dark`), cached apart, named apart.
describe("QR code looks", () => {
  const colours = (svg: string) => [/<rect width="300" height="300" fill="([^"]+)"\/>/.exec(svg)?.[1], /<path fill="([^"]+)"/.exec(svg)?.[1]];

  it("serves black on white by default and white on black on request, for codes and for tours", async () => {
    const s = await withCodes();
    const code = (await s.call("add_qrcode", {})).body;
    const tour = (await s.call("add_tour", { name: "Parcours des looks" })).body;
    for (const [path, name] of [
      [`/api/read/qrcode_image?qrcodeId=${code.id}`, `qrcode-${code.link}`],
      [`/api/read/tour_qrcode?id=${tour.id}`, `tour-${tour.link}`],
    ] as const) {
      const plain = await get(`${path}&format=svg`, s.cookie);
      expect(plain.status).toBe(200);
      expect(colours(await plain.text())).toEqual(["#fff", "#000"]);
      const spec = await get(`${path}&format=svg&look=light-on-dark`, s.cookie);
      expect(spec.headers.get("Content-Disposition")).toBe(`attachment; filename="${name}-white-on-black.svg"`);
      expect(colours(await spec.text())).toEqual(["#000", "#fff"]);
      const explicit = await get(`${path}&format=svg&look=dark-on-light`, s.cookie);
      expect(explicit.headers.get("Content-Disposition")).toBe(`attachment; filename="${name}.svg"`);
      expect(colours(await explicit.text())).toEqual(["#fff", "#000"]);
      const pngSpec = new Uint8Array(await (await get(`${path}&look=light-on-dark`, s.cookie)).arrayBuffer());
      const pngPlain = new Uint8Array(await (await get(path, s.cookie)).arrayBuffer());
      expect(pngSpec).not.toEqual(pngPlain);
    }
  });

  it("refuses an unknown look naming the field, and answers 50 identical requests alike", async () => {
    const s = await withCodes();
    const code = (await s.call("add_qrcode", {})).body;
    for (const look of ["inverted", "", "DARK-ON-LIGHT", "dark-on-light\u200b", "%00"]) {
      const bad = await get(`/api/read/qrcode_image?qrcodeId=${code.id}&look=${encodeURIComponent(look)}`, s.cookie);
      expect(bad.status, look).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { field: "look", reason: "invalid" } });
    }
    const tour = (await s.call("add_tour", { name: "Parcours" })).body;
    const badTour = await get(`/api/read/tour_qrcode?id=${tour.id}&look=white`, s.cookie);
    expect(badTour.status).toBe(400);
    expect(await badTour.json()).toMatchObject({ error: { field: "look", reason: "invalid" } });

    const answers = await Promise.all(Array.from({ length: 50 }, () => get(`/api/read/qrcode_image?qrcodeId=${code.id}&look=light-on-dark`, s.cookie)));
    const bodies = await Promise.all(answers.map(async (a) => ({ status: a.status, bytes: new Uint8Array(await a.arrayBuffer()) })));
    expect(bodies.every((b) => b.status === 200)).toBe(true);
    for (const body of bodies) expect(body.bytes).toEqual(bodies[0]!.bytes);
  });
});

// Issue 29 (decision 116): the print sheet of a tour, and "print all", hold every stop, in order.
describe("the print sheet", () => {
  const stopsOf = (html: string) =>
    html.split("<li ").flatMap((item) => {
      const kind = /^class="print-cell print-cell--(\w+)"/.exec(item)?.[1];
      const stop = /Étape (\d+)/.exec(item.slice(0, item.indexOf("</li>")))?.[1];
      return kind ? [`${kind}${stop ? ` ${stop}` : ""}`] : [];
    });

  it("prints a tour's code then its stops in the tour's order, a stop without a code as such, and nothing of another museum", async () => {
    const s = await withCodes();
    const ids = [await s.article("Cratère"), await s.article("Lécythe"), await s.article("Stamnos")];
    for (const [i, articleId] of ids.entries()) expect((await s.call("update_stop_number", { articleId, stopNumber: [13, 12, 14][i] })).status).toBe(200);
    for (const articleId of ids.slice(0, 2)) {
      const code = (await s.call("add_qrcode", {})).body;
      await s.call("update_qrcode", { qrcodeId: code.id, articleId });
    }
    const tour = (await s.call("add_tour", { name: "Vases" })).body;
    expect((await s.call("update_tour", { id: tour.id, version: tour.version, articleIds: [ids[1], ids[0], ids[2]] })).status).toBe(200);

    const sheet = await get(`/qrcodes/print?tour=${tour.id}`, s.cookie);
    expect(sheet.status).toBe(200);
    expect(stopsOf(await sheet.text())).toEqual(["tour", "code 12", "code 13", "missing 14"]);
    const all = await get(`/qrcodes/print`, s.cookie);
    expect(stopsOf(await all.text())).toEqual(["code 12", "code 13", "missing 14", "tour"]);
    const chosen = await get(`/qrcodes/print?ids=${[...Array(40).keys()].join(",")}`, s.cookie);
    expect(stopsOf(await chosen.text()).every((cell) => cell.startsWith("code"))).toBe(true);

    // Another museum's tour id, or garbage: an empty sheet, never their codes, never a 500.
    const other = await withCodes();
    for (const query of [`tour=${tour.id}`, "tour=abc", "tour=-1", "tour=99999999999999999999", "look=%F0%9F%98%80"]) {
      const theirs = await get(`/qrcodes/print?${query}`, other.cookie);
      expect(theirs.status, query).toBe(200);
      expect(stopsOf(await theirs.text()), query).toEqual([]);
    }
  });

  it("creates a missing stop's code from the sheet once, however many posts arrive together, and refuses bad input by field", async () => {
    const s = await withCodes();
    const articleId = await s.article("Hydrie");
    const post = (form: Record<string, string>, cookie: string | null = s.cookie) =>
      SELF.fetch(`${BASE}/qrcodes/print`, {
        method: "POST",
        body: new URLSearchParams(form),
        headers: { Host: "localhost", Origin: BASE, ...(cookie ? { Cookie: cookie } : {}) },
        redirect: "manual",
      });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post({ intent: "create-code", articleId: String(articleId) })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    await Promise.all(answers.map((a) => a.body?.cancel()));
    const codes = (await s.read("/api/read/qrcodes")).body as unknown as { id: number }[];
    const linked = await Promise.all(
      codes.map(async (c) => ((await s.read(`/api/read/qrcode?qrcodeId=${c.id}`)).body as unknown as { id_article: number | null }).id_article),
    );
    expect(linked.filter((id) => id === articleId)).toHaveLength(1);

    const other = await withCodes();
    const theirs = await other.article("Leur vase");
    const foreign = await post({ intent: "create-code", articleId: String(theirs) });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("articleId");
    for (const bad of ["abc", "0", "-3", "1e3", "١٢", ""]) {
      const refused = await post({ intent: "create-code", articleId: bad });
      expect(refused.status, bad).toBe(400);
      expect(await refused.text()).toContain("articleId");
    }
    const intent = await post({ intent: "drop-all", articleId: String(articleId) });
    expect(intent.status).toBe(400);
    expect(await intent.text()).toContain("intent");
    // Without a session: the page's login answer (as every staff page gives), and nothing is created.
    await s.call("update_qrcode", { qrcodeId: codes.find((c, i) => linked[i] === articleId)!.id, articleId: null });
    const anonymous = await post({ intent: "create-code", articleId: String(articleId) }, null);
    expect(await anonymous.text()).not.toContain('"created":true');
    const after = (await s.read("/api/read/qrcodes")).body as unknown as { id: number }[];
    expect(after.length).toBe(codes.length);
    expect(((await other.read("/api/read/qrcodes")).body as unknown[]).length).toBe(0);
  });
});
