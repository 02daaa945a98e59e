/**
 * Speech engines (decision 090), as for translation: one interface, an adapter per provider, ordered by
 * the deployment's SPEECH_ENGINES. `synthesizeNarration` cuts the text to the engine's limit, reads the
 * pieces one after the other and joins them into one file; a failing engine hands over to the next.
 */
import { ConfigError, readConfig, type AppConfig } from "~/config.server";
import { chunkText } from "../chunk";
import { durationMs, joinMp3, sniffGenerated } from "../audio-types";
import { joinWav } from "../wav";
import { googleSpeechEngine } from "./google";
import { offlineSpeechEngine } from "./offline";
import { openAiSpeechEngine } from "./openai-compatible";
import { SpeechEngineError, type AiRunner, type SpeechEngine, type SpeechEngineId } from "./types";
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
}

/** Every engine failed (or none speaks the language): the page keeps the browser's read-aloud. */
export class NoNarration extends Error {
  override name = "NoNarration";
  constructor(
    message: string,
    readonly failures: readonly SpeechEngineError[] = [],
  ) {
    super(message);
  }
}

async function withEngine(engine: SpeechEngine, voice: string, text: string, lang: string, signal: AbortSignal): Promise<Narrated> {
  const pieces = chunkText(text, engine.limit);
  if (pieces.length === 0) throw new SpeechEngineError(engine.id, "nothing to read", { retryable: false });
  const files: Uint8Array[] = [];
  for (const piece of pieces) files.push(await engine.synthesize(piece, lang, voice, signal));
  let joined: Uint8Array;
  try {
    joined = files.length === 1 ? files[0]! : engine.format === "wav" ? joinWav(files) : joinMp3(files);
  } catch (error) {
    throw new SpeechEngineError(engine.id, "answered with pieces that cannot be joined", { retryable: false, cause: error });
  }
  const type = sniffGenerated(joined);
  if (!type) throw new SpeechEngineError(engine.id, "answered with audio of an unknown format", { retryable: false });
  return { bytes: joined, contentType: type.contentType, ext: type.ext, durationMs: durationMs(joined, type), engine: engine.id, voice, pieces: pieces.length };
}

/**
 * The narration of `text` in `lang`: the first engine that speaks it, then the next ones if it fails
 * (one retry of a retryable failure each). Throws NoNarration when none succeeds.
 */
export async function synthesizeNarration(engines: readonly SpeechEngine[], text: string, lang: string, signal: AbortSignal): Promise<Narrated> {
  const failures: SpeechEngineError[] = [];
  for (const engine of engines) {
    const voice = engine.voiceFor(lang);
    if (!voice) continue;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        return await withEngine(engine, voice, text, lang, signal);
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
  throw new NoNarration(failures.length === 0 ? `no speech engine speaks ${lang}` : failures.map((f) => f.message).join("; "), failures);
}
