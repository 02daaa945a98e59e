import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, get, publishArticle, staffSession } from "./helpers";

type Session = Awaited<ReturnType<typeof staffSession>>;

/** An article with these elements after its metadatas, linked to a new QR code. */
const publish = (s: Session, elements: unknown[]) => publishArticle(s, elements);

const ELEMENTS = [
  { type: "text", content: "La Joconde, peinte vers 1503.\nHuile sur bois.\n\nUn second paragraphe." },
  { type: "image", src: "", alt: "Le tableau de face" },
  { type: "link", link: "https://example.org", content: "Le site du musée" },
  { type: "legendItem", src: "", alt: "Détail", content: "Le sourire" },
  { type: "accordion", header: { content: "En savoir plus" }, details: [{ type: "text", content: "Un détail caché." }] },
];
const SEGMENTS = [
  "La Joconde, peinte vers 1503.",
  "Huile sur bois.",
  "Un second paragraphe.",
  "Le tableau de face",
  "Le site du musée",
  "Le sourire",
  "Détail",
  "En savoir plus",
  "Un détail caché.",
];

async function memoryRows(museumId: number, lang: string) {
  const rows = await env.DB.prepare(
    "SELECT source_text, text, origin, engine FROM translation_memory JOIN translation_segments USING (museum_id, source_lang, source_hash) WHERE museum_id = ? AND source_lang = 'fr' AND target_lang = ?",
  )
    .bind(museumId, lang)
    .all<{ source_text: string; text: string; origin: string; engine: string }>();
  return rows.results;
}

