import { describe, expect, it } from "vitest";
import { minifyCss, searchKey } from "~/visitor/document";
import { VISITOR_SCRIPT } from "~/visitor/script";
import { chooseLanguage, likelyLanguages } from "~/visitor/language.server";

const request = (url: string, headers: Record<string, string> = {}) => new Request(`https://musee.example${url}`, { headers });

describe("visitor page pieces", () => {
  it("ships at most 4 KB of inline script", () => {
    expect(new TextEncoder().encode(VISITOR_SCRIPT).length).toBeLessThanOrEqual(4096);
  });

  it("minifies the inline CSS without changing selectors", () => {
    expect(minifyCss("/* c */\n.a > .b ,\n.c { color: red ;\n margin: 0 ; }\n")).toBe(".a>.b,.c{color: red;margin: 0}");
  });

  it("searches names without case or accents", () => {
    expect(searchKey("  Français ")).toBe("francais");
    expect(searchKey("Ελληνικά")).toBe("ελληνικα");
  });

  it("chooses ?lang, then the cookie, then Accept-Language, then the source", () => {
    const chosen = chooseLanguage(request("/r/x?lang=pt-BR", { Cookie: "muselingo_lang=de", "Accept-Language": "ja" }), "fr");
    expect(chosen).toMatchObject({ lang: "pt", chosen: true });
    expect(chosen.setCookie).toBe("muselingo_lang=pt; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure");
    expect(chooseLanguage(request("/r/x?lang=klingon", { Cookie: "a=b; muselingo_lang=de", "Accept-Language": "ja" }), "fr")).toEqual({ lang: "de", chosen: false });
    expect(chooseLanguage(request("/r/x", { Cookie: "muselingo_lang=%3Cscript%3E", "Accept-Language": "zh-TW,zh;q=0.8" }), "fr")).toEqual({ lang: "zh-Hant", chosen: false });
    expect(chooseLanguage(request("/r/x", { "Accept-Language": "tlh, *" }), "fr")).toEqual({ lang: "fr", chosen: false });
    expect(chooseLanguage(request("/r/x?lang="), "it")).toEqual({ lang: "it", chosen: false });
  });

  it("suggests the current, browser, remembered and source languages, each once", () => {
    expect(likelyLanguages(request("/r/x", { "Accept-Language": "de-CH, de;q=0.9, en;q=0.5", Cookie: "muselingo_lang=ar" }), "de", "fr")).toEqual(["de", "en", "ar", "fr"]);
  });
});
