// The offline speech engine against the real local eSpeak NG service (decision 102), as `npm start` and the
// tests run it: scripts/speech-server.mjs in this Node process, the engine calling it over HTTP.
import { createServer, type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSpeechEngine, synthesizeNarration } from "~/speech/engines";
import { googleSpeechEngine } from "~/speech/engines/google";
import { ESPEAK_VOICES, offlineSpeechEngine } from "~/speech/engines/offline";
import { SpeechEngineError } from "~/speech/engines/types";
import { readConfig } from "~/config.server";
import { LANGUAGE_CODES } from "~/translation/languages";
import { id3Size, mp3DurationMs, mp3Frame } from "~/speech/audio-types";
import { mp3Layout } from "~/speech/join";
import { parseWav } from "~/speech/wav";
import { startSpeechServer, type SpeechServer } from "../../scripts/speech-server.mjs";

const signal = new AbortController().signal;
let service: SpeechServer;

beforeAll(async () => {
  service = await startSpeechServer({ port: 0 });
}, 30_000);
afterAll(() => service?.close());
afterEach(() => vi.unstubAllGlobals());

/** Duration, and the loudness of the samples (root mean square, 0-32767). */
function measureWav(bytes: Uint8Array) {
  const wav = parseWav(bytes);
  expect(wav, "a PCM WAV").not.toBeNull();
  const samples = new Int16Array(bytes.slice(wav!.dataOffset, wav!.dataOffset + wav!.dataBytes).buffer);
  let sum = 0;
  for (const s of samples) sum += s * s;
  return { ...wav!, rms: Math.sqrt(sum / samples.length) };
}

/**
 * An MP3's layout, duration, bit rate, and how many of its frames code sound: `part2_3_length` (the bits of
 * scale factors and Huffman-coded samples, ISO/IEC 13818-3 side information, MPEG-2 mono: after 8 bits of
 * main_data_begin and 1 private bit) is 0 in a silent frame.
 */
function measureMp3(bytes: Uint8Array) {
  const layout = mp3Layout(bytes);
  expect(layout, "an MP3").not.toBeNull();
  let at = id3Size(bytes);
  let frames = 0;
  let sounding = 0;
  let bits = 0;
  for (let frame = mp3Frame(bytes, at); frame && at + frame.bytes <= bytes.length; at += frame.bytes, frame = mp3Frame(bytes, at)) {
    frames++;
    bits += frame.bytes * 8;
    const side = at + ((bytes[at + 1]! & 1) === 0 ? 6 : 4);
    const part23 = (((bytes[side + 1]! & 0x7f) << 5) | (bytes[side + 2]! >> 3)) & 0xfff;
    if (part23 > 0) sounding++;
  }
  const durationMs = mp3DurationMs(bytes)!;
  expect(at, "frames to the last byte").toBe(bytes.length);
  return { ...layout!, durationMs, kbps: Math.round(bits / durationMs), sounding: sounding / frames };
}

const TEXTS: Record<string, [string, string]> = {
  fr: ["Bonjour.", "Bonjour. Cette amphore attique fut peinte vers 530 avant notre ère par le peintre Amasis, à Athènes."],
  de: ["Guten Tag.", "Guten Tag. Diese attische Amphore wurde um 530 vor Christus vom Maler Amasis in Athen bemalt."],
  ar: ["مرحبا.", "مرحبا. رسم الفنان أماسيس هذه الأمفورة الأتيكية في أثينا حوالي عام خمسمئة وثلاثين قبل الميلاد."],
  zh: ["你好。", "你好。这个阿提卡双耳瓶大约在公元前五百三十年由画家阿马西斯在雅典绘制。"],
};

