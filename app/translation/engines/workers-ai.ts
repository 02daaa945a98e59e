import { z } from "zod";
import { m2m100Code, findLanguage } from "../languages";
import { EngineError } from "./errors";
import { maxTokensFor, parseTranslationArray, translationMessages } from "./llm";
import type { AiRunner, TranslationEngine } from "./types";
import type { EngineId } from "./codes";

export const M2M100_MODEL = "@cf/meta/m2m100-1.2b";

/**
 * The binding's failures as EngineErrors; the local session's "needs to be run remotely" is final. Every engine
 * that calls the binding throws through it (translation, easy to read, visitors' answers).
 */
export function aiError(engine: EngineId, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/run remotely|not supported/i.test(message)) {
    return new EngineError(engine, "the AI binding only works on Cloudflare; a local session cannot use it (choose pseudo or libretranslate locally)", {
      retryable: false,
      cause: error,
    });
  }
  return new EngineError(engine, `Workers AI failed: ${message.slice(0, 200)}`, { retryable: true, cause: error });
}

const m2m100Output = z.object({ translated_text: z.string() });

/** Meta's m2m100 through the AI binding: one text per call, so machineTranslate runs them side by side. */
export function workersAiEngine(ai: AiRunner): TranslationEngine {
  return {
    id: "workers-ai",
    limits: { maxTexts: 1, maxChars: Number.POSITIVE_INFINITY },
    supports: (from, to) => m2m100Code(from) !== undefined && m2m100Code(to) !== undefined,
    async translate(texts, from, to, signal) {
      const source = m2m100Code(from);
      const target = m2m100Code(to);
      if (!source || !target) {
        throw new EngineError("workers-ai", `m2m100 does not serve ${from} → ${to}`, { retryable: false });
      }
      const out: string[] = [];
      // Sequential on purpose: machineTranslate sends one text per call and bounds the parallelism itself.
      for (const text of texts) {
        let answer: unknown;
        try {
          answer = await ai.run(M2M100_MODEL, { text, source_lang: source, target_lang: target }, { signal });
        } catch (error) {
          throw aiError("workers-ai", error, signal);
        }
        const parsed = m2m100Output.safeParse(answer);
        if (!parsed.success) throw new EngineError("workers-ai", "m2m100 answered without translated_text", { retryable: true });
        out.push(parsed.data.translated_text);
      }
      return out;
    },
  };
}

const llmOutput = z.object({ response: z.unknown() });

/** An instruction model through the same binding, for the languages m2m100 lacks (Guarani, Basque…). */
export function workersAiLlmEngine(ai: AiRunner, model: string): TranslationEngine {
  return {
    id: "workers-ai-llm",
    limits: { maxTexts: 20, maxChars: 3_000 },
    supports: (from, to) => findLanguage(from) !== undefined && findLanguage(to) !== undefined,
    async translate(texts, from, to, signal) {
      let answer: unknown;
      try {
        answer = await ai.run(model, { messages: translationMessages(texts, from, to), max_tokens: maxTokensFor(texts), temperature: 0 }, { signal });
      } catch (error) {
        throw aiError("workers-ai-llm", error, signal);
      }
      const parsed = llmOutput.safeParse(answer);
      if (!parsed.success) throw new EngineError("workers-ai-llm", "the model answered without a response", { retryable: true });
      // Workers AI hands back already-parsed JSON when the whole answer is JSON, a string otherwise.
      return parseTranslationArray("workers-ai-llm", parsed.data.response, texts.length);
    },
  };
}
