import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, publishArticle, staffSession, texts } from "./helpers";

// Audit of issue 22 §3 (audit22): the display choices page /display and its cookie `muselingo_display`, as a
// careless client or an attacker would send them. Junk is the defaults, `back` never leaves the visitor pages,
// nothing typed reaches the page or a header unescaped, 50 posts at once all answer alike.

const post = (back: string, body: string, type = "application/x-www-form-urlencoded") =>
  SELF.fetch(`${BASE}/display?back=${back}`, { method: "POST", headers: { "Content-Type": type, Host: "localhost" }, body, redirect: "manual" });

const htmlClass = (page: string) => /<html[^>]*class="([^"]*)"/.exec(page)?.[1] ?? "";

describe("attack: display choices", () => {
  it("cookie junk gives the defaults on /display and on a visitor page, never 500, never an unknown class", async () => {
    const s = await staffSession();
    const article = await publishArticle(s, texts(["Un vase"]));
    const junk = ["%", "t1.t2", "t3", "c.c", "t1..c", "t1.c.s.x", `t1.${"c".repeat(5000)}`, "<script>", '"t1"', "t1%00", "T1", "t1;c", "t1.c.s.t1", "\u202et1"];
    for (const value of junk) {
      for (const path of ["/display", `/r/${article.link}`]) {
        const r = await get(path, undefined, { Cookie: `muselingo_display=${encodeURIComponent(value).replace(/%25$/, "%")}` });
        expect([value.slice(0, 20), path, r.status]).toEqual([value.slice(0, 20), path, 200]);
        const page = await r.text();
        expect(
          htmlClass(page)
            .split(" ")
            .filter(Boolean)
            .every((c) => ["v-text-1", "v-text-2", "v-contrast", "v-spacing"].includes(c)),
        ).toBe(true);
        expect(page).not.toContain("<script>t1");
      }
    }
    // A quoted valid value (RFC 6265 allows quotes) is read.
    const quoted = await get(`/r/${article.link}`, undefined, { Cookie: 'muselingo_display="t2.c"' });
    expect(htmlClass(await quoted.text())).toContain("v-text-2");
  });

  it("back never leads off the visitor pages: other sites, dot segments, encoded tricks, header injection", async () => {
    const evil = [
      "//evil.example/r/x",
      "/\\evil.example",
      "https://evil.example/r/x",
      "/r/../dashboard",
      "/r/%2e%2e/dashboard",
      "/r/%2E%2E%2Fdashboard",
      "/r/x%0d%0aSet-Cookie:%20admin=1",
      "/r/x\r\nSet-Cookie: admin=1",
      "/t/%2f%2fevil.example",
      "javascript:alert(1)",
      "/dashboard",
      "/r",
      "",
      "/r/" + "x".repeat(3000),
    ];
    for (const back of evil) {
      const r = await post(encodeURIComponent(back), "text=1");
      expect([back.slice(0, 40), r.status]).toEqual([back.slice(0, 40), 303]);
      const location = r.headers.get("Location") ?? "";
      expect([back.slice(0, 40), location === "/" || /^\/[rvt]\/[^/]/.test(location)]).toEqual([back.slice(0, 40), true]);
      expect(location).not.toContain("evil");
      // Resolved as a browser would: still a visitor page (an encoded "/" is no separator) or the home page.
      const landed = new URL(location, "https://museum.example").pathname;
      expect([back.slice(0, 40), landed === "/" || /^\/[rvt]\/[^/]/.test(landed)]).toEqual([back.slice(0, 40), true]);
      expect(r.headers.getSetCookie().some((c) => c.startsWith("admin"))).toBe(false);
      const page = await get(`/display?back=${encodeURIComponent(back)}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).not.toContain('href="//evil');
      expect(html).not.toContain('href="javascript:');
    }
    const kept = await post(encodeURIComponent("/t/abcdefgh/2?lang=ar"), "text=2&contrast=1");
    expect(kept.headers.get("Location")).toBe("/t/abcdefgh/2?lang=ar");
    expect(kept.headers.getSetCookie()[0]).toMatch(/^muselingo_display=t2\.c; Max-Age=31536000; Path=\/; SameSite=Lax; HttpOnly/);
  });

  it("form junk is the defaults; a wrong type, a huge body or another method are refused, not 500", async () => {
    const junk = await post("%2Fr%2Fx", "text=3&contrast=yes&spacing[]=1&text=1");
    expect(junk.status).toBe(303);
    expect(junk.headers.getSetCookie()[0]).toMatch(/^muselingo_display=; Max-Age=0/);
    expect((await post("%2Fr%2Fx", '{"text":"1"}', "application/json")).status).toBe(415);
    expect((await post("%2Fr%2Fx", `text=1&pad=${"x".repeat(5000)}`)).status).toBe(413);
    expect((await post("%2Fr%2Fx", "%%%=%")).status).toBeLessThan(500);
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      expect((await SELF.fetch(`${BASE}/display`, { method, redirect: "manual" })).status).toBe(405);
    }
  });

  it("50 identical posts at once all answer 303 with the same cookie", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => post("%2Fr%2Fabc", "text=1&spacing=1")));
    expect(answers.map((r) => r.status)).toEqual(Array<number>(50).fill(303));
    expect(new Set(answers.map((r) => r.headers.getSetCookie()[0]))).toEqual(new Set([answers[0]!.headers.getSetCookie()[0]]));
  });

  it("the page follows the visitor's language from back, right to left in Arabic, and ignores a junk one", async () => {
    const ar = await (await get(`/display?back=${encodeURIComponent("/r/x?lang=ar")}`)).text();
    expect(ar).toMatch(/<html[^>]*lang="ar"[^>]*dir="rtl"/);
    const junk = await get(`/display?back=${encodeURIComponent('/r/x?lang="><script>alert(1)</script>')}`, undefined, { "Accept-Language": "en" });
    expect(junk.status).toBe(200);
    expect(await junk.text()).not.toContain("<script>alert(1)");
  });
});
