// Narrations read paragraph by paragraph, the audio of unchanged paragraphs reused (decision 106).
import { describe, expect, it, vi } from "vitest";
import { id3Size, mp3DurationMs, mp3Frame, sniffGenerated } from "~/speech/audio-types";
import { chunkText, narrationPieces } from "~/speech/chunk";
import { NoNarration, pieceKey, synthesizeNarration, type PieceStore } from "~/speech/engines";
import { SpeechEngineError, type SpeechEngine } from "~/speech/engines/types";
import { joinable, joinPieces, PARAGRAPH_PAUSE_MS, silentMp3 } from "~/speech/join";
import { encodeWav, parseWav } from "~/speech/wav";
import { mp3Bytes } from "../integration/narration-helpers";

/** The array with item `i` replaced (Array.prototype.with is ES2023, beyond the project's lib). */
const replaced = <T>(items: readonly T[], i: number, item: T): T[] => items.map((x, j) => (j === i ? item : x));

const signal = new AbortController().signal;
const limit = { max: 200, measure: "chars" as const };

/** A WAV engine whose output length follows the text: 10 ms of a tone per character, at `rate` Hz. */
function wavEngine(options: { rate?: number; voice?: string; fail?: (text: string, call: number) => SpeechEngineError | null } = {}) {
  const calls: string[] = [];
  const rate = options.rate ?? 16_000;
  const engine: SpeechEngine = {
    id: "offline",
    limit,
    format: "wav",
    voiceFor: () => options.voice ?? "test-voice",
    async synthesize(text) {
      calls.push(text);
      const failure = options.fail?.(text, calls.length);
      if (failure) throw failure;
      const samples = new Int16Array(Math.round((text.length * rate) / 100));
      for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin(i / 7));
      return encodeWav(samples, rate);
    },
  };
  return { engine, calls };
}

/** An Info (LAME/Xing) summary frame in mp3Bytes' layout: header, 32 bytes of side info, then "Info". */
function infoFrame(): Uint8Array {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  frame.set(
    [..."Info"].map((c) => c.charCodeAt(0)),
    36,
  );
  return frame;
}

/** An MP3 engine answering what encoders write: an ID3 tag, an Info frame, then one frame per 10 characters. */
function mp3Engine() {
  const calls: string[] = [];
  const engine: SpeechEngine = {
    id: "openai-compatible",
    limit,
    format: "mp3",
    voiceFor: () => "alloy",
    async synthesize(text) {
      calls.push(text);
      const frames = mp3Bytes(Math.max(1, Math.ceil(text.length / 10)), true);
      const info = infoFrame();
      const out = new Uint8Array(frames.length + info.length);
      out.set(frames.subarray(0, 10));
      out.set(info, 10);
      out.set(frames.subarray(10), 10 + info.length);
      return out;
    },
  };
  return { engine, calls };
}

function memoryStore() {
  const map = new Map<string, Uint8Array>();
  const store: PieceStore = {
    get: async (key) => map.get(key) ?? null,
    put: async (key, bytes) => void map.set(key, bytes),
  };
  return { map, store };
}

const PARAGRAPHS = [
  "L'amphore attique",
  "Vers 530 avant notre ère, le peintre Amasis décore cette amphore.",
  "Deux guerriers se font face, sous le regard d'Athéna.",
  "Au revers, Dionysos tend une coupe à deux ménades.",
  "Elle fut trouvée à Vulci, en Étrurie, au XIXe siècle.",
];
const text = (paragraphs: string[]) => paragraphs.join("\n\n");
const codePoints = (s: string) => [...s].length;