describe("the offline engine with eSpeak NG", () => {
  it.each(Object.keys(TEXTS))("reads %s as a 32 kbit/s MP3 whose duration follows the text", async (lang) => {
    const engine = offlineSpeechEngine({ url: service.url });
    expect(engine.format).toBe("mp3");
    const voice = engine.voiceFor(lang)!;
    expect(voice).toBe(ESPEAK_VOICES[lang]);
    const [shortText, longText] = TEXTS[lang]!;
    const short = measureMp3(await engine.synthesize(shortText, lang, voice, signal));
    const long = measureMp3(await engine.synthesize(longText, lang, voice, signal));
    // MPEG-2 layer III (version bits 2), eSpeak's 22,050 Hz, mono, 32 kbit/s (decision 120).
    expect(long).toMatchObject({ version: 2, sampleRate: 22_050, mono: true, kbps: 32 });
    // Speech, not silence; a longer text is read for longer, at a speaking pace (2-30 characters a second).
    expect(long.sounding).toBeGreaterThan(0.5);
    expect(long.durationMs).toBeGreaterThan(short.durationMs * 3);
    const perSecond = [...longText].length / (long.durationMs / 1000);
    expect(perSecond).toBeGreaterThan(2);
    expect(perSecond).toBeLessThan(30);
  });

  it("says different words differently, and the same text the same way", async () => {
    const engine = offlineSpeechEngine({ url: service.url });
    const a = await engine.synthesize("Le vase est bleu.", "fr", "fr-fr", signal);
    const b = await engine.synthesize("La toile est rouge.", "fr", "fr-fr", signal);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(a).equals(Buffer.from(await engine.synthesize("Le vase est bleu.", "fr", "fr-fr", signal)))).toBe(true);
  });

  it("has no voice for the languages eSpeak lacks or reads badly; every voice it names exists and every language is the catalogue's", () => {
    const engine = offlineSpeechEngine({ url: service.url });
    for (const lang of ["wo", "yo", "zu", "ja", "nn", "xx", "constructor", "__proto__"]) expect(engine.voiceFor(lang), lang).toBeUndefined();
    for (const [lang, voice] of Object.entries(ESPEAK_VOICES)) {
      expect(LANGUAGE_CODES, lang).toContain(lang);
      expect(service.espeak.voices.has(voice), voice).toBe(true);
    }
    expect(Object.keys(ESPEAK_VOICES).length).toBeGreaterThanOrEqual(85);
  });

  it("reads text that looks like eSpeak options, odd Unicode and a language it lacks is refused", async () => {
    const engine = offlineSpeechEngine({ url: service.url });
    const options = measureMp3(await engine.synthesize("-v en --help -w /etc/passwd", "fr", "fr-fr", signal));
    expect(options.durationMs).toBeGreaterThan(1000);
    const odd = measureMp3(await engine.synthesize("Amphore 🏺\u202e\u200b attique \uFEFF ﷽ x\u0301", "fr", "fr-fr", signal));
    expect(odd.durationMs).toBeGreaterThan(500);
    await expect(engine.synthesize("Hello", "wo", "en-gb", signal)).rejects.toBeInstanceOf(SpeechEngineError);
  });

  it("joins the pieces of a text longer than one call", async () => {
    const engine = offlineSpeechEngine({ url: service.url });
    // Just over one call's 2,000 characters (two pieces): the audio's length, not the text's, is what costs here.
    const text = "Cette amphore attique fut peinte vers 530 avant notre ère. ".repeat(35);
    expect(text.length).toBeGreaterThan(engine.limit.max);
    const narrated = await synthesizeNarration([engine], text, "fr", signal);
    expect(narrated).toMatchObject({ engine: "offline", voice: "fr-fr", contentType: "audio/mpeg", ext: "mp3" });
    expect(narrated.pieces).toBe(2);
    // All of it is read, at a speaking pace (at most 30 characters a second, as above): over 68 s.
    expect(narrated.durationMs!).toBeGreaterThan((text.length / 30) * 1000);
    // Joined frame by frame: every byte a frame, the duration the frames' (decision 106).
    expect(measureMp3(narrated.bytes).durationMs).toBe(narrated.durationMs);
    // 0.24 MB a minute (32 kbit/s), where eSpeak's WAV is 2.65 MB.
    expect(narrated.bytes.length / (narrated.durationMs! / 60_000)).toBeLessThan(250_000);
  });

  it("is what a failing engine falls back to", async () => {
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).startsWith("https://tts.example/") ? Promise.resolve(new Response("upstream down", { status: 503 })) : realFetch(input, init),
    );
    const google = googleSpeechEngine({ apiKey: "k", url: "https://tts.example/v1/text:synthesize" });
    const narrated = await synthesizeNarration([google, offlineSpeechEngine({ url: service.url })], "Guten Tag.", "de", signal);
    expect(narrated).toMatchObject({ engine: "offline", voice: "de" });
  });

  it("fails with a clear SpeechEngineError when the service is not there", async () => {
    const missing = offlineSpeechEngine();
    await expect(missing.synthesize("Bonjour.", "fr", "fr-fr", signal)).rejects.toMatchObject({
      name: "SpeechEngineError",
      engine: "offline",
      retryable: false,
      message: expect.stringMatching(/local eSpeak service is not running/),
    });
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const down = offlineSpeechEngine({ url: `http://127.0.0.1:${port}` });
    const error = await down.synthesize("Bonjour.", "fr", "fr-fr", signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechEngineError);
    expect((error as SpeechEngineError).message).toMatch(
      /^offline: the local eSpeak service did not answer; is npm start still running\? \(offline: could not reach the server/,
    );
    expect((error as SpeechEngineError).message).not.toContain(String(port));
    // Through the deployment's settings: the URL comes from OFFLINE_SPEECH_URL.
    const config = readConfig({ SESSION_SECRET: "x".repeat(32), SPEECH_ENGINES: "offline", OFFLINE_SPEECH_URL: service.url });
    const configured = createSpeechEngine("offline", { config });
    expect(measureMp3(await configured.synthesize("Hallo.", "de", "de", signal)).durationMs).toBeGreaterThan(300);
    expect(() => readConfig({ SESSION_SECRET: "x".repeat(32), OFFLINE_SPEECH_URL: "ftp://x" })).toThrow(/OFFLINE_SPEECH_URL/);
  }, 30_000);
});

