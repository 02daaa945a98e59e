import type { ChunkLimit } from "../chunk";

/** Speech engines, in the order SPEECH_ENGINES may list them (decision 090). */
export const SPEECH_ENGINE_IDS = ["workers-ai", "openai-compatible", "google", "offline"] as const;
export type SpeechEngineId = (typeof SPEECH_ENGINE_IDS)[number];

/** The file format an engine answers in; pieces of one format are joined into one file. */
export type SpeechFormat = "mp3" | "wav";

export interface SpeechEngine {
  readonly id: SpeechEngineId;
  /** The largest text one call accepts; longer narrations are cut (app/speech/chunk.ts). */
  readonly limit: ChunkLimit;
  readonly format: SpeechFormat;
  /**
   * Whether pieces this engine reads separately can be joined into one file (decision 106): then a
   * narration is read paragraph by paragraph and the audio of unchanged paragraphs is reused after an edit.
   * Default: true (WAV and MP3 join). An engine whose pieces do not (a format with its own container, a
   * voice whose rate changes between calls) says false and is always read whole.
   */
  readonly joinable?: boolean;
  /** The voice this engine reads a catalogue language with, or undefined when it does not serve it. */
  voiceFor(lang: string): string | undefined;
  /** One piece of text (within `limit`) as audio bytes of `format`; throws SpeechEngineError. */
  synthesize(text: string, lang: string, voice: string, signal: AbortSignal): Promise<Uint8Array>;
}

/** A failed call. Messages never hold keys or addresses. */
export class SpeechEngineError extends Error {
  override name = "SpeechEngineError";
  readonly engine: SpeechEngineId;
  readonly retryable: boolean;
  readonly status: number | undefined;
  constructor(engine: SpeechEngineId, message: string, options: { retryable: boolean; status?: number; cause?: unknown }) {
    super(`${engine}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.engine = engine;
    this.retryable = options.retryable;
    this.status = options.status;
  }
}

/** The slice of the Workers AI binding the engine uses. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}
