import { mp3DurationMs, sniffGenerated } from "../audio-types";
import { postForBytes, trimSlash } from "./http";
import { SpeechEngineError, type SpeechEngine } from "./types";

/**
 * The offline engine for local runs and tests (decisions 090, 102): eSpeak NG, compiled to WebAssembly (npm
 * `espeak-ng`, a devDependency), speaking in a local Node service (scripts/speech-server.mjs) that
 * `npm start`, the end-to-end server and the narration tests start, and pass to the Worker as
 * OFFLINE_SPEECH_URL. The Worker only calls it over HTTP with OpenAI's speech protocol
 * (`POST /v1/audio/speech {model, input, voice, response_format: "mp3"}`), so neither the 18.5 MB module nor its
 * GPL code is in the Worker bundle. It asks for MP3 as production engines give (decision 120): 32 kbit/s,
 * 0.24 MB a minute where eSpeak's WAV was 2.65 MB. `npm run deploy` refuses this engine.
 */

/**
 * The catalogue's languages (app/translation/languages.ts) → eSpeak NG voices (`espeak-ng --voices`, 1.0.2).
 * Left out although eSpeak has a voice: `ja`, whose voice reads kana only (every kanji is spelled out as
 * "Chinese letter" in English). Korean keeps its voice: Hangul is read, only rare Hanja are not. Chinese in
 * both scripts is read as Mandarin (`cmn` reads traditional characters too); `yue` as Cantonese.
 */
export const ESPEAK_VOICES: Readonly<Record<string, string>> = Object.freeze({
  af: "af",
  am: "am",
  ar: "ar",
  as: "as",
  az: "az",
  ba: "ba",
  be: "be",
  bg: "bg",
  bn: "bn",
  bs: "bs",
  ca: "ca",
  cs: "cs",
  cy: "cy",
  da: "da",
  de: "de",
  el: "el",
  en: "en-gb",
  eo: "eo",
  es: "es",
  et: "et",
  eu: "eu",
  fa: "fa",
  fi: "fi",
  fr: "fr-fr",
  ga: "ga",
  gd: "gd",
  gn: "gn",
  gu: "gu",
  haw: "haw",
  he: "he",
  hi: "hi",
  hr: "hr",
  ht: "ht",
  hu: "hu",
  hy: "hy",
  id: "id",
  is: "is",
  it: "it",
  ka: "ka",
  kk: "kk",
  kl: "kl",
  kn: "kn",
  ko: "ko",
  ku: "ku",
  ky: "ky",
  la: "la",
  lb: "lb",
  lt: "lt",
  lv: "lv",
  mi: "mi",
  mk: "mk",
  ml: "ml",
  mr: "mr",
  ms: "ms",
  mt: "mt",
  my: "my",
  nb: "nb",
  ne: "ne",
  nl: "nl",
  om: "om",
  or: "or",
  pa: "pa",
  pap: "pap",
  pl: "pl",
  pt: "pt",
  qu: "qu",
  ro: "ro",
  ru: "ru",
  sd: "sd",
  si: "si",
  sk: "sk",
  sl: "sl",
  sq: "sq",
  sr: "sr",
  sv: "sv",
  sw: "sw",
  ta: "ta",
  te: "te",
  th: "th",
  tk: "tk",
  tn: "tn",
  tr: "tr",
  tt: "tt",
  ug: "ug",
  uk: "uk",
  ur: "ur",
  uz: "uz",
  vi: "vi",
  yue: "yue",
  zh: "cmn",
  "zh-Hant": "cmn",
});

const voiceOf = (lang: string) => (Object.hasOwn(ESPEAK_VOICES, lang) ? ESPEAK_VOICES[lang] : undefined);

export function offlineSpeechEngine({ url }: { url?: string } = {}): SpeechEngine {
  return {
    id: "offline",
    // eSpeak itself has no limit; pieces keep each call short (about 90 s of audio, under half a second).
    limit: { max: 2000, measure: "chars" },
    format: "mp3",
    voiceFor: voiceOf,
    async synthesize(text, lang, voice, signal) {
      if (voiceOf(lang) === undefined) throw new SpeechEngineError("offline", `eSpeak NG has no voice for ${lang}`, { retryable: false });
      if (!url) {
        throw new SpeechEngineError("offline", "the local eSpeak service is not running (OFFLINE_SPEECH_URL is not set; npm start starts it)", {
          retryable: false,
        });
      }
      let bytes: Uint8Array;
      try {
        ({ bytes } = await postForBytes(
          "offline",
          `${trimSlash(url)}/v1/audio/speech`,
          { model: "espeak-ng", input: text, voice, response_format: "mp3" },
          {},
          signal,
        ));
      } catch (error) {
        if (error instanceof SpeechEngineError && error.status === undefined) {
          throw new SpeechEngineError("offline", `the local eSpeak service did not answer; is npm start still running? (${error.message})`, {
            retryable: true,
            cause: error,
          });
        }
        throw error;
      }
      if (sniffGenerated(bytes)?.ext !== "mp3" || !mp3DurationMs(bytes))
        throw new SpeechEngineError("offline", "the local eSpeak service answered without an MP3 file", { retryable: false });
      return bytes;
    },
  };
}
