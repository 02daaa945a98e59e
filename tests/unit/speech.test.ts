import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "~/config.server";
import { narrationText } from "~/narration/text";
import { durationMs, joinMp3, mp3DurationMs, sniffGenerated, sniffRecording } from "~/speech/audio-types";
import { chunkText, measureText } from "~/speech/chunk";
import { createSpeechEngine, NoNarration, speechFor, synthesizeNarration } from "~/speech/engines";
import { googleSpeechEngine } from "~/speech/engines/google";
import { offlineSpeechEngine } from "~/speech/engines/offline";
import { openAiSpeechEngine } from "~/speech/engines/openai-compatible";
import { SpeechEngineError } from "~/speech/engines/types";
import { MELOTTS_MODEL, workersAiSpeechEngine } from "~/speech/engines/workers-ai";
import { encodeWav, joinWav, parseWav } from "~/speech/wav";
import { clockDuration } from "~/visitor/narration/player";
import { m4aBytes, mp3Bytes, oggOpusBytes } from "../integration/narration-helpers";

const signal = new AbortController().signal;
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe("chunkText", () => {
  it("keeps short texts whole and cuts long ones at paragraphs, then sentences, then spaces", () => {
    expect(chunkText("  Bonjour.  ", { max: 100, measure: "chars" })).toEqual(["Bonjour."]);
    expect(chunkText("   ", { max: 100, measure: "chars" })).toEqual([]);
    const paragraphs = ["Un. Deux.", "Trois quatre cinq.", "Six."].join("\n\n");
    expect(chunkText(paragraphs, { max: 20, measure: "chars" })).toEqual(["Un. Deux.\n\nTrois quatre cinq.".slice(0, 9), "Trois quatre cinq.", "Six."]);
    const sentences = "Première phrase assez longue. Deuxième phrase. Troisième!";
    const pieces = chunkText(sentences, { max: 35, measure: "chars" });
    expect(pieces).toEqual(["Première phrase assez longue.", "Deuxième phrase. Troisième!"]);
  });

  it("never passes the limit, loses no word and never splits a surrogate pair", () => {
    const text = `${"mot ".repeat(500)}${"𝄞".repeat(30)} الفن العربي. 日本語の文章です。次の文。`;
    for (const limit of [
      { max: 7, measure: "chars" as const },
      { max: 50, measure: "bytes" as const },
      { max: 4096, measure: "chars" as const },
    ]) {
      const pieces = chunkText(text, limit);
      for (const piece of pieces) {
        expect(measureText(piece, limit.measure)).toBeLessThanOrEqual(limit.max);
        expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
      }
      expect(pieces.join("").replace(/\s+/g, "")).toBe(text.replace(/\s+/g, ""));
    }
  });

  it("measures Google's limit in UTF-8 bytes", () => {
    const greek = "Αυτός ο αμφορέας. ".repeat(400);
    const pieces = chunkText(greek, { max: 5000, measure: "bytes" });
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.every((p) => new TextEncoder().encode(p).length <= 5000)).toBe(true);
  });
});

describe("WAV and MP3 checks", () => {
  it("writes a valid 16-bit mono WAV and reads its duration back", () => {
    const wav = encodeWav(new Int16Array(16_000), 16_000);
    expect(String.fromCharCode(...wav.subarray(0, 4))).toBe("RIFF");
    expect(parseWav(wav)).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataOffset: 44, dataBytes: 32_000, durationMs: 1000 });
    expect(parseWav(joinWav([wav, encodeWav(new Int16Array(8_000), 16_000)]))?.durationMs).toBe(1500);
    expect(() => joinWav([wav, encodeWav(new Int16Array(10), 22_050)])).toThrow();
    expect(parseWav(new Uint8Array(44))).toBeNull();
    expect(sniffGenerated(wav)).toEqual({ contentType: "audio/wav", ext: "wav" });
  });

  it("recognises recordings by their bytes only", () => {
    expect(sniffRecording(mp3Bytes(3))).toEqual({ contentType: "audio/mpeg", ext: "mp3" });
    expect(sniffRecording(mp3Bytes(3, true))).toEqual({ contentType: "audio/mpeg", ext: "mp3" });
    expect(sniffRecording(m4aBytes())).toEqual({ contentType: "audio/mp4", ext: "m4a" });
    expect(sniffRecording(oggOpusBytes())).toEqual({ contentType: "audio/ogg; codecs=opus", ext: "opus" });
    expect(sniffRecording(new Uint8Array([0xff, 0xf1, 0x50, 0x80, 0, 0, 0]))).toEqual({ contentType: "audio/aac", ext: "aac" });
    // Since decision 119 a recorder's PCM WAV is a recording too.
    expect(sniffRecording(encodeWav(new Int16Array(10), 8000))).toEqual({ contentType: "audio/wav", ext: "wav" });
    expect(sniffRecording(new TextEncoder().encode("ID3 is not enough for an mp3 file"))).toBeNull();
    expect(sniffRecording(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeNull();
    expect(sniffRecording(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 1, 2, 3, 4, 5, 6]))).toBeNull();
    expect(sniffRecording(new Uint8Array(0))).toBeNull();
  });

  it("measures an MP3 by its frames and joins pieces without their later ID3 tags", () => {
    expect(mp3DurationMs(mp3Bytes(100))).toBe(2612);
    expect(durationMs(mp3Bytes(100, true), { contentType: "audio/mpeg", ext: "mp3" })).toBe(2612);
    const joined = joinMp3([mp3Bytes(10, true), mp3Bytes(20, true)]);
    expect(joined.length).toBe(10 + 30 * 417);
    expect(mp3DurationMs(joined)).toBe(784);
  });

  it("shows durations the way players do", () => {
    expect(clockDuration(5_000)).toBe("0:05");
    expect(clockDuration(8_600)).toBe("0:08");
    expect(clockDuration(83_400)).toBe("1:23");
    expect(clockDuration(3_729_000)).toBe("1:02:09");
  });
});

