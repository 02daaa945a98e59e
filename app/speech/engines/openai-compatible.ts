import { postForBytes, trimSlash } from "./http";
import { SpeechEngineError, type SpeechEngine } from "./types";

/**
 * An OpenAI-compatible speech endpoint (OpenAI, or a self-hosted server speaking the same protocol):
 * `POST {base}/v1/audio/speech` with `{model, input (≤ 4,096 characters), voice, response_format}` and a
 * Bearer key; the answer is the audio file itself (https://platform.openai.com/docs/api-reference/audio/createSpeech).
 * OpenAI's voices read every language its speech model was trained on (Whisper's list); one voice for all.
 */
export const OPENAI_SPEECH_LANGS = new Set(
  (
    "af ar hy az be bs bg ca zh zh-Hant hr cs da nl en et fi fr gl de el he hi hu is id it ja kn kk ko lv lt mk ms mr mi ne " +
    "nb fa pl pt ro ru sr sk sl es sw sv fil ta th tr uk ur vi cy"
  ).split(" "),
);

export function openAiSpeechEngine({ baseUrl, apiKey, model, voice }: { baseUrl: string; apiKey?: string; model: string; voice: string }): SpeechEngine {
  const url = `${trimSlash(baseUrl)}/v1/audio/speech`;
  return {
    id: "openai-compatible",
    limit: { max: 4096, measure: "chars" },
    format: "mp3",
    voiceFor: (lang) => (OPENAI_SPEECH_LANGS.has(lang) ? voice : undefined),
    async synthesize(text, lang, chosen, signal) {
      if (!OPENAI_SPEECH_LANGS.has(lang)) throw new SpeechEngineError("openai-compatible", `does not speak ${lang}`, { retryable: false });
      const { bytes } = await postForBytes(
        "openai-compatible",
        url,
        { model, input: text, voice: chosen, response_format: "mp3" },
        apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        signal,
      );
      if (bytes.length === 0) throw new SpeechEngineError("openai-compatible", "answered without audio", { retryable: true });
      return bytes;
    },
  };
}
