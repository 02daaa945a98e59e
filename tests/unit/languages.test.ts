import { describe, it, expect } from "vitest";
import { LANGUAGES, LANGUAGE_CODES, findLanguage, languageLabel, m2m100Code, negotiateLanguage } from "../../app/translation/languages";
import {
  DEEPL_SOURCE_CODES,
  DEEPL_TARGET_CODES,
  ENGINE_IDS,
  GOOGLE_CODES,
  LIBRETRANSLATE_CODES,
  M2M100_CODES as M2M100_TABLE,
} from "../../app/translation/engines/codes";

// Copied from the m2m100 model card on purpose: the catalogue must not be the
// source of truth for what the model accepts.
const M2M100_CODES = [
  "af",
  "am",
  "ar",
  "ast",
  "az",
  "ba",
  "be",
  "bg",
  "bn",
  "br",
  "bs",
  "ca",
  "ceb",
  "cs",
  "cy",
  "da",
  "de",
  "el",
  "en",
  "es",
  "et",
  "fa",
  "ff",
  "fi",
  "fr",
  "fy",
  "ga",
  "gd",
  "gl",
  "gu",
  "ha",
  "he",
  "hi",
  "hr",
  "ht",
  "hu",
  "hy",
  "id",
  "ig",
  "ilo",
  "is",
  "it",
  "ja",
  "jv",
  "ka",
  "kk",
  "km",
  "kn",
  "ko",
  "lb",
  "lg",
  "ln",
  "lo",
  "lt",
  "lv",
  "mg",
  "mk",
  "ml",
  "mn",
  "mr",
  "ms",
  "my",
  "ne",
  "nl",
  "no",
  "ns",
  "oc",
  "or",
  "pa",
  "pl",
  "ps",
  "pt",
  "ro",
  "ru",
  "sd",
  "si",
  "sk",
  "sl",
  "so",
  "sq",
  "sr",
  "ss",
  "su",
  "sv",
  "sw",
  "ta",
  "th",
  "tl",
  "tn",
  "tr",
  "uk",
  "ur",
  "uz",
  "vi",
  "wo",
  "xh",
  "yi",
  "yo",
  "zh",
  "zu",
];

describe("LANGUAGES catalogue", () => {
  it("has at least 100 languages", () => {
    expect(LANGUAGES.length).toBeGreaterThanOrEqual(100);
    expect(LANGUAGE_CODES).toHaveLength(LANGUAGES.length);
  });

  it("has unique codes sorted in code-unit order", () => {
    const codes = LANGUAGES.map((l) => l.code);
    expect(new Set(codes.map((c) => c.toLowerCase())).size).toBe(codes.length);
    const sorted = [...codes].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(codes).toEqual(sorted);
    expect([...LANGUAGE_CODES]).toEqual(codes);
  });

  it("uses well-formed BCP 47 tags with a lowercase primary subtag", () => {
    for (const l of LANGUAGES) {
      expect(l.code).toMatch(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/);
    }
  });

  it("fills every name field", () => {
    for (const l of LANGUAGES) {
      expect(l.endonym.trim(), l.code).not.toBe("");
      expect(l.fr.trim(), l.code).not.toBe("");
      expect(l.en.trim(), l.code).not.toBe("");
      // French labels are capitalised like list items.
      expect(l.fr[0], l.code).toBe(l.fr[0]!.toLocaleUpperCase("fr"));
    }
  });

  it("includes the regional languages of France", () => {
    for (const code of ["br", "oc", "eu", "co", "ca", "gsw"]) {
      expect(findLanguage(code)?.code, code).toBe(code);
    }
  });

  it("marks right-to-left scripts", () => {
    for (const code of ["ar", "he", "fa", "ur", "ps", "sd", "yi", "ug", "dv", "ckb"]) {
      expect(findLanguage(code)?.dir, code).toBe("rtl");
    }
    for (const code of ["fr", "en", "zh", "ru", "hi", "ja", "tr"]) {
      expect(findLanguage(code)?.dir, code).toBe("ltr");
    }
    const rtl = LANGUAGES.filter((l) => l.dir === "rtl").map((l) => l.code);
    expect(rtl.length).toBeLessThan(15);
  });

  it("has sample endonyms in their own script", () => {
    expect(findLanguage("de")?.endonym).toBe("Deutsch");
    expect(findLanguage("ja")?.endonym).toBe("日本語");
    expect(findLanguage("ar")?.endonym).toBe("العربية");
    expect(findLanguage("gn")?.endonym).toBe("Avañe'ẽ");
    expect(findLanguage("sq")?.endonym).toBe("Shqip");
  });
});