describe("Workers AI MeloTTS (a fake of the binding, per developers.cloudflare.com/workers-ai/models/melotts)", () => {
  it("sends {prompt, lang} and reads the base64 MP3 or raw bytes", async () => {
    const calls: unknown[] = [];
    const mp3 = mp3Bytes(5);
    const engine = workersAiSpeechEngine({
      run: async (model, inputs) => {
        calls.push({ model, inputs });
        // The documented input schema: prompt (string, minLength 1), lang (string).
        if (typeof inputs.prompt !== "string" || inputs.prompt.length < 1) throw new Error("AiError: 5006: prompt required");
        return calls.length === 1 ? { audio: toBase64(mp3) } : mp3;
      },
    });
    expect(engine.voiceFor("fr")).toBe("melotts-fr");
    expect(engine.voiceFor("de")).toBeUndefined();
    expect(await engine.synthesize("Bonjour", "fr", "melotts-fr", signal)).toEqual(mp3);
    expect(await engine.synthesize("Hola", "es", "melotts-es", signal)).toEqual(mp3);
    expect(calls[0]).toEqual({ model: MELOTTS_MODEL, inputs: { prompt: "Bonjour", lang: "fr" } });
    await expect(engine.synthesize("Hallo", "de", "x", signal)).rejects.toMatchObject({ retryable: false });
  });

  it("turns the binding's failures into engine errors", async () => {
    const remote = workersAiSpeechEngine({ run: async () => Promise.reject(new Error("Binding AI needs to be run remotely")) });
    await expect(remote.synthesize("x", "en", "melotts-en", signal)).rejects.toMatchObject({ retryable: false });
    const garbled = workersAiSpeechEngine({ run: async () => ({ audio: "***" }) });
    await expect(garbled.synthesize("x", "en", "melotts-en", signal)).rejects.toBeInstanceOf(SpeechEngineError);
    const empty = workersAiSpeechEngine({ run: async () => ({}) });
    await expect(empty.synthesize("x", "en", "melotts-en", signal)).rejects.toMatchObject({ retryable: true });
  });
});