describe("visitor page /r/{link}", () => {
  it("translates into the browser's language with the pseudo engine, stores memory and the rendered page", async () => {
    const s = await staffSession();
    const { link, articleId } = await publish(s, ELEMENTS);
    const response = await get(`/r/${link}`, undefined, { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("text/html");
    const html = await response.text();
    expect(html).toMatch(/<html lang="de" dir="ltr">/);
    expect(html).toContain("[de] Lá Jóçóñdé");
    // The first line is the page's heading; line and paragraph breaks survive: each line was its own segment.
    expect(html).toMatch(/<h1 class="ml-title">\[de\] Lá Jóçóñdé, péíñté vérs 1503\.<\/h1><p>\[de\] Húílé súr bóís\.<\/p><p>\[de\] Úñ séçóñd/);
    expect(html).toContain('<details class="ml-accordion"><summary');
    expect(html).toContain('href="https://example.org/"');
    expect(html).not.toContain("<script src");
    // The pseudo engine says what it is, in the page's language.
    expect(html).toContain("[de] Pséúdó-tráñslátíóñ");
    expect(html).toContain(`href="/r/${link}?lang=de&amp;original=1"`);

    const rows = await memoryRows(s.user.museumId, "de");
    expect(rows.map((r) => r.source_text).sort()).toEqual([...SEGMENTS].sort());
    expect(rows.every((r) => r.origin === "machine" && r.engine === "pseudo")).toBe(true);
    const cached = await env.KV.list({ prefix: `tr:v1:${articleId}:de:` });
    expect(cached.keys).toHaveLength(1);
  });

  it("follows ?lang=, remembers it in a cookie, lays Arabic out right to left", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    const chosen = await get(`/r/${link}?lang=ar`, undefined, { "Accept-Language": "de" });
    expect(chosen.status).toBe(200);
    const html = await chosen.text();
    expect(html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(html).toContain("text-align:start");
    const cookie = /muselingo_lang=ar/.exec(chosen.headers.get("Set-Cookie") ?? "");
    expect(cookie).not.toBeNull();
    expect(chosen.headers.get("Set-Cookie")).toMatch(/Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/);

    const again = await get(`/r/${link}`, undefined, { Cookie: "muselingo_lang=ar", "Accept-Language": "de" });
    expect(await again.text()).toMatch(/<html lang="ar" dir="rtl">/);
  });

  it("matches Accept-Language to the catalogue and falls back to the museum's language", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    expect(await (await get(`/r/${link}`, undefined, { "Accept-Language": "pt-BR,pt;q=0.9" })).text()).toMatch(/<html lang="pt"/);
    expect(await (await get(`/r/${link}`, undefined, { "Accept-Language": "zz, *;q=0.5" })).text()).toMatch(/<html lang="fr"/);
    const original = await (await get(`/r/${link}`)).text();
    expect(original).toMatch(/<html lang="fr"/);
    expect(original).toContain("La Joconde, peinte vers 1503.");
    expect(original).toContain("Texte original");
    expect(original).not.toContain("original=1");
    // Junk in ?lang= is ignored, never an error.
    for (const lang of ["<script>", "x".repeat(5000), "de\u0000", "%FF", "ar-Latn-XX-u-nu-arab"]) {
      const r = await get(`/r/${link}?lang=${encodeURIComponent(lang)}`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
  });

  it("shows the original on request, with the way back to the translation", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    const html = await (await get(`/r/${link}?lang=de&original=1`)).text();
    expect(html).toMatch(/<html lang="fr"/);
    expect(html).toContain("La Joconde, peinte vers 1503.");
    expect(html).toContain(`href="/r/${link}?lang=de"`);
  });

  it("a code without a live article gives a friendly page (200); an unknown link the 404 page", async () => {
    const s = await staffSession();
    const code = await s.call("add_qrcode", {});
    const inactive = await get(`/r/${code.body.link}`, undefined, { "Accept-Language": "en" });
    expect(inactive.status).toBe(200);
    expect(await inactive.text()).toContain("This code does not lead to an article yet");

    const { link, articleId } = await publish(s, ELEMENTS);
    expect((await s.call("delete_item", { type: "article", id: articleId, pathArray: [] })).status).toBe(200);
    const trashed = await get(`/r/${link}`, undefined, { "Accept-Language": "fr" });
    expect(trashed.status).toBe(200);
    expect(await trashed.text()).toContain("Ce code ne mène encore à aucun article");

    for (const path of ["/r/zzzzzzzz", "/r/abc", "/r/%E2%80%AEevil", `/r/${"a".repeat(500)}`, "/r/ABCDEFGH"]) {
      const r = await get(path, undefined, { "Accept-Language": "en" });
      expect(r.status).toBe(404);
      expect(await r.text()).toContain("This page does not exist");
    }
  });

  it("answers 405 to writes and HEAD like GET", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    const post = await SELF.fetch(`${BASE}/r/${link}`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toContain("GET");
    const head = await SELF.fetch(`${BASE}/r/${link}`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });

  it("50 simultaneous first views in one language all succeed and store each segment once", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    const responses = await Promise.all(Array.from({ length: 50 }, () => get(`/r/${link}?lang=es`)));
    const pages = await Promise.all(responses.map((r) => r.text()));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    // Every visitor got the translation (waiting on the first one's claim), none the original.
    expect(pages.every((p) => p.includes("[es] Lá Jóçóñdé"))).toBe(true);
    expect(await memoryRows(s.user.museumId, "es")).toHaveLength(SEGMENTS.length);
  }, 120_000);
});

describe("visitor page /v/{museum}/{slug} and the language picker", () => {
  it("serves the public page by slug; unknown museum or slug, or a trashed article, is 404", async () => {
    const s = await staffSession();
    const { slug, articleId } = await publish(s, ELEMENTS);
    const page = await get(`/v/${s.user.museumSlug}/${slug}?ignoreStats=true&lang=it`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("[it] Lá Jóçóñdé");
    // Staff previews keep ignoreStats on their links.
    expect(html).toContain("ignoreStats=true");
    expect((await get(`/v/${s.user.museumSlug}/nope`)).status).toBe(404);
    expect((await get(`/v/nope/${slug}`)).status).toBe(404);
    const other = await staffSession();
    expect((await get(`/v/${other.user.museumSlug}/${slug}`)).status).toBe(404);
    await s.call("delete_item", { type: "article", id: articleId, pathArray: [] });
    expect((await get(`/v/${s.user.museumSlug}/${slug}`)).status).toBe(404);
  });

  it("lists every catalogue language by its own name, likely ones first, and searches without JavaScript", async () => {
    const s = await staffSession();
    const { link } = await publish(s, ELEMENTS);
    const page = await get(`/r/${link}/languages?lang=de`, undefined, { "Accept-Language": "ja, ar;q=0.8" });
    expect(page.status).toBe(200);
    const html = await page.text();
    const links = [...html.matchAll(/href="\/r\/[a-z0-9]+\?lang=([A-Za-z-]+)"/g)].map((m) => m[1]);
    expect(new Set(links).size).toBeGreaterThanOrEqual(100);
    // The first link goes back to the article; then the suggestions.
    expect(links.slice(1, 5)).toEqual(["de", "ja", "ar", "fr"]);
    expect(html).toContain('lang="ar" dir="rtl">العربية</span>');

    const search = await (await get(`/r/${link}/languages?lang=fr&q=${encodeURIComponent("Allemand")}`)).text();
    expect(search).toContain(">Deutsch<");
    expect(search).not.toContain(">Español<");
    expect(search).toContain("<h2>Langues correspondant à votre recherche</h2>");
    expect(search).not.toContain("Langues suggérées");
    const none = await (await get(`/r/${link}/languages?lang=fr&q=${encodeURIComponent("\u202e☃︎𝔵")}`)).text();
    expect(none).toMatch(/id="v-none" class="v-none" role="status">/);
    expect((await get(`/r/zzzzzzzz/languages`)).status).toBe(404);
  });
});

describe("GET /api/languages", () => {
  it("is the public catalogue: at least 100 languages with names, direction and engines", async () => {
    const response = await get("/api/languages");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { languages: { code: string; endonym: string; fr: string; en: string; dir: string; engines: string[] }[] };
    expect(body.languages.length).toBeGreaterThanOrEqual(100);
    const ar = body.languages.find((l) => l.code === "ar");
    expect(ar).toMatchObject({ endonym: "العربية", fr: "Arabe", en: "Arabic", dir: "rtl" });
    expect(ar!.engines).toContain("workers-ai");
    expect(body.languages.find((l) => l.code === "gn")!.engines).not.toContain("workers-ai");
  });
});

describe("GET /vtt: translated subtitles", () => {
  it("translates the cues of a museum's subtitle file; 404 for anything else", async () => {
    const s = await staffSession();
    const { articleId } = await publish(s, []);
    const form = new FormData();
    form.append("videoId", "abc123");
    form.append("articleId", String(articleId));
    const vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nVoici l'amphore.\n\n00:00:04.000 --> 00:00:06.000\nElle vient d'Athènes.\n";
    form.append("subtitles", new File([vtt], "fr.vtt", { type: "text/vtt" }));
    const uploaded = await SELF.fetch(`${BASE}/api/upload/subtitles`, { method: "POST", body: form, headers: { Cookie: s.cookie } });
    expect(uploaded.status).toBe(200);
    const { mediaUrl } = (await uploaded.json()) as { mediaUrl: string };

    const translated = await get(`/vtt?src=${encodeURIComponent(mediaUrl)}&lang=de`);
    expect(translated.status).toBe(200);
    expect(translated.headers.get("Content-Type")).toBe("text/vtt; charset=utf-8");
    const body = await translated.text();
    expect(body).toContain("00:00:01.000 --> 00:00:03.000\n[de] Vóíçí l'ámphóré.");
    expect(body).toContain("[de] Éllé víéñt d'Áthèñés.");
    expect(await get(`/vtt?src=${encodeURIComponent(mediaUrl)}&lang=fr`).then((r) => r.text())).toBe(vtt);

    for (const query of [
      `src=${encodeURIComponent(mediaUrl)}&lang=xx-nope`,
      "src=/media/m/1/subtitles/nope.vtt&lang=de",
      "src=https://evil.example/a.vtt&lang=de",
      "lang=de",
      "",
    ]) {
      expect((await get(`/vtt?${query}`)).status).toBe(404);
    }
  });
});

describe("the visitor 404 page", () => {
  it("follows the visitor's language like every visitor page; French without a header, English for a foreign one", async () => {
    const text = async (accept?: string) => (await get("/r/zzzzzzzz", undefined, accept ? { "Accept-Language": accept } : {})).text();
    expect(await text("fr-CA")).toContain("Cette page n’existe pas");
    expect(await text("en-GB,de;q=0.5")).toContain("This page does not exist");
    expect(await text("tlh")).toContain("This page does not exist");
    expect(await text()).toContain("Cette page n’existe pas");
    const german = await text("de-DE,de;q=0.9");
    expect(german).toMatch(/<html lang="de" dir="ltr">/);
    expect(german).toContain("[de] Thís págé dóés ñót éxíst");
  });
});
