import { describe, expect, it, vi } from "vitest";
import { ConfigError, readConfig } from "~/config.server";
import { enginesFromEnv, machineTranslate, pseudoTranslate } from "~/translation/engines";
import { pseudoEngine } from "~/translation/engines/pseudo";
import { LANGUAGES } from "~/translation/languages";

const secret = { SESSION_SECRET: "x".repeat(32) };
const fakeAi = { run: async () => ({}) } as unknown as Ai;

describe("pseudo engine", () => {
  it("prefixes the target and accents letters, deterministically", () => {
    expect(pseudoTranslate("Bonjour, le musée ouvre à 9 h.", "de")).toBe("[de] Bóñjóúr, lé múséé óúvré à 9 h.");
    expect(pseudoTranslate("Bonjour", "pt-BR")).toBe("[pt] Bóñjóúr");
    expect(pseudoTranslate("Bonjour", "zh-hant")).toBe("[zh-Hant] Bóñjóúr");
    expect(pseudoTranslate("Bonjour", "de")).toBe(pseudoTranslate("Bonjour", "de"));
  });

  it("keeps whitespace, line breaks, digits, placeholders, web and e-mail addresses as they are", () => {
    const source = "  Voir ⟦Mona Lisa⟧ et ⟦0⟧\nsur https://example.com/a?b=c ou www.louvre.fr,\técrire à contact@musee.fr  \n1789";
    expect(pseudoTranslate(source, "en")).toBe(
      "[en]   Vóír ⟦Mona Lisa⟧ ét ⟦0⟧\nsúr https://example.com/a?b=c óú www.louvre.fr,\téçríré à contact@musee.fr  \n1789",
    );
  });

  it("leaves blank text blank and odd Unicode intact", () => {
    expect(pseudoTranslate("   ", "de")).toBe("   ");
    expect(pseudoTranslate("", "de")).toBe("");
    expect(pseudoTranslate("👩🏽‍🎨 𝒜 مرحبا ⟦⟧", "ar")).toBe("[ar] 👩🏽‍🎨 𝒜 مرحبا ⟦⟧");
  });

  it("serves every catalogue language and nothing else", () => {
    const engine = pseudoEngine();
    for (const l of LANGUAGES) expect(engine.supports("fr", l.code), l.code).toBe(true);
    expect(engine.supports("fr", "xx")).toBe(false);
  });

  it("waits PSEUDO_DELAY_MS per call and stops when aborted", async () => {
    const engine = pseudoEngine({ delayMs: 80 });
    vi.useFakeTimers();
    try {
      let answered = false;
      const work = engine.translate(["a"], "fr", "de", new AbortController().signal).then((texts) => ((answered = true), texts));
      await vi.advanceTimersByTimeAsync(79);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
      await work;
      const controller = new AbortController();
      const pending = engine.translate(["a"], "fr", "de", controller.signal);
      controller.abort(new Error("stop"));
      await expect(pending).rejects.toThrow("stop");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("engine settings", () => {
  it("defaults to the real Workers AI engines, never pseudo (decision 037)", () => {
    const config = readConfig({ ...secret });
    expect(config.TRANSLATION_ENGINES).toEqual(["workers-ai", "workers-ai-llm"]);
    expect(config.PSEUDO_DELAY_MS).toBe(0);
    // Without the AI binding the default cannot run: it says so instead of falling back to pseudo.
    expect(() => enginesFromEnv({ ...secret })).toThrow(/no AI binding/);
    expect(enginesFromEnv({ ...secret, AI: {} as Ai }).map((e) => e.id)).toEqual(["workers-ai", "workers-ai-llm"]);
    expect(enginesFromEnv({ ...secret, TRANSLATION_ENGINES: "pseudo" }).map((e) => e.id)).toEqual(["pseudo"]);
  });

  it("keeps the preference order, trimming spaces", () => {
    const env = {
      ...secret,
      TRANSLATION_ENGINES: " deepl, workers-ai ,workers-ai-llm,libretranslate,google,openai-compatible,pseudo",
      DEEPL_API_KEY: "k:fx",
      GOOGLE_TRANSLATE_API_KEY: "g",
      LIBRETRANSLATE_URL: "http://localhost:5000",
      OPENAI_BASE_URL: "http://localhost:11434/v1",
      OPENAI_MODEL: "llama3",
      AI: fakeAi,
    };
    expect(enginesFromEnv(env).map((e) => e.id)).toEqual(["deepl", "workers-ai", "workers-ai-llm", "libretranslate", "google", "openai-compatible", "pseudo"]);
    expect(enginesFromEnv(env)).toBe(enginesFromEnv(env));
  });

  it("names the missing setting of each listed engine", () => {
    const cases: Array<[string, RegExp]> = [
      ["deepl", /DEEPL_API_KEY is required because TRANSLATION_ENGINES lists deepl/],
      ["google", /GOOGLE_TRANSLATE_API_KEY is required/],
      ["libretranslate", /LIBRETRANSLATE_URL is required/],
      ["openai-compatible", /OPENAI_BASE_URL is required.*OPENAI_MODEL is required/],
    ];
    for (const [engine, message] of cases) {
      expect(() => readConfig({ ...secret, TRANSLATION_ENGINES: engine }), engine).toThrow(ConfigError);
      expect(() => readConfig({ ...secret, TRANSLATION_ENGINES: engine }), engine).toThrow(message);
    }
    // An empty [vars] line counts as unset.
    expect(() => readConfig({ ...secret, TRANSLATION_ENGINES: "deepl", DEEPL_API_KEY: " " })).toThrow(/DEEPL_API_KEY/);
  });

  it("refuses the Workers AI engines without the AI binding", () => {
    expect(() => enginesFromEnv({ ...secret, TRANSLATION_ENGINES: "workers-ai" })).toThrow(ConfigError);
    expect(() => enginesFromEnv({ ...secret, TRANSLATION_ENGINES: "pseudo,workers-ai-llm" })).toThrow(/no AI binding/);
  });

  it("refuses unknown, repeated or no engines, bad addresses and bad numbers", () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ TRANSLATION_ENGINES: "deepl,babelfish" }, /TRANSLATION_ENGINES.*unknown engine/],
      [{ TRANSLATION_ENGINES: "pseudo,pseudo" }, /twice/],
      [{ TRANSLATION_ENGINES: " , " }, /no engine/],
      [{ TRANSLATION_ENGINES: "libretranslate", LIBRETRANSLATE_URL: "localhost:5000" }, /LIBRETRANSLATE_URL/],
      [{ TRANSLATION_ENGINES: "libretranslate", LIBRETRANSLATE_URL: "ftp://example.com" }, /http: or https:/],
      [{ PSEUDO_DELAY_MS: "-5" }, /PSEUDO_DELAY_MS/],
      [{ PSEUDO_DELAY_MS: "1.5" }, /whole number/],
      [{ WORKERS_AI_LLM_MODEL: "gpt-4" }, /WORKERS_AI_LLM_MODEL/],
      [{ TRANSLATION_ENGINE: "workers-ai" }, /replaced by TRANSLATION_ENGINES/],
    ];
    for (const [env, message] of bad) {
      expect(() => readConfig({ ...secret, ...env }), JSON.stringify(env)).toThrow(message);
    }
    // The former single setting's "pseudo" is ignored: the default (Workers AI) applies.
    expect(readConfig({ ...secret, TRANSLATION_ENGINE: "pseudo" }).TRANSLATION_ENGINES).toEqual(["workers-ai", "workers-ai-llm"]);
    expect(readConfig({ ...secret, PSEUDO_DELAY_MS: "300" }).PSEUDO_DELAY_MS).toBe(300);
  });

  it("translates end to end with the configured pseudo engine and its delay", async () => {
    const engines = enginesFromEnv({ ...secret, TRANSLATION_ENGINES: "pseudo", PSEUDO_DELAY_MS: "50" });
    vi.useFakeTimers();
    try {
      let answered = false;
      const work = machineTranslate(engines, ["Salle des États"], "fr", "en").finally(() => (answered = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await work).toEqual({ texts: ["[en] Sállé dés Étáts"], engines: ["pseudo"] });
    } finally {
      vi.useRealTimers();
    }
  });
});