describe("HTTP engines against fakes of their documented protocols", () => {
  afterEach(() => vi.unstubAllGlobals());

  /**
   * OpenAI's createSpeech (platform.openai.com/docs/api-reference/audio/createSpeech): JSON {model, input
   * ≤ 4096 chars, voice, response_format}, Bearer key; answers the audio bytes, or a JSON error
   * {"error": {"message", "type", "code"}} with 400/401/429/5xx.
   */
  function fakeOpenAi() {
    const seen: { url: string; auth: string | null; body: Record<string, unknown> }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      const auth = new Headers(init.headers).get("authorization");
      seen.push({ url, auth, body });
      if (auth !== "Bearer sk-test")
        return Response.json({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }, { status: 401 });
      if (typeof body.input !== "string" || body.input.length > 4096)
        return Response.json({ error: { message: "string too long", type: "invalid_request_error" } }, { status: 400 });
      if (body.input.includes("busy")) return Response.json({ error: { message: "Rate limit reached", type: "requests" } }, { status: 429 });
      return new Response(mp3Bytes(Math.ceil(body.input.length / 50)), { headers: { "content-type": "audio/mpeg" } });
    });
    return seen;
  }

  it("openai-compatible: one call per 4,096 characters, joined into one MP3", async () => {
    const seen = fakeOpenAi();
    const engine = openAiSpeechEngine({ baseUrl: "https://tts.example/", apiKey: "sk-test", model: "tts-1", voice: "alloy" });
    const text = "Une phrase du guide. ".repeat(500);
    const narrated = await synthesizeNarration([engine], text, "fr", signal);
    expect(narrated).toMatchObject({ engine: "openai-compatible", voice: "alloy", contentType: "audio/mpeg", pieces: 3 });
    expect(seen.every((s) => s.url === "https://tts.example/v1/audio/speech" && s.body.model === "tts-1" && s.body.response_format === "mp3")).toBe(true);
    expect(narrated.durationMs).toBeGreaterThan(0);
    const bad = openAiSpeechEngine({ baseUrl: "https://tts.example", apiKey: "wrong", model: "tts-1", voice: "alloy" });
    await expect(bad.synthesize("x", "fr", "alloy", signal)).rejects.toMatchObject({ status: 401, retryable: false });
    await expect(engine.synthesize("busy", "fr", "alloy", signal)).rejects.toMatchObject({ status: 429, retryable: true });
    expect(engine.voiceFor("gn")).toBeUndefined();
  });

  /**
   * Google text:synthesize (cloud.google.com/text-to-speech/docs/reference/rest/v1/text/synthesize): key in
   * the query, {input: {text ≤ 5000 bytes}, voice: {languageCode}, audioConfig: {audioEncoding}}; answers
   * {audioContent: base64}; errors {"error": {code, message, status}}.
   */
  it("google: key in the query, base64 audioContent, 5,000-byte pieces, errors by status", async () => {
    const seen: string[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      const parsed = new URL(url);
      const body = JSON.parse(String(init.body)) as { input: { text: string }; voice: { languageCode: string }; audioConfig: { audioEncoding: string } };
      seen.push(body.voice.languageCode);
      if (parsed.searchParams.get("key") !== "g-key")
        return Response.json({ error: { code: 403, message: "API key not valid", status: "PERMISSION_DENIED" } }, { status: 403 });
      if (new TextEncoder().encode(body.input.text).length > 5000)
        return Response.json({ error: { code: 400, message: "Input too long", status: "INVALID_ARGUMENT" } }, { status: 400 });
      if (body.audioConfig.audioEncoding !== "MP3") return Response.json({ error: { code: 400, message: "bad encoding" } }, { status: 400 });
      return Response.json({ audioContent: toBase64(mp3Bytes(4)) });
    });
    const engine = googleSpeechEngine({ apiKey: "g-key", url: "https://texttospeech.googleapis.com/v1/text:synthesize" });
    const narrated = await synthesizeNarration([engine], "Ο αμφορέας αυτός. ".repeat(600), "el", signal);
    expect(narrated.pieces).toBeGreaterThan(1);
    expect(new Set(seen)).toEqual(new Set(["el-GR"]));
    const bad = googleSpeechEngine({ apiKey: "nope", url: "https://texttospeech.googleapis.com/v1/text:synthesize" });
    await expect(bad.synthesize("x", "de", "de-DE", signal)).rejects.toMatchObject({ status: 403, retryable: false });
    expect(engine.voiceFor("gn")).toBeUndefined();
  });

  it("falls back along the order, and says so when no engine speaks the language", async () => {
    vi.stubGlobal("fetch", async () => new Response("upstream down", { status: 503 }));
    const google = googleSpeechEngine({ apiKey: "k", url: "https://tts.example/v1/text:synthesize" });
    // Falling back to a working engine (the offline one, with the local eSpeak service): tests/unit/speech-offline.test.ts.
    await expect(synthesizeNarration([google], "Guten Tag.", "de", signal)).rejects.toBeInstanceOf(NoNarration);
    await expect(synthesizeNarration([google], "x", "gn", signal)).rejects.toThrow(/no speech engine speaks gn/);
    expect(speechFor([google, offlineSpeechEngine()], "gn")?.engine.id).toBe("offline");
  });
});

describe("SPEECH_ENGINES settings", () => {
  const base = { SESSION_SECRET: "x".repeat(32) };
  it("defaults to Workers AI, accepts an empty list, refuses unknown engines and missing settings", () => {
    expect(readConfig({ ...base }).SPEECH_ENGINES).toEqual(["workers-ai"]);
    expect(readConfig({ ...base, SPEECH_ENGINES: "" }).SPEECH_ENGINES).toEqual([]);
    expect(readConfig({ ...base, SPEECH_ENGINES: "offline, google", GOOGLE_TTS_API_KEY: "k" }).SPEECH_ENGINES).toEqual(["offline", "google"]);
    expect(() => readConfig({ ...base, SPEECH_ENGINES: "espeak" })).toThrow(/unknown speech engine/);
    expect(() => readConfig({ ...base, SPEECH_ENGINES: "google" })).toThrow(/GOOGLE_TTS_API_KEY is required/);
    expect(() => readConfig({ ...base, SPEECH_ENGINES: "openai-compatible" })).toThrow(/SPEECH_OPENAI_BASE_URL is required/);
    const config = readConfig({ ...base, SPEECH_ENGINES: "workers-ai" });
    expect(() => createSpeechEngine("workers-ai", { config })).toThrow(/no AI binding/);
  });
});

describe("narrationText", () => {
  it("reads texts, headings, legends and accordions in page order, not links or alt texts", () => {
    const content = [
      { type: "metadatas", url: "a", backgroundColor: "#000" },
      { type: "text", content: "Titre\r\nSous-titre" },
      { type: "image", src: "/media/x.png", alt: "Ne pas lire" },
      { type: "heading", content: "Histoire", level: 2 },
      { type: "link", content: "Lien", link: "https://example.org" },
      { type: "accordion", header: { content: "Plus" }, details: [{ type: "text", content: "Détail" }] },
      { type: "legendItem", content: "Légende", alt: "" },
    ] as never;
    expect(narrationText(content)).toBe("Titre\nSous-titre\n\nHistoire\n\nPlus\n\nDétail\n\nLégende");
  });
});
