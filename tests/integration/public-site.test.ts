import { describe, expect, it } from "vitest";
import { get, staffSession } from "./helpers";

const EN = { "Accept-Language": "en-GB,en;q=0.9" };

describe("blog", () => {
  it("lists the five posts newest first with day-month-year dates", async () => {
    const html = await (await get("/blog")).text();
    const dates = [...html.matchAll(/<time dateTime="[^"]+">([^<]+)<\/time>/g)].map((m) => m[1]);
    expect(dates).toEqual(["28-02-2025", "16-01-2025", "23-12-2024", "20-12-2024", "17-12-2024"]);
    expect(html).toContain('href="/blog/pourquoi-muselingo"');
    expect(html).not.toContain('href="/blog/mucem"');
  });

  it("renders a post from Markdown with its own title, description and social card", async () => {
    const response = await get("/blog/guarani");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>De l&#x27;espagnol au guarani");
    expect(html).toMatch(/<meta property="og:image" content="http:\/\/localhost\/blog\/guarani\.png"/);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain("<h2>Deux familles d&#39;outils</h2>");
  });

  it("follows the interface language and says 'Coming soon...' for the untranslated English posts", async () => {
    const en = await (await get("/blog/guarani", undefined, EN)).text();
    expect(en).toContain("<h2>Two families of tools</h2>");
    for (const path of ["/blog/why-muselingo", "/blog/pourquoi-muselingo", "/blog/installation", "/blog/mucem"]) {
      const html = await (await get(path, undefined, EN)).text();
      expect(html, path).toContain("Coming soon...");
    }
    const fr = await (await get("/blog/why-muselingo")).text();
    expect(fr).toContain("Pourquoi Muselingo");
    expect(await (await get("/blog/mucem")).text()).toContain("Étude de cas");
  });

  it("answers the 404 page for an unknown title, odd characters included", async () => {
    for (const path of ["/blog/nope", "/blog/GUARANI", "/blog/%F0%9F%87%AB%F0%9F%87%B7", "/blog/..%2F..%2Fetc", "/blog/guarani%00"]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("Il n&#x27;y a rien par ici...");
    }
  });
});

describe("feeds, sitemap and robots", () => {
  it("serve an RSS feed per language", async () => {
    for (const lang of ["fr", "en"]) {
      const response = await get(`/rss.${lang}.xml`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toContain("application/rss+xml");
      const xml = await response.text();
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      expect(xml).toContain(`<language>${lang}</language>`);
      // Every & starts an entity: the text is escaped.
      expect(xml).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
    }
    expect((await (await get("/rss.fr.xml")).text()).match(/<item>/g)).toHaveLength(5);
    expect((await (await get("/rss.en.xml")).text()).match(/<item>/g)).toHaveLength(3);
  });

  it("list the public pages in sitemap.xml and keep staff pages out in robots.txt", async () => {
    const map = await (await get("/sitemap.xml")).text();
    expect(map).toContain("<loc>http://localhost/blog/guarani</loc>");
    expect(map).not.toMatch(/dashboard|articles|qrcode|settings/);
    const robots = await get("/robots.txt");
    expect(robots.headers.get("Content-Type")).toContain("text/plain");
    const text = await robots.text();
    expect(text).toContain("Disallow: /dashboard");
    expect(text).toContain("Sitemap: http://localhost/sitemap.xml");
  });
});

describe("landing and contact", () => {
  it("show the demo-booking button only when logged out, and the dashboard link when logged in", async () => {
    const out = await (await get("/")).text();
    expect(out).toContain("Réserver une démo");
    expect(out).toContain('href="/r/essayez2"');
    expect(out).not.toContain("Ouvrir mon tableau de bord");
    const { cookie } = await staffSession();
    const inside = await (await get("/", cookie)).text();
    expect(inside).toContain("Ouvrir mon tableau de bord");
    expect(inside).not.toContain("Réserver une démo");
    const contact = await (await get("/contact", cookie)).text();
    expect(contact).not.toContain("Réserver une démo");
    expect(contact).toContain("mailto:contact@muselingo.com");
  });

  it("credit the current year in the footer", async () => {
    const html = await (await get("/contact")).text();
    expect(html).toContain(`Muselingo ${new Date().getUTCFullYear()} par`);
  });
});
