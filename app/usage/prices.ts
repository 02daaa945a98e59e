/**
 * What engines cost, per million characters, from the published prices in docs/scaling.md §4–5 (read
 * 2026-11-23/24; tests/unit/prices.test.ts holds this table to that text). The operator's console multiplies a
 * museum's month of `engine_usage` by them (decision 148): an estimate, in each engine's own currency; an engine
 * whose price depends on where it points (`openai-compatible` translation) is listed as not priced.
 */
import type { UsageKind } from "./usage.server";

export type Currency = "USD" | "EUR";
export interface Price {
  currency: Currency;
  perMillionChars: number;
  /** How the figure follows from the published price. */
  basis: string;
}

const usd = (perMillionChars: number, basis: string): Price => ({ currency: "USD", perMillionChars, basis });

/** Workers AI bills tokens: docs/scaling.md counts 3 characters a token, a deliberately pessimistic figure. */
const CHARS_PER_TOKEN = 3;

export const PRICES: Record<UsageKind, Record<string, Price>> = {
  translation: {
    deepl: { currency: "EUR", perMillionChars: 20, basis: "DeepL API Pro: €0.00002 per character" },
    google: usd(20, "Google Cloud Translation Basic: $20 per million characters"),
    "workers-ai": usd(round(((2 * 1_000_000) / CHARS_PER_TOKEN) * (0.342 / 1_000_000)), "m2m100: $0.342 per million tokens in and out, 3 characters a token"),
    // $0.0026 for an article's 2,862 characters in one language (the prompt and the answer counted).
    "workers-ai-llm": usd(round((0.0026 / 2862) * 1_000_000), "llama-3.3-70b: $0.0026 per 2,862 characters translated"),
    libretranslate: usd(0, "self-hosted"),
    pseudo: usd(0, "offline test engine"),
  },
  narration: {
    // $0.0002 per audio minute; a minute reads about 900 characters.
    "workers-ai": usd(round((0.0002 / 900) * 1_000_000), "MeloTTS: $0.0002 per audio minute, 900 characters a minute"),
    "openai-compatible": usd(15, "OpenAI tts-1: $15 per million characters"),
    google: usd(16, "Google WaveNet: $16 per million characters (Standard voices $4)"),
    offline: usd(0, "offline engine"),
  },
  easy_read: {
    "workers-ai-llm": usd(round((0.0026 / 2862) * 1_000_000), "llama-3.3-70b, as for translation"),
  },
  // Visitors' questions (decision 151): the characters of the question and the passages sent to compose an answer.
  questions: {
    "workers-ai-llm": usd(round((0.0026 / 2862) * 1_000_000), "llama-3.3-70b, as for translation"),
  },
};

/** The dearest price the table lists, per million characters. */
const DEAREST_PER_MILLION = Math.max(...Object.values(PRICES).flatMap((kind) => Object.values(kind).map((p) => p.perMillionChars)));

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export interface UsageRow {
  kind: UsageKind;
  engine: string;
  chars: number;
}

export interface CostEstimate {
  USD: number;
  EUR: number;
  /**
   * For ordering museums only: both currencies added as if one euro were one dollar (they differ by a few per cent),
   * and what engines without a price read counted at the dearest price listed ($20 a million characters), so that
   * a museum spending on them sorts among the dear ones, not the free ones.
   */
  order: number;
  /** Engines used without a known price ("kind:engine"). */
  unpriced: string[];
}

/** A month of a museum's engine use, priced. */
export function estimateCost(rows: readonly UsageRow[]): CostEstimate {
  const out: CostEstimate = { USD: 0, EUR: 0, order: 0, unpriced: [] };
  let unpricedChars = 0;
  for (const row of rows) {
    const price = PRICES[row.kind]?.[row.engine];
    if (!price) {
      if (row.chars > 0) out.unpriced.push(`${row.kind}:${row.engine}`);
      unpricedChars += row.chars;
      continue;
    }
    out[price.currency] += (row.chars / 1_000_000) * price.perMillionChars;
  }
  out.order = Math.round((out.USD + out.EUR + (unpricedChars / 1_000_000) * DEAREST_PER_MILLION) * 100) / 100;
  out.USD = Math.round(out.USD * 100) / 100;
  out.EUR = Math.round(out.EUR * 100) / 100;
  out.unpriced = [...new Set(out.unpriced)].sort();
  return out;
}
