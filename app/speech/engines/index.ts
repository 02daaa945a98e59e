/**
 * Speech engines (decision 090), as for translation: one interface, an adapter per provider, ordered by
 * the deployment's SPEECH_ENGINES. `synthesizeNarration` cuts the text at its paragraphs (and a long one to
 * the engine's limit), reads the pieces one after the other, reusing those a piece store keeps (decision
 * 106), and joins them into one file; a failing engine hands over to the next.
 */
import { ConfigError, readConfig, type AppConfig } from "~/config.server";
import { sha256Hex } from "~/lib/crypto";
import { chunkText, narrationPieces } from "../chunk";
import { durationMs, joinMp3, sniffGenerated } from "../audio-types";
import { joinable, joinPieces } from "../join";
import { joinWav } from "../wav";
import { googleSpeechEngine } from "./google";
import { offlineSpeechEngine } from "./offline";
import { openAiSpeechEngine } from "./openai-compatible";
import { SpeechEngineError, type AiRunner, type SpeechEngine, type SpeechEngineId, type SpeechFormat } from "./types";
import { workersAiSpeechEngine } from "./workers-ai";

export { SPEECH_ENGINE_IDS, SpeechEngineError, type SpeechEngine, type SpeechEngineId } from "./types";

export function createSpeechEngine(id: SpeechEngineId, { AI, config }: { AI?: unknown; config: AppConfig }): SpeechEngine {
  const need = (name: keyof AppConfig): string => {
    const value = config[name];
    if (typeof value !== "string") throw new ConfigError(`${name} is required because SPEECH_ENGINES lists ${id}`);
    return value;
  };
  switch (id) {
    case "offline":
      return offlineSpeechEngine({ url: config.OFFLINE_SPEECH_URL });
    case "workers-ai":
      if (!AI) throw new ConfigError("SPEECH_ENGINES lists workers-ai, but the Worker has no AI binding");
      return workersAiSpeechEngine(AI as AiRunner);
    case "openai-compatible":
      return openAiSpeechEngine({
        baseUrl: need("SPEECH_OPENAI_BASE_URL"),
        apiKey: config.SPEECH_OPENAI_API_KEY,
        model: config.SPEECH_OPENAI_MODEL,
        voice: config.SPEECH_OPENAI_VOICE,
      });
    case "google":
      return googleSpeechEngine({ apiKey: need("GOOGLE_TTS_API_KEY"), url: config.GOOGLE_TTS_URL });
  }
}

const cache = new WeakMap<object, SpeechEngine[]>();

/** The ordered speech engines of this deployment, built once per env object. */
export function speechEnginesFromEnv(env: Record<string, unknown> & { AI?: unknown }): SpeechEngine[] {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = readConfig(env);
  const engines = config.SPEECH_ENGINES.map((id) => createSpeechEngine(id, { AI: env.AI, config }));
  cache.set(env, engines);
  return engines;
}

/** The first engine that speaks the language, with its voice; undefined when none does. */
export function speechFor(engines: readonly SpeechEngine[], lang: string): { engine: SpeechEngine; voice: string } | undefined {
  for (const engine of engines) {
    const voice = engine.voiceFor(lang);
    if (voice) return { engine, voice };
  }
  return undefined;
}

export interface Narrated {
  bytes: Uint8Array;
  contentType: string;
  ext: string;
  durationMs: number | null;
  engine: SpeechEngineId;
  voice: string;
  /** Pieces the text was cut into. */
  pieces: number;
  /** Pieces whose audio was read back from the piece store (or an earlier attempt), not synthesised. */
  reused: number;
  /** Pieces the engine was called for (by the engine that succeeded). */
  synthesized: number;
  /**
   * Characters (code points) sent to engines and answered, every attempt and engine of this call: what a
   * spending bound counts. Reused pieces cost nothing.
   */
  synthesizedChars: number;
  /** The piece store keys this narration is made of (empty when the engine reads whole). */
  pieceKeys: string[];
}

