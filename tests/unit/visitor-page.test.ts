import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArticleContentView } from "~/content/render";
import type { ArticleContent } from "~/content/schema";
import { clientNetwork } from "~/lib/network";
import { chooseLanguage, chooseLanguageWithoutMuseum, cookieValue, likelyLanguages } from "~/visitor/language.server";
import { searchKey } from "~/visitor/pages/languages";
import { VISITOR_SCRIPT } from "~/visitor/script";
import { writtenStrings } from "~/visitor/strings.server";
import { frenchSpacing, withColon } from "~/visitor/typography";

const request = (url: string, headers: Record<string, string> = {}) => new Request(`https://musee.example${url}`, { headers });

describe("visitor page pieces", () => {
  it("ships at most 4 KB of inline script", () => {
    expect(new TextEncoder().encode(VISITOR_SCRIPT).length).toBeLessThanOrEqual(4096);
  });

  it("searches names without case or accents", () => {
    expect(searchKey("  Français ")).toBe("francais");
    expect(searchKey("Ελληνικά")).toBe("ελληνικα");
  });

  it("chooses ?lang, then the cookie, then Accept-Language, then the source", () => {
    const chosen = chooseLanguage(request("/r/x?lang=pt-BR", { Cookie: "muselingo_lang=de", "Accept-Language": "ja" }), "fr");
    expect(chosen).toMatchObject({ lang: "pt", chosen: true });
    expect(chosen.setCookie).toBe("muselingo_lang=pt; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure");
    expect(chooseLanguage(request("/r/x?lang=klingon", { Cookie: "a=b; muselingo_lang=de", "Accept-Language": "ja" }), "fr")).toEqual({
      lang: "de",
      chosen: false,
    });
    expect(chooseLanguage(request("/r/x", { Cookie: "muselingo_lang=%3Cscript%3E", "Accept-Language": "zh-TW,zh;q=0.8" }), "fr")).toEqual({
      lang: "zh-Hant",
      chosen: false,
    });
    expect(chooseLanguage(request("/r/x", { "Accept-Language": "tlh, *" }), "fr")).toEqual({ lang: "fr", chosen: false });
    expect(chooseLanguage(request("/r/x?lang="), "it")).toEqual({ lang: "it", chosen: false });
  });

  it("suggests the current, browser, remembered and source languages, each once", () => {
    expect(likelyLanguages(request("/r/x", { "Accept-Language": "de-CH, de;q=0.9, en;q=0.5", Cookie: "muselingo_lang=ar" }), "de", "fr")).toEqual([
      "de",
      "en",
      "ar",
      "fr",
    ]);
  });

  it("ignores a language cookie whose escapes are broken, instead of throwing", () => {
    for (const value of ["%", "%E0%A4%A", "%%", "ar%2", "%FF", "%C0%AF"]) {
      const r = request("/r/x", { Cookie: `muselingo_lang=${value}`, "Accept-Language": "de" });
      expect(cookieValue(r, "muselingo_lang")).toBeUndefined();
      expect(chooseLanguage(r, "fr")).toEqual({ lang: "de", chosen: false });
      expect(likelyLanguages(r, "de", "fr")).toEqual(["de", "fr"]);
    }
    expect(cookieValue(request("/", { Cookie: 'a=%; muselingo_lang="ar"' }), "muselingo_lang")).toBe("ar");
    expect(cookieValue(request("/", { Cookie: "muselingo_lang=%61%72" }), "muselingo_lang")).toBe("ar");
    expect(cookieValue(request("/", { Cookie: "xmuselingo_lang=ar; muselingo_lang" }), "muselingo_lang")).toBeUndefined();
  });

  it("chooses a page without a museum by the same rules: French for no header, English for a foreign one", () => {
    expect(chooseLanguageWithoutMuseum(request("/r/x", { "Accept-Language": "ar" })).lang).toBe("ar");
    expect(chooseLanguageWithoutMuseum(request("/r/x", { "Accept-Language": "tlh" })).lang).toBe("en");
    expect(chooseLanguageWithoutMuseum(request("/r/x")).lang).toBe("fr");
    expect(chooseLanguageWithoutMuseum(request("/r/x?lang=de", { Cookie: "muselingo_lang=ar" }))).toMatchObject({ lang: "de", chosen: true });
  });

  it("sets French high punctuation after a no-break space, and nothing else", () => {
    expect(frenchSpacing("Langue: Français")).toBe("Langue\u00a0: Français");
    expect(frenchSpacing("Trop long : 500")).toBe("Trop long\u00a0: 500");
    expect(frenchSpacing("Quoi ?")).toBe("Quoi\u00a0?");
    expect(frenchSpacing("Vraiment ?!")).toBe("Vraiment\u00a0?!");
    expect(frenchSpacing("Merci; à bientôt!")).toBe("Merci\u00a0; à bientôt\u00a0!");
    for (const untouched of ["10:30", "https://example.org", "a:b", ": début", "Déjà\u00a0: fait"]) expect(frenchSpacing(untouched)).toBe(untouched);
    expect(withColon("Langue", "fr")).toBe("Langue\u00a0:");
    expect(withColon("Language", "en")).toBe("Language:");
    // Every French interface word with high punctuation has its no-break space; English is left alone.
    for (const text of Object.values(writtenStrings("fr")!)) expect(text).not.toMatch(/[ \S][:;!?](\s|$)/u);
    expect(writtenStrings("en")!.reportTooLong).toBe("Your message is too long: 500 characters at most.");
  });

  it("limits reports by IPv4 address and by IPv6 /64", () => {
    expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:DB8:1:2:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8:1:2::")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
    expect(clientNetwork("[2001:0db8:0001:0002:0:0:0:9]")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientNetwork("::ffff:198.51.100.4")).toBe("198.51.100.4");
    expect(clientNetwork("2001:db8:1:2:3:4:198.51.100.4")).toBe("2001:db8:1:2::/64");
    for (const junk of ["local", "1.2.3", "256.1.1.1", "01.2.3.4", "1::2::3", "1:2:3:4:5:6:7:8:9", "gggg::", "1:2:3:4:5:6:7::8:9"]) {
      expect(clientNetwork(junk)).toBe(junk.toLowerCase());
    }
    expect(clientNetwork("x".repeat(500))).toHaveLength(64);
  });

  it("makes the first line of the first text element the heading, only when asked (the editor's preview is unchanged)", () => {
    const content = [
      { type: "metadatas", url: "x", backgroundColor: "#341539" },
      { type: "image", src: "", alt: "" },
      { type: "text", content: "  \nLa Joconde \nHuile sur bois.\n\nSecond paragraphe." },
      { type: "text", content: "Autre texte." },
    ] as unknown as ArticleContent;
    const html = (heading: boolean) => renderToStaticMarkup(createElement(ArticleContentView, { content, heading }));
    expect(html(true)).toContain('<h1 class="ml-title">La Joconde</h1><p>Huile sur bois.</p><p>Second paragraphe.</p>');
    expect(html(true).match(/<h1/g)).toHaveLength(1);
    expect(html(false)).not.toContain("<h1");
    expect(html(false)).toContain("La Joconde <br/>Huile sur bois.");
    const single = [content[0], { type: "text", content: "Seul titre" }] as unknown as ArticleContent;
    expect(renderToStaticMarkup(createElement(ArticleContentView, { content: single, heading: true }))).toContain(
      '<div class="ml-text" style="font-size:16px;color:#ffffff;text-align:start"><h1 class="ml-title">Seul titre</h1></div>',
    );
  });
});
