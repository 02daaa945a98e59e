import { describe, expect, it } from "vitest";
import { localeCookie } from "~/i18n/i18n.server";
import { get } from "./helpers";

// Decision 077: each page's HTML preloads its own language's strings file, and only that one; the titles
// (meta functions, fixedT on the server) still come in the page's language.
const EN = { "Accept-Language": "en-GB,en;q=0.9" };
const PRELOAD = /<link rel="preload" as="fetch" crossorigin="anonymous" href="(\/assets\/common-[\w-]+\.json)"\/>/g;

function preloads(html: string): string[] {
  return [...html.matchAll(PRELOAD)].map((m) => m[1]!);
}

describe("the interface strings a page asks for", () => {
  it("preload the page language's file alone, a different one per language", async () => {
    const fr = await (await get("/")).text();
    const en = await (await get("/", undefined, EN)).text();
    expect(preloads(fr)).toHaveLength(1);
    expect(preloads(en)).toHaveLength(1);
    expect(preloads(fr)[0]).not.toBe(preloads(en)[0]);
    expect(fr).toContain("<title>Muselingo — le guide multilingue des musées</title>");
    expect(en).toContain("<title>Muselingo — the multilingual museum guide</title>");
    // The cookie wins over the browser's languages, for the file as for the text.
    const cookie = (await localeCookie.serialize("en")).split(";")[0]!;
    const chosen = await (await get("/", cookie, { "Accept-Language": "fr-FR" })).text();
    expect(preloads(chosen)).toEqual(preloads(en));
  });

  it("are the same on the 404 page, whose title comes from fixedT on the server", async () => {
    const fr = await get("/no/such/page");
    const en = await get("/no/such/page", undefined, EN);
    expect(fr.status).toBe(404);
    const [frHtml, enHtml] = [await fr.text(), await en.text()];
    expect(frHtml).toContain("<title>Page introuvable — Muselingo</title>");
    expect(enHtml).toContain("<title>Page not found — Muselingo</title>");
    expect(preloads(frHtml)).toEqual(preloads(await (await get("/")).text()));
    expect(preloads(enHtml)).toEqual(preloads(await (await get("/", undefined, EN)).text()));
  });

  it("follow an unsupported or odd language to French", async () => {
    const fr = preloads(await (await get("/")).text());
    for (const headers of [{ "Accept-Language": "de-DE" }, { "Accept-Language": "xx-YY, zz;q=0.5" }, { "Accept-Language": ";;;q=\u00e9" }]) {
      expect(preloads(await (await get("/", undefined, headers)).text()), JSON.stringify(headers)).toEqual(fr);
    }
    expect(preloads(await (await get("/", "lng=xx")).text())).toEqual(fr);
  });
});