/**
 * Where the audio of each piece is kept between generations (decision 106): keys come from
 * `pieceKey` (engine, voice, format, language and the piece's NFC text); the store decides where they live
 * (app/narration/pieces.server.ts: one R2 prefix per museum, article and language).
 */
export interface PieceStore {
  get(key: string): Promise<Uint8Array | null>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

export interface SynthesizeOptions {
  /** Reuse (and keep) the audio of pieces already read; without it every piece is synthesised. */
  pieces?: PieceStore;
}

/** Every engine failed (or none speaks the language): the page keeps the browser's read-aloud. */
export class NoNarration extends Error {
  override name = "NoNarration";
  constructor(
    message: string,
    readonly failures: readonly SpeechEngineError[] = [],
    /** Characters engines did read (and may bill) before the failure. */
    readonly synthesizedChars = 0,
  ) {
    super(message);
  }
}

/** A piece's key: SHA-256 of what makes its audio (engine, voice, format, language, NFC text), then its format. */
export async function pieceKey(engine: SpeechEngineId, voice: string, format: SpeechFormat, lang: string, text: string): Promise<string> {
  // JSON: no separator inside a voice name can make two tuples one, and lone surrogates stay distinct
  // (written as \uD8xx escapes) where UTF-8 encoding would turn them all into U+FFFD.
  return `${await sha256Hex(JSON.stringify([engine, voice, format, lang, text.normalize("NFC")]))}.${format}`;
}

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/** What one call of synthesizeNarration shares between its attempts: pieces read so far, characters spent. */
interface Run {
  store: PieceStore | undefined;
  /** Pieces synthesised by earlier attempts of this call (a retry does not pay for them twice). */
  memo: Map<string, Uint8Array>;
  chars: number;
}

async function readPiece(run: Run, key: string, format: SpeechFormat): Promise<Uint8Array | null> {
  const bytes =
    run.memo.get(key) ?? (await run.store?.get(key).catch((error: unknown) => (console.warn(`narration piece not read: ${String(error)}`), null))) ?? null;
  // A piece that is not (whole) audio of the engine's format is read again rather than trusted.
  return bytes && sniffGenerated(bytes)?.ext === format ? bytes : null;
}

async function synthesizePiece(
  run: Run,
  engine: SpeechEngine,
  voice: string,
  text: string,
  lang: string,
  key: string,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const bytes = await engine.synthesize(text, lang, voice, signal);
  run.chars += codePoints(text);
  if (sniffGenerated(bytes)?.ext !== engine.format)
    throw new SpeechEngineError(engine.id, `answered a piece that is not ${engine.format} audio`, { retryable: false });
  run.memo.set(key, bytes);
  await run.store?.put(key, bytes).catch((error: unknown) => console.warn(`narration piece not kept: ${String(error)}`));
  return bytes;
}

function finish(
  engine: SpeechEngine,
  voice: string,
  joined: Uint8Array,
  counts: Pick<Narrated, "pieces" | "reused" | "synthesized" | "synthesizedChars" | "pieceKeys">,
): Narrated {
  const type = sniffGenerated(joined);
  if (!type) throw new SpeechEngineError(engine.id, "answered with audio of an unknown format", { retryable: false });
  return { bytes: joined, contentType: type.contentType, ext: type.ext, durationMs: durationMs(joined, type), engine: engine.id, voice, ...counts };
}

/** An engine whose pieces do not join: the text in as few calls as its limit allows, nothing reused. */
async function wholeWithEngine(run: Run, engine: SpeechEngine, voice: string, text: string, lang: string, signal: AbortSignal): Promise<Narrated> {
  const pieces = chunkText(text, engine.limit);
  if (pieces.length === 0) throw new SpeechEngineError(engine.id, "nothing to read", { retryable: false });
  const files: Uint8Array[] = [];
  for (const piece of pieces) {
    files.push(await engine.synthesize(piece, lang, voice, signal));
    run.chars += codePoints(piece);
  }
  let joined: Uint8Array;
  try {
    joined = files.length === 1 ? files[0]! : engine.format === "wav" ? joinWav(files) : joinMp3(files);
  } catch (error) {
    throw new SpeechEngineError(engine.id, "answered with pieces that cannot be joined", { retryable: false, cause: error });
  }
  return finish(engine, voice, joined, { pieces: pieces.length, reused: 0, synthesized: pieces.length, synthesizedChars: run.chars, pieceKeys: [] });
}

/**
 * Paragraph by paragraph (decision 106): each piece's audio is read back when the store has it, else
 * synthesised and kept; then joined with a pause between paragraphs. Pieces that turn out not to join
 * (a reused piece of an earlier output rate) are all synthesised again, whole.
 */
async function withEngine(run: Run, engine: SpeechEngine, voice: string, text: string, lang: string, signal: AbortSignal): Promise<Narrated> {
  if (engine.joinable === false) return wholeWithEngine(run, engine, voice, text, lang, signal);
  const pieces = narrationPieces(text, engine.limit);
  if (pieces.length === 0) throw new SpeechEngineError(engine.id, "nothing to read", { retryable: false });
  const keys = await Promise.all(pieces.map((p) => pieceKey(engine.id, voice, engine.format, lang, p.text)));
  const files: Uint8Array[] = [];
  const reusedAt: number[] = [];
  let synthesized = 0;
  for (const [i, piece] of pieces.entries()) {
    signal.throwIfAborted();
    const kept = await readPiece(run, keys[i]!, engine.format);
    if (kept) reusedAt.push(i);
    else synthesized++;
    files.push(kept ?? (await synthesizePiece(run, engine, voice, piece.text, lang, keys[i]!, signal)));
  }
  if (!joinable(engine.format, files) && reusedAt.length > 0) {
    for (const i of reusedAt) files[i] = await synthesizePiece(run, engine, voice, pieces[i]!.text, lang, keys[i]!, signal);
    synthesized += reusedAt.length;
    reusedAt.length = 0;
  }
  let joined: Uint8Array;
  try {
    joined = joinPieces(
      engine.format,
      files.map((bytes, i) => ({ bytes, pauseBefore: i > 0 && pieces[i]!.paragraph !== pieces[i - 1]!.paragraph })),
    );
  } catch (error) {
    throw new SpeechEngineError(engine.id, "answered with pieces that cannot be joined", { retryable: false, cause: error });
  }
  return finish(engine, voice, joined, { pieces: pieces.length, reused: reusedAt.length, synthesized, synthesizedChars: run.chars, pieceKeys: keys });
}

/**
 * The narration of `text` in `lang`: the first engine that speaks it, then the next ones if it fails
 * (one retry of a retryable failure each). Throws NoNarration when none succeeds.
 */
export async function synthesizeNarration(
  engines: readonly SpeechEngine[],
  text: string,
  lang: string,
  signal: AbortSignal,
  options: SynthesizeOptions = {},
): Promise<Narrated> {
  const failures: SpeechEngineError[] = [];
  const run: Run = { store: options.pieces, memo: new Map(), chars: 0 };
  for (const engine of engines) {
    const voice = engine.voiceFor(lang);
    if (!voice) continue;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await withEngine(run, engine, voice, text, lang, signal);
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const failure = error instanceof SpeechEngineError ? error : new SpeechEngineError(engine.id, String(error), { retryable: false, cause: error });
        if (!failure.retryable || attempt === 1) {
          failures.push(failure);
          break;
        }
      }
    }
  }
  throw new NoNarration(failures.length === 0 ? `no speech engine speaks ${lang}` : failures.map((f) => f.message).join("; "), failures, run.chars);
}
