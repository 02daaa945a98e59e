import { describe, expect, it } from "vitest";
import { get, staffSession } from "./helpers";

// The staff pages over the QR code API: what the owner sees, and what another museum never does.
type Code = { id: number; link: string };

async function museumWithCode() {
  const staff = await staffSession();
  const added = await staff.call("add_qrcode", {});
  expect(added.status).toBe(200);
  return { ...staff, code: added.body as unknown as Code };
}

async function page(path: string, cookie: string) {
  const response = await get(path, cookie);
  return { status: response.status, html: await response.text() };
}

describe("/qrcodes", () => {
  it("lists the museum's codes with a line per code leading to its page", async () => {
    const { cookie, code, call } = await museumWithCode();
    const article = (await call("add_article", { pathArray: [] })).body as { id: number };
    await call("rename_article", { articleId: article.id, newName: "Amphore romaine" });
    await call("update_qrcode", { qrcodeId: code.id, articleId: article.id });

    const { status, html } = await page("/qrcodes", cookie);
    expect(status).toBe(200);
    expect(html).toContain(`Code QR ${code.link}`);
    expect(html).toContain(`href="/qrcode?id=${code.id}"`);
    expect(html).toContain("Amphore romaine");
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"');
  });

  it("shows an empty state, and sends a visitor without a session to the login", async () => {
    const { cookie } = await staffSession();
    const { status, html } = await page("/qrcodes", cookie);
    expect(status).toBe(200);
    expect(html).toContain("Aucun code QR pour l&#x27;instant");

    const anonymous = await get("/qrcodes");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login?redirectTo=%2Fqrcodes");
  });
});

describe("/qrcode?id=", () => {
  it("renders the owner's code: title, inactive state and public address", async () => {
    const { cookie, code } = await museumWithCode();
    const { status, html } = await page(`/qrcode?id=${code.id}`, cookie);
    expect(status).toBe(200);
    expect(html).toContain(`Code QR ${code.link}`);
    expect(html).toContain("Code QR inactif. Aucun article associé.");
    expect(html).toContain(`http://localhost/r/${code.link}`);
    expect(html).toContain(`/api/read/qrcode_image?qrcodeId=${code.id}&amp;format=png`);
  });

  it("says which article a linked code leads to, in English too", async () => {
    const { cookie, code, call } = await museumWithCode();
    const article = (await call("add_article", { pathArray: [] })).body as { id: number };
    await call("rename_article", { articleId: article.id, newName: "Stèle funéraire" });
    await call("update_qrcode", { qrcodeId: code.id, articleId: article.id });
    const response = await get(`/qrcode?id=${code.id}`, cookie, { "Accept-Language": "en" });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain(`QRCode ${code.link}`);
    expect(html).toContain("This QR code leads visitors to the article “Stèle funéraire”");
  });

  it("answers the not-found page (404) for another museum's code", async () => {
    const owner = await museumWithCode();
    const stranger = await staffSession();
    const { status, html } = await page(`/qrcode?id=${owner.code.id}`, stranger.cookie);
    expect(status).toBe(404);
    expect(html).toContain("Il n&#x27;y a rien par ici...");
    expect(html).not.toContain(owner.code.link);
  });

  it.each(["abc", "", "-1", "1.5", "0", "1e3", "99999999999999999999", "%00"])("answers 404, not 500, for id=%s", async (id) => {
    const { cookie } = await museumWithCode();
    const { status, html } = await page(`/qrcode?id=${id}`, cookie);
    expect(status).toBe(404);
    expect(html).toContain("Il n&#x27;y a rien par ici...");
  });

  it("answers 404 without any id", async () => {
    const { cookie } = await museumWithCode();
    expect((await get("/qrcode", cookie)).status).toBe(404);
  });
});

describe("/qrcodes/print", () => {
  it("prints only the museum's own codes among the ids asked for, and all of them when none is", async () => {
    const mine = await museumWithCode();
    const second = (await mine.call("add_qrcode", {})).body as unknown as Code;
    const third = (await mine.call("add_qrcode", {})).body as unknown as Code;
    const other = await museumWithCode();

    const chosen = await page(`/qrcodes/print?ids=${mine.code.id},${other.code.id},${third.id},nope,999999999`, mine.cookie);
    expect(chosen.status).toBe(200);
    expect(chosen.html).toContain(`localhost/r/${mine.code.link}`);
    expect(chosen.html).toContain(`localhost/r/${third.link}`);
    expect(chosen.html).not.toContain(second.link);
    expect(chosen.html).not.toContain(other.code.link);

    // The form sent without JavaScript repeats the parameter.
    const repeated = await page(`/qrcodes/print?ids=${second.id}&ids=${other.code.id}`, mine.cookie);
    expect(repeated.html).toContain(second.link);
    expect(repeated.html).not.toContain(mine.code.link);
    expect(repeated.html).not.toContain(other.code.link);

    const all = await page("/qrcodes/print", mine.cookie);
    for (const code of [mine.code, second, third]) expect(all.html).toContain(`localhost/r/${code.link}`);
    expect(all.html).not.toContain(other.code.link);

    const strangers = await page(`/qrcodes/print?ids=${other.code.id}`, mine.cookie);
    expect(strangers.status).toBe(200);
    expect(strangers.html).not.toContain(other.code.link);
    expect(strangers.html).toContain("Aucun code QR à imprimer.");
  });
});
