import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { parseStoredContent } from "~/content/schema";
import { renderedTranslationKey } from "~/translation/translate.server";
import { visitorPage } from "~/visitor/page.server";
import { atLink } from "~/visitor/place.server";
import { RequestTiming } from "~/visitor-cache/timing";
import { get, publishArticle, staffSession } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;

const publish = (s: Session, elements: unknown[]) => publishArticle(s, elements);

const TEXT = { type: "text", content: "La Victoire de Samothrace\nMarbre de Paros, vers 190 av. J.-C.\n\nDécouverte en 1863." };
const headings = (html: string) => [...html.matchAll(/<h1[^>]*>([^<]*)<\/h1>/g)].map((m) => m[1]);

describe("the unknown-code page follows the visitor's language", () => {
  it("in German and in Arabic (right to left), with a language button to a picker", async () => {
    for (const [accept, lang, dir, words] of [
      ["de-DE,de;q=0.9", "de", "ltr", "[de] Thís págé dóés ñót éxíst"],
      ["ar", "ar", "rtl", "[ar] Thís págé dóés ñót éxíst"],
    ] as const) {
      for (const path of ["/r/doesnotexist", "/v/no-museum/no-article", "/r/doesnotexist/report"]) {
        const response = await get(path, undefined, { "Accept-Language": accept });
        expect(response.status, path).toBe(404);
        const html = await response.text();
        expect(html).toContain(`<html lang="${lang}" dir="${dir}">`);
        expect(headings(html)).toEqual([words]);
        const base = path.replace(/\/report$/, "");
        expect(html).toContain(`href="${base}/languages?lang=${lang}"`);
      }
    }
  });

  it("its picker lists every language (still 404) and each choice comes back to the page, remembered", async () => {
    const picker = await get("/r/doesnotexist/languages?lang=ar");
    expect(picker.status).toBe(404);
    const html = await picker.text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('href="/r/doesnotexist?lang=ja"');
    const chosen = await get("/r/doesnotexist?lang=ja");
    expect(chosen.status).toBe(404);
    expect(chosen.headers.get("Set-Cookie")).toContain("muselingo_lang=ja");
    expect(await chosen.text()).toContain('<html lang="ja" dir="ltr">');
    expect(await (await get("/r/doesnotexist", undefined, { Cookie: "muselingo_lang=ja", "Accept-Language": "de" })).text()).toContain('<html lang="ja"');
  });

  it("the inactive-code page keeps the same rules (language, direction, button)", async () => {
    const s = await staffSession();
    const code = await s.call("add_qrcode", {});
    const html = await (await get(`/r/${code.body.link as string}`, undefined, { "Accept-Language": "ar" })).text();
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain(`href="/r/${code.body.link as string}/languages?lang=ar"`);
  });
});

describe("the article's heading", () => {
  it("is the first line of the article's first text, as its only <h1>, in the reading language", async () => {
    const s = await staffSession();
    const { link } = await publish(s, [{ type: "image", src: "", alt: "Face" }, TEXT, { type: "text", content: "Deuxième texte." }]);
    const original = await (await get(`/r/${link}`)).text();
    expect(headings(original)).toEqual(["La Victoire de Samothrace"]);
    expect(original).toContain('<h1 class="ml-title">La Victoire de Samothrace</h1><p>Marbre de Paros, vers 190 av. J.-C.</p><p>Découverte en 1863.</p>');
    expect(original).toContain("<title>La Victoire de Samothrace – Museum ");
    const german = await (await get(`/r/${link}?lang=de`)).text();
    expect(headings(german)).toEqual(["[de] Lá Víçtóíré dé Sámóthráçé"]);
    // From the cache too.
    expect(headings(await (await get(`/r/${link}?lang=de`)).text())).toEqual(["[de] Lá Víçtóíré dé Sámóthráçé"]);
  });

  it("an article without text has a visually hidden heading: the museum's name", async () => {
    const s = await staffSession();
    const { link } = await publish(s, [{ type: "image", src: "", alt: "Face" }]);
    const html = await (await get(`/r/${link}`)).text();
    expect(html).toContain(`<h1 class="ml-visually-hidden">Museum ${s.user.museumSlug}</h1>`);
    expect(headings(html)).toHaveLength(1);
  });

  it("a rendering cached before headings existed is made again from the cached content", async () => {
    const s = await staffSession();
    const { link, articleId } = await publish(s, [TEXT]);
    await get(`/r/${link}?lang=it`).then((r) => r.text());
    const row = await env.DB.prepare("SELECT content FROM articles WHERE id = ?").bind(articleId).first<{ content: string }>();
    // The museum has no glossary: the key carries no glossary tag.
    const key = await renderedTranslationKey(articleId, "it", parseStoredContent(row!.content, "x"));
    const cached = await env.KV.get<{ html: string }>(key, "json");
    expect(cached?.html).toContain('class="ml-title"');
    await env.KV.put(key, JSON.stringify({ ...cached, html: "<p>rendered before headings</p>" }));
    const html = await (await get(`/r/${link}?lang=it`)).text();
    expect(html).not.toContain("rendered before headings");
    expect(headings(html)).toEqual(["[it] Lá Víçtóíré dé Sámóthráçé"]);
  });
});

describe("French typography and the inline stylesheet", () => {
  it("sets a no-break space before the colon in French only", async () => {
    const s = await staffSession();
    const { link } = await publish(s, [TEXT]);
    const french = await (await get(`/r/${link}`, undefined, { "Accept-Language": "fr" })).text();
    expect(french).toContain('Langue\u00a0: <span lang="fr">Français</span>');
    expect(french).not.toMatch(/Langue ?:/);
    const english = await (await get(`/r/${link}?lang=en`)).text();
    expect(english).toContain('Language: <span lang="en">English</span>');
    const form = await (await get(`/r/${link}/report?lang=en`, undefined, { Cookie: "muselingo_lang=fr" })).text();
    expect(form).toContain("What is wrong with this translation?");
    const germanForm = await (await get(`/r/${link}/report?lang=de`)).text();
    expect(germanForm).toContain("[de] Whát ís wróñg wíth thís tráñslátíóñ?");
  });

  it("the page carries its stylesheet inline and minified by the build", async () => {
    const s = await staffSession();
    const { link } = await publish(s, [TEXT]);
    const html = await (await get(`/r/${link}`)).text();
    const style = /<style>([^<]*)<\/style>/.exec(html)?.[1] ?? "";
    expect(style).toContain(".v-main{");
    expect(style).toContain(".ml-title{");
    expect(style).toContain(".ml-surface{");
    expect(style).not.toMatch(/\/\*|\n/);
    // Raw size of one stylesheet shared by every visitor page (articles, tours, keypad, display choices, the
    // player): ~2.3 KB gzip of the page's 14 KB gzip budget, which tests/bench/visitor.mjs holds.
    expect(style.length).toBeLessThan(9000);
  });

  it("rendered in-process (vitest-pool-workers), the page has its stylesheet too", async () => {
    const ctx = { waitUntil: () => undefined, passThroughOnException: () => undefined };
    const context = {
      db: createDb(env.DB),
      kv: env.KV,
      timing: new RequestTiming(),
      scans: env.SCANS,
      cloudflare: { env, ctx },
      config: { SESSION_SECRET: "x" },
    } as unknown as Parameters<typeof visitorPage>[1];
    const response = await visitorPage(new Request("http://localhost/r/doesnotexist"), context, await atLink(context, { link: "doesnotexist" }));
    expect(response.status).toBe(404);
    expect(/<style>([^<]*)<\/style>/.exec(await response.text())?.[1]).toContain(".v-main");
  });
});
