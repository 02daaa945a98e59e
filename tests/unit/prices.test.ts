import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { estimateCost, PRICES } from "~/usage/prices";

const scaling = readFileSync(new URL("../../docs/scaling.md", import.meta.url), "utf8");

describe("engine prices (decision 148)", () => {
  it("come from the published prices docs/scaling.md quotes", () => {
    for (const quoted of [
      "€0.00002 per character",
      "$20 per million characters",
      "$0.342 per million input tokens",
      "**$0.0026**",
      "**$0.0002 per audio minute**",
      "**$15 per million\ncharacters**",
      "**$16** for WaveNet",
      "about 900 characters",
      "**3 characters a token**",
    ])
      expect(scaling, quoted).toContain(quoted);
    expect(PRICES.translation.deepl).toMatchObject({ currency: "EUR", perMillionChars: 20 });
    expect(PRICES.translation.google).toMatchObject({ currency: "USD", perMillionChars: 20 });
    expect(PRICES.translation["workers-ai"]!.perMillionChars).toBe(0.228);
    expect(PRICES.translation["workers-ai-llm"]!.perMillionChars).toBe(0.908);
    expect(PRICES.narration["workers-ai"]!.perMillionChars).toBe(0.222);
  });

  it("price a month per currency and name what has no price", () => {
    const cost = estimateCost([
      { kind: "translation", engine: "deepl", chars: 858_649 },
      { kind: "translation", engine: "google", chars: 500_000 },
      { kind: "translation", engine: "openai-compatible", chars: 10 },
      { kind: "translation", engine: "openai-compatible", chars: 5 },
      { kind: "narration", engine: "openai-compatible", chars: 2_000_000 },
      { kind: "easy_read", engine: "somewhere-else", chars: 0 },
    ]);
    // docs/scaling.md §4: a new language of a 300-article museum is €17.17 with DeepL; §5: 2 M characters $30 at tts-1.
    expect(cost).toEqual({ EUR: 17.17, USD: 40, order: 57.17, unpriced: ["translation:openai-compatible"] });
    // Ordering: euros count, and what no price covers counts at the dearest listed price (never as free).
    expect(estimateCost([{ kind: "translation", engine: "deepl", chars: 20_000_000 }]).order).toBe(400);
    expect(estimateCost([{ kind: "translation", engine: "openai-compatible", chars: 1_000_000 }]).order).toBe(20);
    expect(estimateCost([{ kind: "translation", engine: "pseudo", chars: 1_000_000 }]).order).toBe(0);
  });
});