describe("m2m100Code", () => {
  it("reaches every m2m100 language from some catalogue entry", () => {
    const reachable = new Set(LANGUAGES.map((l) => m2m100Code(l.code)).filter((c): c is string => c !== undefined));
    const missing = M2M100_CODES.filter((c) => !reachable.has(c));
    expect(missing).toEqual([]);
  });

  it("only returns codes m2m100 knows, and only for workers-ai entries", () => {
    for (const l of LANGUAGES) {
      const m = m2m100Code(l.code);
      if (l.engines.includes("workers-ai")) {
        expect(M2M100_CODES, l.code).toContain(m);
      } else {
        expect(m, l.code).toBeUndefined();
      }
    }
  });

  it("maps the odd codes", () => {
    expect(m2m100Code("nb")).toBe("no");
    expect(m2m100Code("nso")).toBe("ns");
    expect(m2m100Code("fr")).toBe("fr");
    expect(m2m100Code("pt-BR")).toBe("pt");
  });

  it("returns undefined for languages m2m100 lacks and unknown ones", () => {
    for (const code of ["gn", "eu", "co", "qu", "mi", "eo", "la", "zh-Hant", "nn", "te"]) {
      expect(findLanguage(code)?.engines, code).not.toContain("workers-ai");
      expect(findLanguage(code)?.engines, code).toContain("workers-ai-llm");
      expect(m2m100Code(code), code).toBeUndefined();
    }
    expect(m2m100Code("xx")).toBeUndefined();
  });
});

describe("engines per language", () => {
  it("lists only known engines, and the offline and LLM ones for every language", () => {
    for (const l of LANGUAGES) {
      for (const id of l.engines) expect(ENGINE_IDS, l.code).toContain(id);
      expect(l.engines, l.code).toEqual(expect.arrayContaining(["pseudo", "workers-ai-llm", "openai-compatible"]));
      expect(Object.isFrozen(l.engines), l.code).toBe(true);
    }
  });

  it("keys every provider table by catalogue codes", () => {
    for (const table of [M2M100_TABLE, DEEPL_SOURCE_CODES, DEEPL_TARGET_CODES, GOOGLE_CODES, LIBRETRANSLATE_CODES]) {
      for (const code of table.keys()) expect(LANGUAGE_CODES, code).toContain(code);
    }
  });

  it("serves DeepL's languages with its variant codes", () => {
    expect(findLanguage("de")?.engines).toContain("deepl");
    expect(findLanguage("gn")?.engines).not.toContain("deepl");
    expect(DEEPL_TARGET_CODES.get("en")).toBe("EN-GB");
    expect(DEEPL_TARGET_CODES.get("pt")).toBe("PT-PT");
    expect(DEEPL_TARGET_CODES.get("zh-Hant")).toBe("ZH-HANT");
    expect(DEEPL_SOURCE_CODES.get("zh-Hant")).toBe("ZH");
    // Every DeepL target can also be a source, so a museum writing in it can use DeepL.
    for (const code of DEEPL_TARGET_CODES.keys()) expect(DEEPL_SOURCE_CODES.has(code), code).toBe(true);
  });

  it("gives Guarani an engine besides the LLMs", () => {
    expect(findLanguage("gn")?.engines).toEqual(expect.arrayContaining(["google", "workers-ai-llm"]));
    expect(GOOGLE_CODES.get("zh-Hant")).toBe("zh-TW");
    expect(GOOGLE_CODES.get("nb")).toBe("no");
  });
});

