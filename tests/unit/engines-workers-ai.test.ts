import { describe, expect, it, vi } from "vitest";
import { EngineError, machineTranslate, type AiRunner } from "~/translation/engines";
import { M2M100_MODEL, workersAiEngine, workersAiLlmEngine } from "~/translation/engines/workers-ai";
import { FAST, delay } from "./engines-helpers";

interface AiCall {
  model: string;
  inputs: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A stand-in for the AI binding: `answer` plays the model. */
function fakeAi(answer: (call: AiCall, index: number) => unknown | Promise<unknown>) {
  const calls: AiCall[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const ai: AiRunner = {
    async run(model, inputs, options) {
      const call = { model, inputs, signal: options?.signal };
      calls.push(call);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await answer(call, calls.length - 1);
      } finally {
        inFlight--;
      }
    },
  };
  return { ai, calls, maxInFlight: () => maxInFlight };
}

const signal = () => new AbortController().signal;

describe("workers-ai (m2m100)", () => {
  it("sends {text, source_lang, target_lang} with m2m100's codes, one text per call, and reads translated_text", async () => {
    const fake = fakeAi(({ inputs }) => ({ translated_text: `${String(inputs.target_lang)}:${String(inputs.text)}` }));
    const engine = workersAiEngine(fake.ai);
    expect(await engine.translate(["hei", "takk"], "nb", "fil", signal())).toEqual(["tl:hei", "tl:takk"]);
    expect(fake.calls.map((c) => c.model)).toEqual([M2M100_MODEL, M2M100_MODEL]);
    expect(fake.calls[0]!.inputs).toEqual({ text: "hei", source_lang: "no", target_lang: "tl" });
    expect(fake.calls[0]!.signal).toBeInstanceOf(AbortSignal);
    expect(engine.limits?.maxTexts).toBe(1);
  });

  it("serves only m2m100's languages", () => {
    const engine = workersAiEngine(fakeAi(() => ({})).ai);
    expect(engine.supports("fr", "de")).toBe(true);
    expect(engine.supports("nso", "pt-BR")).toBe(true);
    for (const lacking of ["gn", "eu", "zh-Hant", "nn", "xx"]) expect(engine.supports("fr", lacking), lacking).toBe(false);
  });

  it("runs a 20-segment article as 20 calls side by side, within the concurrency", async () => {
    const fake = fakeAi(async ({ inputs }) => {
      await delay(50);
      return { translated_text: `de:${String(inputs.text)}` };
    });
    const texts = Array.from({ length: 20 }, (_, i) => `Absatz ${i}`);
    // On the fake clock: all 20 answers arrive 50 ms after the start, as one call's would.
    vi.useFakeTimers();
    try {
      let settled = false;
      const work = machineTranslate([workersAiEngine(fake.ai)], texts, "fr", "de", { ...FAST, concurrency: 20 }).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      const out = await work;
      expect(out.texts).toEqual(texts.map((t) => `de:${t}`));
    } finally {
      vi.useRealTimers();
    }
    expect(fake.calls).toHaveLength(20);
    expect(fake.maxInFlight()).toBe(20);
  });

  it("refuses at once, without retries, in a local session where the binding is remote-only", async () => {
    const fake = fakeAi(() => {
      throw new Error("Binding AI needs to be run remotely");
    });
    const error = (await workersAiEngine(fake.ai)
      .translate(["a"], "fr", "de", signal())
      .catch((e: unknown) => e)) as EngineError;
    expect(error).toBeInstanceOf(EngineError);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/only works on Cloudflare/);
    const out = await machineTranslate([workersAiEngine(fake.ai), workersAiLlmEngine(fake.ai, "@cf/x/y")], ["a"], "fr", "de", FAST).catch((e: unknown) => e);
    expect(out).toMatchObject({ reason: "failed" });
    // The direct call above, then one call per engine: no retries.
    expect(fake.calls).toHaveLength(3);
  });

  it("retries a capacity error and an answer without translated_text", async () => {
    const fake = fakeAi(({ inputs }, i) => {
      if (i === 0) throw new Error("3040: Capacity temporarily exceeded");
      if (i === 1) return { result: "?" };
      return { translated_text: `ok:${String(inputs.text)}` };
    });
    const out = await machineTranslate([workersAiEngine(fake.ai)], ["a"], "fr", "de", FAST);
    expect(out.texts).toEqual(["ok:a"]);
    expect(fake.calls).toHaveLength(3);
  });
});

describe("workers-ai-llm", () => {
  it("sends the JSON-array prompt to the configured model with enough max_tokens, and reads the array back", async () => {
    const fake = fakeAi(({ inputs }) => {
      const messages = inputs.messages as Array<{ content: string }>;
      const texts = JSON.parse(messages[1]!.content) as string[];
      return { response: JSON.stringify(texts.map((t) => `gn:${t}`)) };
    });
    const engine = workersAiLlmEngine(fake.ai, "@cf/meta/llama-3.1-8b-instruct");
    expect(await engine.translate(["Le musée", "⟦Louvre⟧ ouvre à 9 h"], "fr", "gn", signal())).toEqual(["gn:Le musée", "gn:⟦Louvre⟧ ouvre à 9 h"]);
    const [call] = fake.calls;
    expect(call!.model).toBe("@cf/meta/llama-3.1-8b-instruct");
    expect(call!.inputs.temperature).toBe(0);
    expect(call!.inputs.max_tokens).toBeGreaterThanOrEqual(256);
    const messages = call!.inputs.messages as Array<{ role: string; content: string }>;
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[0]!.content).toMatch(/Guarani \(gn, "Avañe'ẽ"\)/);
    expect(engine.supports("fr", "gn")).toBe(true);
    expect(engine.supports("fr", "xx")).toBe(false);
  });

  it("accepts a response the binding already parsed", async () => {
    const fake = fakeAi(() => ({ response: ["un", "deux"] }));
    expect(await workersAiLlmEngine(fake.ai, "@cf/m/x").translate(["one", "two"], "en", "fr", signal())).toEqual(["un", "deux"]);
  });

  it("rejects a wrong count or prose as retryable, and machineTranslate retries until the count is right", async () => {
    const answers = [{ response: '["a"]' }, { response: "I cannot do that." }, { response: '["x", 2]' }, { response: 'Here: ["A", "B"]' }];
    const fake = fakeAi((_c, i) => answers[i]);
    const engine = workersAiLlmEngine(fake.ai, "@cf/m/x");
    const first = (await engine.translate(["a", "b"], "fr", "gn", signal()).catch((e: unknown) => e)) as EngineError;
    expect(first.retryable).toBe(true);
    expect(first.message).toMatch(/1 translations for 2 texts/);
    const out = await machineTranslate([engine], ["a", "b"], "fr", "gn", { ...FAST, retries: 3 });
    expect(out.texts).toEqual(["A", "B"]);
    expect(fake.calls).toHaveLength(4);
  });

  it("batches by its own limits (20 texts)", async () => {
    const fake = fakeAi(({ inputs }) => {
      const texts = JSON.parse((inputs.messages as Array<{ content: string }>)[1]!.content) as string[];
      return { response: texts };
    });
    await machineTranslate(
      [workersAiLlmEngine(fake.ai, "@cf/m/x")],
      Array.from({ length: 45 }, (_, i) => `t${i}`),
      "fr",
      "gn",
      FAST,
    );
    expect(fake.calls.map((c) => JSON.parse((c.inputs.messages as Array<{ content: string }>)[1]!.content).length)).toEqual([20, 20, 5]);
  });
});
