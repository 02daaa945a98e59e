import { fromBase64 } from "./http";
import { SpeechEngineError, type AiRunner, type SpeechEngine } from "./types";

export const MELOTTS_MODEL = "@cf/myshell-ai/melotts";

/**
 * MeloTTS through the AI binding (https://developers.cloudflare.com/workers-ai/models/melotts/): input
 * `{prompt (min 1 char), lang (default "en")}`, output `{audio: base64 MP3}` or the MP3 bytes themselves.
 * It speaks English, French, Spanish, Chinese, Japanese and Korean; one voice per language. The docs give
 * no input limit: pieces of at most 1,000 characters keep each call short (decision 090).
 */
// The docs describe `lang` with ISO 639-1 examples ("en", "fr"); the same codes are sent for the others.
const LANGS: Record<string, string> = { en: "en", fr: "fr", es: "es", zh: "zh", ja: "ja", ko: "ko" };

async function bytesOf(answer: unknown): Promise<Uint8Array | null> {
  if (answer instanceof Uint8Array) return answer;
  if (answer instanceof ArrayBuffer) return new Uint8Array(answer);
  if (answer instanceof ReadableStream) return new Uint8Array(await new Response(answer).arrayBuffer());
  if (typeof answer === "object" && answer !== null && typeof (answer as { audio?: unknown }).audio === "string") {
    return fromBase64((answer as { audio: string }).audio);
  }
  return null;
}

export function workersAiSpeechEngine(ai: AiRunner): SpeechEngine {
  return {
    id: "workers-ai",
    limit: { max: 1000, measure: "chars" },
    format: "mp3",
    voiceFor: (lang) => (LANGS[lang] ? `melotts-${lang}` : undefined),
    async synthesize(text, lang, _voice, signal) {
      const code = LANGS[lang];
      if (!code) throw new SpeechEngineError("workers-ai", `MeloTTS does not speak ${lang}`, { retryable: false });
      let answer: unknown;
      try {
        answer = await ai.run(MELOTTS_MODEL, { prompt: text, lang: code }, { signal });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const message = error instanceof Error ? error.message : String(error);
        const remoteOnly = /run remotely|not supported/i.test(message);
        throw new SpeechEngineError("workers-ai", remoteOnly ? "the AI binding only works on Cloudflare" : `Workers AI failed: ${message.slice(0, 200)}`, {
          retryable: !remoteOnly,
          cause: error,
        });
      }
      let bytes: Uint8Array | null;
      try {
        bytes = await bytesOf(answer);
      } catch (error) {
        throw new SpeechEngineError("workers-ai", "MeloTTS answered with audio that is not base64", { retryable: true, cause: error });
      }
      if (!bytes || bytes.length === 0) throw new SpeechEngineError("workers-ai", "MeloTTS answered without audio", { retryable: true });
      return bytes;
    },
  };
}