describe("cutting a narration at its paragraphs", () => {
  it("makes each paragraph its own piece, and cuts only a paragraph over the limit further", () => {
    expect(narrationPieces(text(["Un.", "Deux.", "Trois."]), limit)).toEqual([
      { text: "Un.", paragraph: 0 },
      { text: "Deux.", paragraph: 1 },
      { text: "Trois.", paragraph: 2 },
    ]);
    // The whole reading packs them (an engine that cannot join reads as few pieces as fit).
    expect(chunkText(text(["Un.", "Deux.", "Trois."]), limit)).toHaveLength(1);
    const long = "Une phrase assez longue pour compter. ".repeat(10).trim();
    const pieces = narrationPieces(`Titre\n \n${long}\n\n\n\nFin.`, { max: 100, measure: "chars" });
    expect(pieces[0]).toEqual({ text: "Titre", paragraph: 0 });
    expect(pieces.at(-1)).toEqual({ text: "Fin.", paragraph: 2 });
    const middle = pieces.filter((p) => p.paragraph === 1);
    expect(middle.length).toBeGreaterThan(3);
    expect(middle.every((p) => p.text.length <= 100 && /\.$/.test(p.text))).toBe(true);
    expect(middle.map((p) => p.text).join(" ")).toBe(long);
    expect(narrationPieces(" \n\n \n", limit)).toEqual([]);
    // A single line break stays inside its paragraph.
    expect(narrationPieces("Ligne une\nligne deux", limit)).toEqual([{ text: "Ligne une\nligne deux", paragraph: 0 }]);
  });

  it("keys pieces by engine, voice, format, language and NFC text", async () => {
    const nfc = "Amphore décorée à Athènes";
    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    const key = await pieceKey("offline", "v", "wav", "fr", nfc);
    expect(key).toMatch(/^[0-9a-f]{64}\.wav$/);
    expect(await pieceKey("offline", "v", "wav", "fr", nfd)).toBe(key);
    const others = await Promise.all([
      pieceKey("offline", "w", "wav", "fr", nfc),
      pieceKey("google", "v", "wav", "fr", nfc),
      pieceKey("offline", "v", "mp3", "fr", nfc),
      pieceKey("offline", "v", "wav", "de", nfc),
      pieceKey("offline", "v", "wav", "fr", `${nfc}.`),
      // No separator makes two tuples one; lone surrogates stay apart (UTF-8 would make both U+FFFD).
      pieceKey("offline", "v\nwav\nfr", "wav", "fr", "t"),
      pieceKey("offline", "v", "wav", "fr", "wav\nfr\nt"),
      pieceKey("offline", "v", "wav", "fr", "\uD800"),
      pieceKey("offline", "v", "wav", "fr", "\uD801"),
    ]);
    expect(new Set([key, ...others]).size).toBe(10);
  });
});