describe("the local speech service (OpenAI's createSpeech protocol)", () => {
  const post = (body: unknown) =>
    fetch(`${service.url}/v1/audio/speech`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const ok = { model: "espeak-ng", input: "Bonjour.", voice: "fr-fr", response_format: "wav" };

  it("answers MP3 by default as OpenAI does, WAV when asked, and 400 with the parameter for what it cannot do", async () => {
    const text = "Cette amphore attique fut peinte vers 530 avant notre ère par le peintre Amasis.";
    const good = await post({ ...ok, input: text });
    expect(good.status).toBe(200);
    expect(good.headers.get("content-type")).toBe("audio/wav");
    const wavBytes = new Uint8Array(await good.arrayBuffer());
    const wav = measureWav(wavBytes);
    expect(wav.rms).toBeGreaterThan(500);
    for (const format of [undefined, "mp3"]) {
      const answer = await post({ ...ok, input: text, response_format: format });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("audio/mpeg");
      const mp3Bytes = new Uint8Array(await answer.arrayBuffer());
      const mp3 = measureMp3(mp3Bytes);
      expect(mp3).toMatchObject({ sampleRate: 22_050, mono: true, kbps: 32 });
      expect(mp3.sounding).toBeGreaterThan(0.5);
      // The same speech: LAME adds its encoder delay and pads to whole frames (under 0.1 s), no more.
      expect(mp3.durationMs - wav.durationMs).toBeGreaterThanOrEqual(0);
      expect(mp3.durationMs - wav.durationMs).toBeLessThan(100);
      expect(mp3Bytes.length).toBeLessThan(wavBytes.length / 10);
    }
    const cases: [unknown, number, string | null][] = [
      ["{not json", 400, null],
      [[1, 2], 400, null],
      [{ ...ok, response_format: "opus" }, 400, "response_format"],
      [{ ...ok, response_format: "flac" }, 400, "response_format"],
      [{ ...ok, response_format: "pcm" }, 400, "response_format"],
      [{ ...ok, response_format: "ogg" }, 400, "response_format"],
      [{ ...ok, response_format: 3 }, 400, "response_format"],
      [{ ...ok, model: undefined }, 400, "model"],
      [{ ...ok, input: "" }, 400, "input"],
      [{ ...ok, input: 42 }, 400, "input"],
      [{ ...ok, input: "a".repeat(4097) }, 400, "input"],
      [{ ...ok, voice: "alloy" }, 400, "voice"],
      [{ ...ok, voice: "../../etc" }, 400, "voice"],
      [{ ...ok, speed: 5 }, 400, "speed"],
      [{ ...ok, speed: "1" }, 400, "speed"],
    ];
    for (const [body, status, param] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)?.slice(0, 80)).toBe(status);
      const json = (await response.json()) as { error: { type: string; param: string | null } };
      expect(json.error).toMatchObject({ type: "invalid_request_error", param });
    }
    expect((await fetch(`${service.url}/v1/audio/speech`)).status).toBe(405);
    expect((await fetch(`${service.url}/v1/other`, { method: "POST" })).status).toBe(404);
    const big = await post({ ...ok, input: "a".repeat(70_000) });
    expect(big.status).toBe(413);
  });

  it("speed changes the pace", async () => {
    const normal = parseWav(new Uint8Array(await (await post({ ...ok, input: "Cette amphore attique fut peinte vers 530." })).arrayBuffer()))!;
    const fast = parseWav(new Uint8Array(await (await post({ ...ok, input: "Cette amphore attique fut peinte vers 530.", speed: 2 })).arrayBuffer()))!;
    expect(fast.durationMs).toBeLessThan(normal.durationMs * 0.7);
  });

  it("30 concurrent requests are read one after the other, each whole", async () => {
    // Half ask for MP3 (the default), half for WAV: the encoder is deterministic too. Each text is asked three
    // times, all at once.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => post({ ...ok, response_format: i % 2 ? "wav" : undefined, input: `Salle numéro ${i % 10}.` })),
    );
    const bodies = await Promise.all(answers.map(async (r) => (expect(r.status).toBe(200), Buffer.from(await r.arrayBuffer()))));
    for (let i = 10; i < 30; i++) expect(bodies[i]!.equals(bodies[i % 10]!), `request ${i}`).toBe(true);
    expect(answers.map((r) => r.headers.get("content-type"))).toEqual(Array.from({ length: 30 }, (_, i) => (i % 2 ? "audio/wav" : "audio/mpeg")));
  });
});
