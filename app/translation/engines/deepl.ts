import { z } from "zod";
import { findLanguage } from "../languages";
import { DEEPL_SOURCE_CODES, DEEPL_TARGET_CODES } from "./codes";
import { EngineError } from "./errors";
import { requestJson, trimSlash } from "./http";
import type { TranslationEngine } from "./types";

const response = z.object({ translations: z.array(z.object({ text: z.string() })) });

/** Free-plan keys end in ":fx" and must use the free host. */
export function deeplBaseUrl(apiKey: string): string {
  return apiKey.endsWith(":fx") ? "https://api-free.deepl.com" : "https://api.deepl.com";
}

const codes = (from: string, to: string) => {
  const source = findLanguage(from)?.code;
  const target = findLanguage(to)?.code;
  return {
    source: source === undefined ? undefined : DEEPL_SOURCE_CODES.get(source),
    target: target === undefined ? undefined : DEEPL_TARGET_CODES.get(target),
  };
};

/** DeepL API v2 `/v2/translate`; up to 50 texts per request (DeepL's own limit). */
export function deeplEngine({ apiKey, baseUrl }: { apiKey: string; baseUrl?: string }): TranslationEngine {
  const url = `${trimSlash(baseUrl ?? deeplBaseUrl(apiKey))}/v2/translate`;
  return {
    id: "deepl",
    limits: { maxTexts: 50, maxChars: 30_000 },
    supports(from, to) {
      const { source, target } = codes(from, to);
      return source !== undefined && target !== undefined;
    },
    async translate(texts, from, to, signal) {
      const { source, target } = codes(from, to);
      if (!source || !target) throw new EngineError("deepl", `DeepL does not serve ${from} → ${to}`, { retryable: false });
      const body = await requestJson(
        "deepl",
        url,
        { body: { text: texts, source_lang: source, target_lang: target }, headers: { authorization: `DeepL-Auth-Key ${apiKey}` }, signal },
        response,
      );
      return body.translations.map((t) => t.text);
    },
  };
}
