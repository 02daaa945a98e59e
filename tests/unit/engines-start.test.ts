import { describe, expect, it } from "vitest";
import { ENGINE_SETTINGS, LocalEngineError, engineVarArgs, needsLocalSpeechService } from "../../scripts/lib.mjs";

describe("npm start passes engine settings through", () => {
  it("turns each set setting into --var NAME:VALUE, URLs whole", () => {
    const args = engineVarArgs({
      TRANSLATION_ENGINES: "libretranslate,pseudo",
      LIBRETRANSLATE_URL: "http://localhost:5000",
      LIBRETRANSLATE_API_KEY: "",
      PATH: "/usr/bin",
    });
    expect(args).toEqual(["--var", "TRANSLATION_ENGINES:libretranslate,pseudo", "--var", "LIBRETRANSLATE_URL:http://localhost:5000"]);
    expect(engineVarArgs({})).toEqual([]);
    expect(ENGINE_SETTINGS).toContain("DEEPL_API_KEY");
  });

  it("refuses the Workers AI engines, which cannot run offline", () => {
    expect(() => engineVarArgs({ TRANSLATION_ENGINES: "deepl, workers-ai-llm" })).toThrow(LocalEngineError);
    expect(() => engineVarArgs({ TRANSLATION_ENGINES: "workers-ai" })).toThrow(/AI binding/);
    // Narration (decision 090): MeloTTS needs the binding too; the offline speech engine passes.
    expect(() => engineVarArgs({ TRANSLATION_ENGINES: "pseudo", SPEECH_ENGINES: "google, workers-ai" })).toThrow(/SPEECH_ENGINES lists workers-ai/);
    expect(engineVarArgs({ TRANSLATION_ENGINES: "pseudo", SPEECH_ENGINES: "offline" })).toEqual([
      "--var",
      "TRANSLATION_ENGINES:pseudo",
      "--var",
      "SPEECH_ENGINES:offline",
    ]);
  });

  it("starts the local eSpeak service only for the offline speech engine, and passes a given one through (decision 102)", () => {
    expect(needsLocalSpeechService({})).toBe(true);
    expect(needsLocalSpeechService({ SPEECH_ENGINES: " google , offline" })).toBe(true);
    expect(needsLocalSpeechService({ SPEECH_ENGINES: "google" })).toBe(false);
    expect(needsLocalSpeechService({ SPEECH_ENGINES: "offline", OFFLINE_SPEECH_URL: "http://127.0.0.1:8792" })).toBe(false);
    expect(needsLocalSpeechService({ SPEECH_ENGINES: "offline", OFFLINE_SPEECH_URL: "  " })).toBe(true);
    expect(engineVarArgs({ SPEECH_ENGINES: "offline", OFFLINE_SPEECH_URL: "http://127.0.0.1:8792" })).toEqual([
      "--var",
      "SPEECH_ENGINES:offline",
      "--var",
      "OFFLINE_SPEECH_URL:http://127.0.0.1:8792",
    ]);
  });
});
