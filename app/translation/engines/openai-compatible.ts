import { z } from "zod";
import { findLanguage } from "../languages";
import { requestJson, trimSlash } from "./http";
import { parseTranslationArray, translationMessages } from "./llm";
import type { TranslationEngine } from "./types";

const response = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** Any chat-completions endpoint (OpenAI, Mistral, a local Ollama or vLLM…) with the JSON-array protocol. */
export function openAiCompatibleEngine({ baseUrl, apiKey, model }: { baseUrl: string; apiKey?: string; model: string }): TranslationEngine {
  const url = `${trimSlash(baseUrl)}/chat/completions`;
  return {
    id: "openai-compatible",
    limits: { maxTexts: 40, maxChars: 6_000 },
    supports: (from, to) => findLanguage(from) !== undefined && findLanguage(to) !== undefined,
    async translate(texts, from, to, signal) {
      const body = await requestJson(
        "openai-compatible",
        url,
        {
          body: { model, messages: translationMessages(texts, from, to), temperature: 0 },
          headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          signal,
        },
        response,
      );
      return parseTranslationArray("openai-compatible", body.choices[0]!.message.content ?? "", texts.length);
    },
  };
}
