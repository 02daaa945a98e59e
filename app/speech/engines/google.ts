import { z } from "zod";
import { fromBase64, postForBytes } from "./http";
import { SpeechEngineError, type SpeechEngine } from "./types";

/**
 * Google Cloud Text-to-Speech v1 (https://cloud.google.com/text-to-speech/docs/reference/rest/v1/text/synthesize):
 * `POST …/v1/text:synthesize?key=…` with `{input: {text}, voice: {languageCode}, audioConfig: {audioEncoding: "MP3"}}`;
 * the answer is `{audioContent: base64}`. Input is limited to 5,000 bytes (https://cloud.google.com/text-to-speech/quotas).
 * Google chooses the language's default voice when only `languageCode` is given.
 */
const CODES: Record<string, string> = {
  af: "af-ZA",
  ar: "ar-XA",
  bg: "bg-BG",
  bn: "bn-IN",
  ca: "ca-ES",
  cs: "cs-CZ",
  da: "da-DK",
  de: "de-DE",
  el: "el-GR",
  en: "en-US",
  es: "es-ES",
  et: "et-EE",
  eu: "eu-ES",
  fi: "fi-FI",
  fil: "fil-PH",
  fr: "fr-FR",
  gl: "gl-ES",
  gu: "gu-IN",
  he: "he-IL",
  hi: "hi-IN",
  hu: "hu-HU",
  id: "id-ID",
  is: "is-IS",
  it: "it-IT",
  ja: "ja-JP",
  kn: "kn-IN",
  ko: "ko-KR",
  lt: "lt-LT",
  lv: "lv-LV",
  ml: "ml-IN",
  mr: "mr-IN",
  ms: "ms-MY",
  nb: "nb-NO",
  nl: "nl-NL",
  pa: "pa-IN",
  pl: "pl-PL",
  pt: "pt-PT",
  ro: "ro-RO",
  ru: "ru-RU",
  sk: "sk-SK",
  sr: "sr-RS",
  sv: "sv-SE",
  ta: "ta-IN",
  te: "te-IN",
  th: "th-TH",
  tr: "tr-TR",
  uk: "uk-UA",
  ur: "ur-IN",
  vi: "vi-VN",
  yue: "yue-HK",
  zh: "cmn-CN",
  "zh-Hant": "cmn-TW",
};

const answer = z.object({ audioContent: z.string().min(1) });

export function googleSpeechEngine({ apiKey, url }: { apiKey: string; url: string }): SpeechEngine {
  const endpoint = `${url}${url.includes("?") ? "&" : "?"}key=${encodeURIComponent(apiKey)}`;
  return {
    id: "google",
    limit: { max: 5000, measure: "bytes" },
    format: "mp3",
    voiceFor: (lang) => CODES[lang],
    async synthesize(text, lang, voice, signal) {
      if (!CODES[lang]) throw new SpeechEngineError("google", `does not speak ${lang}`, { retryable: false });
      const { bytes } = await postForBytes(
        "google",
        endpoint,
        { input: { text }, voice: { languageCode: voice }, audioConfig: { audioEncoding: "MP3" } },
        { accept: "application/json" },
        signal,
      );
      let parsed;
      try {
        parsed = answer.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
      } catch (error) {
        throw new SpeechEngineError("google", "answered with something other than JSON", { retryable: true, cause: error });
      }
      if (!parsed.success) throw new SpeechEngineError("google", "answered without audioContent", { retryable: true });
      try {
        return fromBase64(parsed.data.audioContent);
      } catch (error) {
        throw new SpeechEngineError("google", "audioContent is not base64", { retryable: true, cause: error });
      }
    },
  };
}
