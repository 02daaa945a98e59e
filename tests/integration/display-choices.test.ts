import { describe, expect, it } from "vitest";
import { BASE, get, publishArticle, staffSession, texts } from "./helpers";
import { SELF } from "cloudflare:test";

// Issue 22 §3, decision 097: display choices in a cookie, applied as classes on <html>, never in a cached rendering.

const htmlClass = (html: string) => / class="([^"]*)"/.exec(/<html[^>]*>/.exec(html)?.[0] ?? "")?.[1] ?? "";

describe("display choices", () => {
  it("applies the cookie's choices as classes on the page, ignores junk, and never bakes them into the cached content", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, texts(["Une amphore attique."]));
    const view = async (cookie?: string, lang = "de") => (await get(`/r/${link}?lang=${lang}`, undefined, cookie ? { Cookie: cookie } : {})).text();
    expect(htmlClass(await view())).toBe("");
    expect(htmlClass(await view("muselingo_display=t2.c.s"))).toBe("v-text-2 v-contrast v-spacing");
    expect(htmlClass(await view("muselingo_display=t1"))).toBe("v-text-1");
    // The same cached German rendering served right after, without choices: no class leaked into it.
    const plain = await view();
    expect(htmlClass(plain)).toBe("");
    for (const junk of ["t3", "t1.t2", "c.c", "x", "%", "t1.c.s.extra", "a".repeat(5000), "t2%2Ec", "\u00e9"]) {
      const response = await get(`/r/${link}`, undefined, { Cookie: `muselingo_display=${junk}` });
      expect([junk.slice(0, 20), response.status]).toEqual([junk.slice(0, 20), 200]);
      const cls = htmlClass(await response.text());
      expect(cls === "" || junk === "t2%2Ec").toBe(true);
    }
    // Right-to-left pages get them too.
    const ar = await view("muselingo_display=t2.s", "ar");
    expect(ar).toMatch(/<html lang="ar" dir="rtl" class="v-text-2 v-spacing">/);
    // The article links to the settings page, coming back to it.
    expect(ar).toContain(`href="/display?back=%2Fr%2F${link}%3Flang%3Dar"`);
  });

  it("the settings page: a form without script in the visitor's language; posting keeps the choices and goes back", async () => {
    const s = await staffSession();
    const { link } = await publishArticle(s, texts(["Une amphore attique."]));
    const back = `/r/${link}?lang=ar`;
    const form = await get(`/display?back=${encodeURIComponent(back)}`, undefined, { Cookie: "muselingo_display=t1.c" });
    const html = await form.text();
    expect(form.status).toBe(200);
    expect(html).toMatch(/<html lang="(ar|en)" dir="(rtl|ltr)" class="v-text-1 v-contrast">/);
    expect(html).toContain('name="text" checked="" value="1"');
    expect(html).toContain('name="contrast" checked="" value="1"');
    expect(html).not.toContain('name="spacing" checked=""');
    expect(html).not.toContain("<script");
    const fr = await (await get(`/display?back=${encodeURIComponent(`/r/${link}?lang=fr`)}`)).text();
    expect(fr).toContain("Choix d’affichage");
    expect(fr).toContain("Très grande");

    const post = (body: string, backTo = back) =>
      SELF.fetch(`${BASE}/display?back=${encodeURIComponent(backTo)}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
      });
    const saved = await post("text=2&contrast=1&spacing=1");
    expect(saved.status).toBe(303);
    expect(saved.headers.get("Location")).toBe(back);
    expect(saved.headers.get("Set-Cookie")).toMatch(/^muselingo_display=t2\.c\.s; Max-Age=31536000; Path=\/; SameSite=Lax; HttpOnly/);
    const cleared = await post("text=0");
    expect(cleared.headers.get("Set-Cookie")).toMatch(/^muselingo_display=; Max-Age=0;/);
    // Junk values read as the defaults; never another site as the way back.
    expect((await post("text=9&contrast=yes")).headers.get("Set-Cookie")).toMatch(/^muselingo_display=; Max-Age=0;/);
    for (const evil of ["//evil.example/r/x", "https://evil.example/", "/\\evil.example", "/r/../../x", "javascript:alert(1)", "/dashboard", "/r/x y"]) {
      const location = (await post("text=1", evil)).headers.get("Location");
      expect([evil, location === "/" || location === "/r/x"].join()).toBe([evil, true].join());
    }
    expect((await post("text=1", "/r/../../x")).headers.get("Location")).toBe("/");
    expect((await SELF.fetch(`${BASE}/display`, { method: "PUT" })).status).toBe(405);
    expect((await SELF.fetch(`${BASE}/display`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(415);
  });
});