describe("reusing the audio of unchanged paragraphs", () => {
  it("after one paragraph of five is edited: 4 reused, 1 synthesised, the engine reads that paragraph only", async () => {
    const { engine, calls } = wavEngine();
    const { map, store } = memoryStore();
    const first = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal, { pieces: store });
    expect(first).toMatchObject({ pieces: 5, reused: 0, synthesized: 5, synthesizedChars: codePoints(PARAGRAPHS.join("")) });
    expect(calls).toEqual(PARAGRAPHS);
    expect(map.size).toBe(5);
    expect(first.pieceKeys).toEqual([...map.keys()]);

    calls.length = 0;
    const edited = replaced(PARAGRAPHS, 2, "Deux guerriers se font face, sous le regard d'Athéna casquée.");
    const second = await synthesizeNarration([engine], text(edited), "fr", signal, { pieces: store });
    expect(second).toMatchObject({ pieces: 5, reused: 4, synthesized: 1, synthesizedChars: codePoints(edited[2]!) });
    expect(calls).toEqual([edited[2]]);
    // Only the edited paragraph's key changed.
    expect(second.pieceKeys.filter((k) => !first.pieceKeys.includes(k))).toHaveLength(1);
    // The same text in decomposed form (NFD) is the same narration: nothing read again.
    calls.length = 0;
    const again = await synthesizeNarration([engine], text(edited).normalize("NFD"), "fr", signal, { pieces: store });
    expect(again).toMatchObject({ reused: 5, synthesized: 0, synthesizedChars: 0 });
    expect(again.bytes).toEqual(second.bytes);
    expect(calls).toEqual([]);
  });

  it("another voice or language reuses nothing; without a store everything is read", async () => {
    const { store } = memoryStore();
    await synthesizeNarration([wavEngine().engine], text(PARAGRAPHS), "fr", signal, { pieces: store });
    const other = wavEngine({ voice: "another-voice" });
    expect(await synthesizeNarration([other.engine], text(PARAGRAPHS), "fr", signal, { pieces: store })).toMatchObject({
      reused: 0,
      synthesized: 5,
      voice: "another-voice",
    });
    expect(await synthesizeNarration([wavEngine().engine], text(PARAGRAPHS), "de", signal, { pieces: store })).toMatchObject({ reused: 0, synthesized: 5 });
    expect(await synthesizeNarration([wavEngine().engine], text(PARAGRAPHS), "fr", signal)).toMatchObject({ reused: 0, synthesized: 5 });
  });

  it("joins WAV pieces into one valid file: duration = pieces + a pause between paragraphs", async () => {
    const { engine } = wavEngine();
    const narrated = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal, { pieces: memoryStore().store });
    const wav = parseWav(narrated.bytes)!;
    expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, dataOffset: 44 });
    expect(wav.dataOffset + wav.dataBytes).toBe(narrated.bytes.length);
    const samples = PARAGRAPHS.reduce((n, p) => n + Math.round((p.length * 16_000) / 100), 0) + 4 * (PARAGRAPH_PAUSE_MS / 1000) * 16_000;
    expect(wav.dataBytes).toBe(samples * 2);
    expect(narrated.durationMs).toBe(Math.round((samples / 16_000) * 1000));
    expect(new DataView(narrated.bytes.buffer).getUint32(4, true)).toBe(narrated.bytes.length - 8);
  });

  it("joins MP3 pieces frame by frame: one ID3 tag, no summary frame, silent frames between paragraphs", async () => {
    const { engine } = mp3Engine();
    const narrated = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal, { pieces: memoryStore().store });
    const b = narrated.bytes;
    expect(sniffGenerated(b)).toEqual({ contentType: "audio/mpeg", ext: "mp3" });
    // Walk every frame to the last byte: nothing but whole frames after the one tag.
    let at = id3Size(b);
    expect(at).toBe(10);
    let frames = 0;
    let silent = 0;
    while (at < b.length) {
      const frame = mp3Frame(b, at)!;
      expect(frame).not.toBeNull();
      const body = b.subarray(at + 4, at + frame.bytes);
      expect(String.fromCharCode(...body.subarray(32, 36))).not.toBe("Info");
      if (b[at + 1] === 0xfb && body.every((x) => x === 0)) silent++;
      frames++;
      at += frame.bytes;
    }
    expect(at).toBe(b.length);
    const spoken = PARAGRAPHS.reduce((n, p) => n + Math.ceil(p.length / 10), 0);
    const pauseFrames = Math.ceil(((PARAGRAPH_PAUSE_MS / 1000) * 44_100) / 1152);
    expect(frames).toBe(spoken + 4 * pauseFrames);
    expect(narrated.durationMs).toBe(Math.round(((frames * 1152) / 44_100) * 1000));
    expect(mp3DurationMs(b)).toBe(narrated.durationMs);
    expect(silent).toBeGreaterThanOrEqual(4 * pauseFrames);
  });

  it("judges a small frame by its own bytes only: a neighbour's bytes never make it a summary frame", () => {
    // MPEG-2 layer III, 8 kbit/s, 22.05 kHz, mono: 26-byte frames (576 samples each).
    const frame = new Uint8Array(26);
    frame.set([0xff, 0xf3, 0x10, 0xc0]);
    expect(mp3Frame(frame, 0)).toMatchObject({ bytes: 26, sampleRate: 22_050 });
    const piece = new Uint8Array(26 * 4);
    for (let i = 0; i < 4; i++) piece.set(frame, i * 26);
    piece.set(
      [..."VBRI"].map((c) => c.charCodeAt(0)),
      36,
    ); // inside the second frame's body
    const joined = joinPieces(
      "mp3",
      [piece, piece].map((bytes, i) => ({ bytes, pauseBefore: i > 0 })),
    );
    const pause = Math.ceil(((PARAGRAPH_PAUSE_MS / 1000) * 22_050) / 576);
    expect(joined.length).toBe(26 * (8 + pause));
    expect(mp3DurationMs(joined)).toBe(Math.round(((8 + pause) * 576 * 1000) / 22_050));
  });

  it("makes silent MP3 frames of the neighbour's layout, without CRC or padding", () => {
    const like = mp3Bytes(1);
    like[1] = 0xfa; // with a CRC
    like[2] = 0x92; // padded
    const silence = silentMp3(like, 100);
    const frame = mp3Frame(silence, 0)!;
    expect(frame).toMatchObject({ bytes: 417, sampleRate: 44_100 });
    expect(silence.length).toBe(417 * Math.ceil((0.1 * 44_100) / 1152));
    expect([...silence.subarray(0, 4)]).toEqual([0xff, 0xfb, 0x90, 0x64]);
    expect(silence.subarray(4, 417).every((x) => x === 0)).toBe(true);
  });
});

