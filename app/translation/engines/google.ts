import { z } from "zod";
import { findLanguage } from "../languages";
import { GOOGLE_CODES } from "./codes";
import { EngineError } from "./errors";
import { requestJson } from "./http";
import type { TranslationEngine } from "./types";

const response = z.object({ data: z.object({ translations: z.array(z.object({ translatedText: z.string() })) }) });

const code = (tag: string) => {
  const lang = findLanguage(tag);
  return lang ? GOOGLE_CODES.get(lang.code) : undefined;
};

/** Google Cloud Translation v2 (basic), plain-text format so nothing comes back HTML-escaped. */
export function googleEngine({ apiKey, url }: { apiKey: string; url: string }): TranslationEngine {
  const endpoint = `${url}${url.includes("?") ? "&" : "?"}key=${encodeURIComponent(apiKey)}`;
  return {
    id: "google",
    limits: { maxTexts: 100, maxChars: 10_000 },
    supports: (from, to) => code(from) !== undefined && code(to) !== undefined,
    async translate(texts, from, to, signal) {
      const source = code(from);
      const target = code(to);
      if (!source || !target) throw new EngineError("google", `Google does not serve ${from} → ${to}`, { retryable: false });
      const body = await requestJson("google", endpoint, { body: { q: texts, source, target, format: "text" }, signal }, response);
      return body.data.translations.map((t) => t.translatedText);
    },
  };
}