describe("findLanguage", () => {
  it("matches exact codes case-insensitively", () => {
    expect(findLanguage("FR")?.code).toBe("fr");
    expect(findLanguage("zh-hant")?.code).toBe("zh-Hant");
  });

  it("falls back to the primary subtag", () => {
    expect(findLanguage("pt-BR")?.code).toBe("pt");
    expect(findLanguage("fr-CA")?.code).toBe("fr");
    expect(findLanguage("en_GB")?.code).toBe("en");
  });

  it("prefers a more specific catalogue entry over the primary subtag", () => {
    expect(findLanguage("zh-Hant-TW")?.code).toBe("zh-Hant");
    expect(findLanguage("zh-TW")?.code).toBe("zh-Hant");
    expect(findLanguage("zh-CN")?.code).toBe("zh");
  });

  it("understands legacy and macrolanguage aliases", () => {
    expect(findLanguage("iw")?.code).toBe("he");
    expect(findLanguage("no")?.code).toBe("nb");
    expect(findLanguage("no-NO")?.code).toBe("nb");
  });

  it("returns undefined for unknown or malformed input", () => {
    expect(findLanguage("xx")).toBeUndefined();
    expect(findLanguage("")).toBeUndefined();
    expect(findLanguage("f")).toBeUndefined();
    expect(findLanguage("fr--CA")).toBeUndefined();
    expect(findLanguage("<script>")).toBeUndefined();
  });
});

describe("negotiateLanguage", () => {
  it("follows q-values rather than header order", () => {
    expect(negotiateLanguage("en;q=0.5, de;q=0.8, es;q=0.1")).toBe("de");
    expect(negotiateLanguage("it;q=0.2,ja")).toBe("ja");
  });

  it("handles a typical browser header", () => {
    expect(negotiateLanguage("fr-CA,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(negotiateLanguage("pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("pt");
  });

  it("keeps header order for equal q-values", () => {
    expect(negotiateLanguage("de;q=0.7, it;q=0.7, en;q=0.7")).toBe("de");
    expect(negotiateLanguage("it, de")).toBe("it");
  });

  it("ignores wildcards", () => {
    expect(negotiateLanguage("*")).toBeUndefined();
    expect(negotiateLanguage("*, es;q=0.1")).toBe("es");
  });

  it("returns undefined for empty or garbage input", () => {
    expect(negotiateLanguage(null)).toBeUndefined();
    expect(negotiateLanguage(undefined)).toBeUndefined();
    expect(negotiateLanguage("")).toBeUndefined();
    expect(negotiateLanguage("!!!, ;;; ,,")).toBeUndefined();
    expect(negotiateLanguage("xx-YY, qq")).toBeUndefined();
  });

  it("skips malformed entries and keeps the good ones", () => {
    expect(negotiateLanguage("f@o, ,de;q=0.3")).toBe("de");
  });

  it("drops entries whose q-value is invalid", () => {
    expect(negotiateLanguage("en;q=abc, de;q=0.5")).toBe("de");
    expect(negotiateLanguage("en;q=1.5, de;q=0.5")).toBe("de");
    expect(negotiateLanguage("en;q=-1")).toBeUndefined();
  });

  it("treats q=0 as not acceptable", () => {
    expect(negotiateLanguage("fr;q=0, en;q=0.1")).toBe("en");
    expect(negotiateLanguage("fr-CA, fr;q=0, en;q=0.1")).toBe("en");
  });

  it("restricts the result to the available languages", () => {
    const header = "fr-CA,fr;q=0.9,en;q=0.8,de;q=0.5";
    expect(negotiateLanguage(header, ["de", "en"])).toBe("en");
    expect(negotiateLanguage(header, ["de"])).toBe("de");
    expect(negotiateLanguage(header, ["ja"])).toBeUndefined();
    expect(negotiateLanguage(header, [])).toBeUndefined();
    expect(negotiateLanguage("zh-TW", ["zh", "en"])).toBe("zh");
    expect(negotiateLanguage("zh-TW", ["zh-Hant", "zh"])).toBe("zh-Hant");
  });
});

describe("languageLabel", () => {
  it("names the language in the interface language", () => {
    expect(languageLabel("de", "fr")).toBe("Allemand");
    expect(languageLabel("de", "en")).toBe("German");
    expect(languageLabel("eu", "fr")).toBe("Basque");
    expect(languageLabel("pt-BR", "en")).toBe("Portuguese");
  });

  it("falls back to the code", () => {
    expect(languageLabel("xx", "fr")).toBe("xx");
  });
});
