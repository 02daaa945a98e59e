// The engines that write an easy-to-read version (issue 22 §2, decision 095): the deployment's LLM
// translation engines (`workers-ai-llm`, `openai-compatible`), asked with the easy-to-read rules of
// docs/easy-to-read.md instead of a translation prompt, and the offline `pseudo` rewriter for local runs
// and tests. Same JSON-array protocol as translation (app/translation/engines/llm.ts): N texts in, exactly
// N rewritten texts out, so a model that merges or drops a paragraph is caught.
import { z } from "zod";
import type { AppConfig } from "~/config.server";
import { EngineError } from "~/translation/engines/errors";
import { aiError } from "~/translation/engines/workers-ai";
import { requestJson, trimSlash } from "~/translation/engines/http";
import { maxTokensFor, parseTranslationArray, type ChatMessage } from "~/translation/engines/llm";
import { classifyOpenAiError, isReasoningModel } from "~/translation/engines/openai-compatible";
import type { AiRunner } from "~/translation/engines/types";
import { findLanguage } from "~/translation/languages";

export type EasyReadEngineId = "workers-ai-llm" | "openai-compatible" | "pseudo";

export interface EasyReadEngine {
  readonly id: EasyReadEngineId;
  /** Texts per call and characters per call. */
  readonly limits: { maxTexts: number; maxChars: number };
  /** Exactly one rewritten text per input, in order, in the same language; throws an EngineError. */
  rewrite(texts: readonly string[], lang: string, signal: AbortSignal): Promise<string[]>;
}

/**
 * The rules given to the model, from docs/easy-to-read.md (after Inclusion Europe's "Information for all",
 * the European standards for making information easy to read and understand, and the French FALC rules).
 */
export const EASY_READ_RULES = [
  "Use short sentences: one idea per sentence, at most about 15 words.",
  "Put each sentence on its own line.",
  "Use common, everyday words. Keep the same word for the same thing all along.",
  "When a hard word or a name is needed (a person, a place, a technique, a period), keep it and explain it in a short sentence.",
  "Write numbers in digits (7, not seven). Give dates as years (in 1530) rather than centuries when the text allows it.",
  "Speak to the reader directly and use the active voice. Avoid negatives, metaphors, abbreviations and percentages.",
  "Keep every fact of the original that matters; drop details that do not help to understand. Never invent a fact.",
  "Leave web addresses, e-mail addresses and anything between ⟦ and ⟧ exactly as they are.",
] as const;

function describe(code: string): string {
  const lang = findLanguage(code);
  return lang ? `${lang.en} (${lang.code}, "${lang.endonym}")` : code;
}

/** The chat messages asking for the easy-to-read version of `texts`, written in `lang`. */
export function easyReadMessages(texts: readonly string[], lang: string): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        `You rewrite texts written by a museum for its visitors into an easy-to-read version in ${describe(lang)}, ` +
        "for people with reading difficulties, children and people learning the language. Rules:\n- " +
        EASY_READ_RULES.join("\n- ") +
        `\nThe user sends a JSON array of ${texts.length} strings (paragraphs, headings, image descriptions). Reply with a JSON ` +
        `array of exactly ${texts.length} strings: the easy-to-read version of each item, in the same order and the same ` +
        "language. Rewrite every item on its own; never merge, split, skip or add items. A short item (a heading, a " +
        "label) stays short and on one line. Reply with the JSON array only.",
    },
    { role: "user", content: JSON.stringify(texts) },
  ];
}

const llmOutput = z.object({ response: z.unknown() });

/** An instruction model through the Workers AI binding (as the `workers-ai-llm` translation engine). */
export function workersAiLlmRewriter(ai: AiRunner, model: string): EasyReadEngine {
  return {
    id: "workers-ai-llm",
    limits: { maxTexts: 20, maxChars: 3_000 },
    async rewrite(texts, lang, signal) {
      let answer: unknown;
      try {
        answer = await ai.run(model, { messages: easyReadMessages(texts, lang), max_tokens: maxTokensFor(texts), temperature: 0.2 }, { signal });
      } catch (error) {
        throw aiError("workers-ai-llm", error, signal);
      }
      const parsed = llmOutput.safeParse(answer);
      if (!parsed.success) throw new EngineError("workers-ai-llm", "the model answered without a response", { retryable: true });
      return parseTranslationArray("workers-ai-llm", parsed.data.response, texts.length);
    },
  };
}

const chatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * Any chat-completions endpoint (https://platform.openai.com/docs/api-reference/chat/create): POST
 * `{baseUrl}/chat/completions` with `model` and `messages`, the answer in `choices[0].message.content`.
 */
export function openAiCompatibleRewriter({ baseUrl, apiKey, model }: { baseUrl: string; apiKey?: string; model: string }): EasyReadEngine {
  const url = `${trimSlash(baseUrl)}/chat/completions`;
  return {
    id: "openai-compatible",
    limits: { maxTexts: 40, maxChars: 6_000 },
    async rewrite(texts, lang, signal) {
      const body = await requestJson(
        "openai-compatible",
        url,
        {
          body: { model, messages: easyReadMessages(texts, lang), ...(isReasoningModel(model) ? {} : { temperature: 0.2 }) },
          headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
          signal,
          classify: classifyOpenAiError,
        },
        chatResponse,
      );
      return parseTranslationArray("openai-compatible", body.choices[0]!.message.content ?? "", texts.length);
    },
  };
}

/**
 * The offline stand-in (no model): one sentence per line, each prefixed "▸ " so a page shows at a glance
 * that it reads the easy version. Deterministic, same language; only for local runs and tests.
 */
export function pseudoRewrite(text: string): string {
  const sentences = text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?;:。！？])\s+/u)
    .map((s) => s.trim())
    .filter((s) => s !== "");
  return sentences.map((s) => `▸ ${s}`).join("\n");
}

export function pseudoRewriter(): EasyReadEngine {
  return {
    id: "pseudo",
    limits: { maxTexts: 200, maxChars: 100_000 },
    async rewrite(texts) {
      return texts.map(pseudoRewrite);
    },
  };
}

/**
 * The rewriters of this deployment, in the order of TRANSLATION_ENGINES: its LLM engines and `pseudo`.
 * Empty when it lists none (then generating answers 503 `unavailable`, saying which engines to list).
 */
export function easyReadEnginesFrom(config: AppConfig, ai?: AiRunner): EasyReadEngine[] {
  const out: EasyReadEngine[] = [];
  for (const id of config.TRANSLATION_ENGINES) {
    if (id === "workers-ai-llm" && ai) out.push(workersAiLlmRewriter(ai, config.WORKERS_AI_LLM_MODEL));
    if (id === "openai-compatible" && config.OPENAI_BASE_URL && config.OPENAI_MODEL)
      out.push(openAiCompatibleRewriter({ baseUrl: config.OPENAI_BASE_URL, apiKey: config.OPENAI_API_KEY, model: config.OPENAI_MODEL }));
    if (id === "pseudo") out.push(pseudoRewriter());
  }
  return out;
}