describe("when pieces cannot be reused or joined", () => {
  it("a kept piece of another sample rate: every piece is read again, the file joins at one rate", async () => {
    const { map, store } = memoryStore();
    const old = wavEngine({ rate: 22_050 });
    await synthesizeNarration([old.engine], text(PARAGRAPHS), "fr", signal, { pieces: store });
    const now = wavEngine({ rate: 16_000 });
    const edited = replaced(PARAGRAPHS, 4, "Elle fut trouvée à Vulci.");
    const narrated = await synthesizeNarration([now.engine], text(edited), "fr", signal, { pieces: store });
    expect(narrated).toMatchObject({ reused: 0, synthesized: 5 });
    expect(now.calls).toHaveLength(5);
    expect(parseWav(narrated.bytes)?.sampleRate).toBe(16_000);
    expect(
      joinable(
        "wav",
        [...map.values()].filter((_, i) => i < 1),
      ),
    ).toBe(true);
    expect(joinable("wav", [encodeWav(new Int16Array(10), 16_000), encodeWav(new Int16Array(10), 22_050)])).toBe(false);
    expect(() =>
      joinPieces(
        "wav",
        [encodeWav(new Int16Array(10), 16_000), encodeWav(new Int16Array(10), 8_000)].map((bytes) => ({ bytes, pauseBefore: true })),
      ),
    ).toThrow();
  });

  it("a damaged kept piece is read again rather than trusted", async () => {
    const { map, store } = memoryStore();
    const { engine, calls } = wavEngine();
    await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal, { pieces: store });
    const [firstKey] = map.keys();
    map.set(firstKey!, new TextEncoder().encode("RIFF but not audio"));
    calls.length = 0;
    const narrated = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal, { pieces: store });
    expect(narrated).toMatchObject({ reused: 4, synthesized: 1 });
    expect(calls).toEqual([PARAGRAPHS[0]]);
    expect(parseWav(map.get(firstKey!)!)).not.toBeNull();
  });

  it("a store that fails reads everything and still answers", async () => {
    const broken: PieceStore = { get: () => Promise.reject(new Error("R2 down")), put: () => Promise.reject(new Error("R2 down")) };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const narrated = await synthesizeNarration([wavEngine().engine], text(PARAGRAPHS), "fr", signal, { pieces: broken });
    expect(narrated).toMatchObject({ reused: 0, synthesized: 5 });
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual(
      expect.arrayContaining(["narration piece not read: Error: R2 down", "narration piece not kept: Error: R2 down"]),
    );
    warn.mockRestore();
  });

  it("an engine that says its pieces do not join reads the text whole, keeping nothing", async () => {
    const { engine, calls } = wavEngine();
    const { map, store } = memoryStore();
    const narrated = await synthesizeNarration([{ ...engine, limit: { max: 1000, measure: "chars" }, joinable: false }], text(PARAGRAPHS), "fr", signal, {
      pieces: store,
    });
    expect(calls).toEqual([text(PARAGRAPHS)]);
    expect(narrated).toMatchObject({ pieces: 1, reused: 0, synthesized: 1, pieceKeys: [] });
    expect(map.size).toBe(0);
  });

  it("a retry after a failed piece does not read (or pay for) the pieces already read", async () => {
    const { engine, calls } = wavEngine({
      fail: (_text, call) => (call === 3 ? new SpeechEngineError("offline", "HTTP 503", { retryable: true, status: 503 }) : null),
    });
    const narrated = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal);
    expect(calls).toHaveLength(6);
    expect(narrated).toMatchObject({ reused: 2, synthesized: 3, synthesizedChars: codePoints(PARAGRAPHS.join("")) });
  });

  it("says how many characters were read before every engine failed", async () => {
    const { engine } = wavEngine({
      fail: (text) => (text.startsWith("Au revers") ? new SpeechEngineError("offline", "HTTP 400", { retryable: false, status: 400 }) : null),
    });
    const failure = await synthesizeNarration([engine], text(PARAGRAPHS), "fr", signal).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NoNarration);
    expect((failure as NoNarration).synthesizedChars).toBe(codePoints(PARAGRAPHS.slice(0, 3).join("")));
  });
});
