import { z } from "zod";
import { findLanguage } from "../languages";
import type { EngineId } from "./codes";
import { EngineError } from "./errors";

export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

function describe(code: string): string {
  const lang = findLanguage(code);
  return lang ? `${lang.en} (${lang.code}, "${lang.endonym}")` : code;
}

/**
 * The JSON-array protocol of the LLM engines: the texts go in as one JSON array and must come back as an
 * array of exactly as many strings. Each text is translated on its own, so the answer can be checked item
 * by item and a model that merges or drops items is caught instead of shifting every translation.
 */
export function translationMessages(texts: readonly string[], from: string, to: string): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        `You translate texts written by a museum for its visitors from ${describe(from)} into ${describe(to)}. ` +
        `The user sends a JSON array of ${texts.length} strings. Reply with a JSON array of exactly ${texts.length} ` +
        "strings: the translation of each item, in the same order. Translate every item on its own; never merge, " +
        "split, skip, explain or add items. Leave unchanged anything between ⟦ and ⟧, web addresses, e-mail " +
        "addresses and numbers, and keep line breaks where they are. Reply with the JSON array only.",
    },
    { role: "user", content: JSON.stringify(texts) },
  ];
}

/** Rough output budget: non-Latin scripts cost about one token per character. */
export function maxTokensFor(texts: readonly string[]): number {
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  return Math.min(8_192, 256 + chars * 2);
}

const stringArray = z.array(z.string());

/** The model's answer as exactly `count` strings, or a retryable EngineError. */
export function parseTranslationArray(engine: EngineId, answer: unknown, count: number): string[] {
  let value: unknown = answer;
  if (typeof value === "string") {
    const start = value.indexOf("[");
    const end = value.lastIndexOf("]");
    if (start < 0 || end < start) {
      throw new EngineError(engine, "the model did not answer with a JSON array", { retryable: true });
    }
    try {
      value = JSON.parse(value.slice(start, end + 1));
    } catch (error) {
      throw new EngineError(engine, "the model's JSON array does not parse", { retryable: true, cause: error });
    }
  }
  const parsed = stringArray.safeParse(value);
  if (!parsed.success) {
    throw new EngineError(engine, "the model's answer is not a list of strings", { retryable: true });
  }
  if (parsed.data.length !== count) {
    throw new EngineError(engine, `the model returned ${parsed.data.length} translations for ${count} texts`, { retryable: true });
  }
  return parsed.data;
}
