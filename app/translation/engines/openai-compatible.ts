import { z } from "zod";
import { findLanguage } from "../languages";
import { EngineError } from "./errors";
import { requestJson, trimSlash, type ErrorClassifier } from "./http";
import { parseTranslationArray, translationMessages } from "./llm";
import type { TranslationEngine } from "./types";

const response = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5 and its variants) accept only the default temperature:
 * any other value is a 400 `{"error": {"message": "Unsupported value: 'temperature' does not support 0 with
 * this model. Only the default (1) value is supported.", "type": "invalid_request_error", "param":
 * "temperature", "code": "unsupported_value"}}`, and some answer `"code": "unsupported_parameter"` ("'temperature'
 * is not supported with this model") — as reported against api.openai.com in openai/openai-python#2104,
 * cline/cline#341 and tmc/langchaingo#1355. Their names may carry a router's prefix ("openai/o3-mini").
 */
export function isReasoningModel(model: string): boolean {
  const name = model.trim().toLowerCase().split("/").pop() ?? "";
  return /^(o\d+|gpt-5)([-.:_]|$)/.test(name);
}

const TEMPERATURE_REFUSED = "unsupported_temperature";

const errorBody = z.object({ error: z.object({ param: z.string().nullish(), code: z.string().nullish() }) });

/** A 400 refusing the temperature parameter (either of OpenAI's two codes for it). */
export const classifyOpenAiError: ErrorClassifier = (status, body) => {
  if (status !== 400) return undefined;
  const parsed = errorBody.safeParse(body);
  if (!parsed.success) return undefined;
  const { param, code } = parsed.data.error;
  if (param === "temperature" && (code === "unsupported_value" || code === "unsupported_parameter")) return { retryable: false, code: TEMPERATURE_REFUSED };
  return undefined;
};

/**
 * Any chat-completions endpoint (OpenAI, Mistral, a local Ollama or vLLM…) with the JSON-array protocol.
 * `temperature: 0` keeps translations steady, except for models known to refuse it; a server that refuses
 * it anyway is asked again at once without it, and never sent it again by this engine.
 */
export function openAiCompatibleEngine({ baseUrl, apiKey, model }: { baseUrl: string; apiKey?: string; model: string }): TranslationEngine {
  const url = `${trimSlash(baseUrl)}/chat/completions`;
  let sendTemperature = !isReasoningModel(model);
  return {
    id: "openai-compatible",
    limits: { maxTexts: 40, maxChars: 6_000 },
    supports: (from, to) => findLanguage(from) !== undefined && findLanguage(to) !== undefined,
    async translate(texts, from, to, signal) {
      const call = (withTemperature: boolean) =>
        requestJson(
          "openai-compatible",
          url,
          {
            body: { model, messages: translationMessages(texts, from, to), ...(withTemperature ? { temperature: 0 } : {}) },
            headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
            signal,
            classify: classifyOpenAiError,
          },
          response,
        );
      let body: z.infer<typeof response>;
      const withTemperature = sendTemperature;
      try {
        body = await call(withTemperature);
      } catch (error) {
        if (!withTemperature || !(error instanceof EngineError) || error.code !== TEMPERATURE_REFUSED) throw error;
        sendTemperature = false;
        body = await call(false);
      }
      return parseTranslationArray("openai-compatible", body.choices[0]!.message.content ?? "", texts.length);
    },
  };
}
