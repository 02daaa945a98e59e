import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AllEnginesFailed, EngineError, machineTranslate } from "~/translation/engines";
import { FAST, delay, fakeEngine } from "./engines-helpers";

const upper = (texts: readonly string[]) => texts.map((t) => t.toUpperCase());

// Time is simulated (setTimeout, Date): timeouts, back-offs, deadlines and engine delays run on the fake clock,
// so the durations below are exact and a busy machine cannot make them flaky or slow.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Drives the fake clock a millisecond at a time until `work` settles; `elapsed` is the simulated time it took.
 * Gives up (failing the test) past `limitMs` of simulated time.
 */
async function settle<T>(work: Promise<T>, limitMs = 60_000): Promise<{ value?: T; error?: unknown; elapsed: number }> {
  const started = Date.now();
  let outcome: { value?: T; error?: unknown } | undefined;
  work.then(
    (value) => (outcome = { value }),
    (error: unknown) => (outcome = { error }),
  );
  await vi.advanceTimersByTimeAsync(0); // What settles without waiting settles at 0 ms.
  while (!outcome) {
    if (Date.now() - started > limitMs) throw new Error(`still pending after ${limitMs} ms of simulated time`);
    await vi.advanceTimersByTimeAsync(1);
  }
  return { ...outcome, elapsed: Date.now() - started };
}

/** The value `work` resolves to on the fake clock; its rejection is thrown. */
async function run<T>(work: Promise<T>): Promise<T> {
  const { value, error } = await settle(work);
  if (error !== undefined) throw error;
  return value as T;
}

/** The error `work` rejects with on the fake clock. */
async function failure(work: Promise<unknown>): Promise<unknown> {
  const { error } = await settle(work);
  if (error === undefined) throw new Error("expected a rejection");
  return error;
}

describe("machineTranslate", () => {
  it("makes no call for empty input", async () => {
    const fake = fakeEngine("deepl", upper);
    expect(await run(machineTranslate([fake.engine], [], "fr", "de", FAST))).toEqual({ texts: [], engines: [] });
    expect(fake.calls).toHaveLength(0);
  });

  it("keeps the order, names the engine per text and translates duplicates once", async () => {
    const fake = fakeEngine("deepl", upper);
    const out = await run(machineTranslate([fake.engine], ["a", "b", "a", "c"], "fr", "de", FAST));
    expect(out).toEqual({ texts: ["A", "B", "A", "C"], engines: ["deepl", "deepl", "deepl", "deepl"] });
    expect(fake.calls).toEqual([["a", "b", "c"]]);
  });

  it("cuts batches by count and by characters, a long text travelling alone", async () => {
    const fake = fakeEngine("google", upper, { maxTexts: 3, maxChars: 10 });
    const texts = ["aaaa", "bbbb", "c", "d", "e", "f", "x".repeat(25), "g"];
    const out = await run(machineTranslate([fake.engine], texts, "fr", "de", FAST));
    expect(out.texts).toEqual(upper(texts));
    expect(fake.calls).toEqual([["aaaa", "bbbb", "c"], ["d", "e", "f"], ["x".repeat(25)], ["g"]]);
  });

  it("uses the first engine that supports the pair", async () => {
    const deepl = fakeEngine("deepl", upper, { supports: (_f, to) => to !== "gn" });
    const llm = fakeEngine("workers-ai-llm", (t) => t.map((x) => `gn:${x}`));
    const out = await run(machineTranslate([deepl.engine, llm.engine], ["hello"], "fr", "gn", FAST));
    expect(out).toEqual({ texts: ["gn:hello"], engines: ["workers-ai-llm"] });
    expect(deepl.calls).toHaveLength(0);
  });

  it("throws AllEnginesFailed('unsupported') when no engine serves the pair, without calling any", async () => {
    const deepl = fakeEngine("deepl", upper, { supports: () => false });
    const error = await failure(machineTranslate([deepl.engine], ["x"], "fr", "gn", FAST));
    expect(error).toBeInstanceOf(AllEnginesFailed);
    expect((error as AllEnginesFailed).reason).toBe("unsupported");
    expect(deepl.calls).toHaveLength(0);
  });

  it("retries a retryable failure, then succeeds on the same engine", async () => {
    const fake = fakeEngine("deepl", (texts, call) => {
      if (call < 2) throw new EngineError("deepl", "HTTP 429", { retryable: true, status: 429 });
      return upper(texts);
    });
    const out = await run(machineTranslate([fake.engine], ["a"], "fr", "de", FAST));
    expect(out.engines).toEqual(["deepl"]);
    expect(fake.calls).toHaveLength(3);
  });

  it("falls back to the next engine after the retries, for the failed batch only", async () => {
    const first = fakeEngine(
      "deepl",
      (texts) => {
        if (texts.includes("bad")) throw new EngineError("deepl", "HTTP 500", { retryable: true, status: 500 });
        return upper(texts);
      },
      { maxTexts: 1 },
    );
    const second = fakeEngine("workers-ai", (t) => t.map((x) => `m2m:${x}`));
    const out = await run(machineTranslate([first.engine, second.engine], ["ok", "bad"], "fr", "de", FAST));
    expect(out).toEqual({ texts: ["OK", "m2m:bad"], engines: ["deepl", "workers-ai"] });
    expect(first.calls.filter((c) => c[0] === "bad")).toHaveLength(3); // 1 + 2 retries
    expect(second.calls).toEqual([["bad"]]);
  });

  it("does not retry a refusal, going straight to the next engine", async () => {
    const first = fakeEngine("deepl", () => {
      throw new EngineError("deepl", "HTTP 403", { retryable: false, status: 403 });
    });
    const second = fakeEngine("google", upper);
    const out = await run(machineTranslate([first.engine, second.engine], ["a"], "fr", "de", FAST));
    expect(out.engines).toEqual(["google"]);
    expect(first.calls).toHaveLength(1);
  });

  it("treats a wrong number of translations, a non-string or an empty one as a retryable failure", async () => {
    for (const bad of [["A", "B", "extra"], ["A"], ["A", 42], ["A", " "]]) {
      const fake = fakeEngine("openai-compatible", (texts, call) => (call === 0 ? (bad as string[]) : upper(texts)));
      const out = await run(machineTranslate([fake.engine], ["a", "b"], "fr", "de", FAST));
      expect(out.texts, JSON.stringify(bad)).toEqual(["A", "B"]);
      expect(fake.calls).toHaveLength(2);
    }
  });

  it("throws AllEnginesFailed('failed') with each engine's last error when all fail", async () => {
    const a = fakeEngine("deepl", () => {
      throw new EngineError("deepl", "HTTP 500", { retryable: true, status: 500 });
    });
    const b = fakeEngine("google", () => {
      throw new Error("socket hang up");
    });
    const error = (await failure(machineTranslate([a.engine, b.engine], ["x"], "fr", "de", FAST))) as AllEnginesFailed;
    expect(error).toBeInstanceOf(AllEnginesFailed);
    expect(error.reason).toBe("failed");
    expect(error.failures.map((f) => f.engine)).toEqual(["deepl", "google"]);
    expect(a.calls).toHaveLength(3);
    expect(b.calls).toHaveLength(3);
  });

  it("abandons a call past its timeout, even when the engine ignores the signal, and retries", async () => {
    const fake = fakeEngine("libretranslate", (texts, call) => (call === 0 ? new Promise<string[]>(() => {}) : upper(texts)));
    const { value: out, elapsed } = await settle(machineTranslate([fake.engine], ["a"], "fr", "de", { ...FAST, timeoutMs: 100 }));
    expect(out?.texts).toEqual(["A"]);
    expect(fake.calls).toHaveLength(2);
    // The 100 ms timeout, then one back-off of 2.5 to 5 ms before the retry answers at once.
    expect(elapsed).toBeGreaterThanOrEqual(100);
    expect(elapsed).toBeLessThanOrEqual(106);
  });

  it("aborts the engine's signal on timeout", async () => {
    let aborted: unknown;
    const fake = fakeEngine(
      "deepl",
      (_t, _c, signal) =>
        new Promise<string[]>((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            aborted = signal.reason;
            reject(signal.reason);
          }),
        ),
    );
    const { elapsed } = await settle(machineTranslate([fake.engine], ["a"], "fr", "de", { ...FAST, timeoutMs: 50, retries: 0 }));
    expect(elapsed).toBe(50);
    expect(aborted).toBeInstanceOf(EngineError);
    expect(String((aborted as Error).message)).toMatch(/no answer within 50 ms/);
  });

  it("never waits past the deadline, whatever the retries and fallbacks", async () => {
    const slow = fakeEngine("deepl", () => new Promise<string[]>(() => {}));
    const slower = fakeEngine("google", () => new Promise<string[]>(() => {}));
    const { error, elapsed } = await settle(
      machineTranslate([slow.engine, slower.engine], ["a", "b"], "fr", "de", { ...FAST, timeoutMs: 200, retries: 5, deadlineMs: 300 }),
    );
    expect(error).toBeInstanceOf(AllEnginesFailed);
    expect((error as AllEnginesFailed).reason).toBe("deadline");
    expect(elapsed).toBe(300);
  });

  it("gives up on a provider asking to wait past the deadline and moves on", async () => {
    const busy = fakeEngine("deepl", () => {
      throw new EngineError("deepl", "HTTP 429", { retryable: true, status: 429, retryAfterMs: 60_000 });
    });
    const next = fakeEngine("google", upper);
    const { value: out, elapsed } = await settle(machineTranslate([busy.engine, next.engine], ["a"], "fr", "de", FAST));
    expect(out?.engines).toEqual(["google"]);
    expect(busy.calls).toHaveLength(1);
    // No waiting at all: the 60 s Retry-After is past the 3 s deadline.
    expect(elapsed).toBe(0);
  });

  it("keeps at most `concurrency` calls in flight, across batches and fallbacks", async () => {
    const fake = fakeEngine(
      "workers-ai",
      async (texts) => {
        await delay(20);
        return upper(texts);
      },
      { maxTexts: 1 },
    );
    const texts = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const { value: out, elapsed } = await settle(machineTranslate([fake.engine], texts, "fr", "de", { ...FAST, concurrency: 3 }));
    expect(out?.texts).toEqual(upper(texts));
    expect(fake.calls).toHaveLength(20);
    expect(fake.maxInFlight()).toBe(3);
    // 20 calls of 20 ms three at a time: 7 rounds.
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThanOrEqual(147);
  });

  it("translates 20 segments in about one call's time when the concurrency allows", async () => {
    const fake = fakeEngine(
      "workers-ai",
      async (texts) => {
        await delay(150);
        return upper(texts);
      },
      { maxTexts: 1 },
    );
    const texts = Array.from({ length: 20 }, (_, i) => `segment ${i}`);
    const { elapsed } = await settle(machineTranslate([fake.engine], texts, "fr", "de", { ...FAST, concurrency: 20 }));
    // Issue 8's bar was at most twice one call; all 20 in parallel take exactly one.
    expect(elapsed).toBe(150);
    expect(fake.calls).toHaveLength(20);
  });

  it("answers 50 identical concurrent requests independently and correctly", async () => {
    const fake = fakeEngine("deepl", async (texts) => {
      await delay(Math.random() * 10);
      return texts.map((t) => `«${t}»`);
    });
    const texts = ["Été 1789", "𝒜 ∑ 👩🏽‍🎨", "مرحبا", "a\nb"];
    const outs = await run(Promise.all(Array.from({ length: 50 }, () => machineTranslate([fake.engine], texts, "fr", "de", FAST))));
    for (const out of outs) expect(out.texts).toEqual(texts.map((t) => `«${t}»`));
  });

  it("stops queued batches once one batch has failed for good", async () => {
    const fake = fakeEngine(
      "deepl",
      async (texts) => {
        await delay(30);
        if (texts[0] === "t0") throw new EngineError("deepl", "HTTP 403", { retryable: false, status: 403 });
        return upper(texts);
      },
      { maxTexts: 1 },
    );
    const texts = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(await failure(machineTranslate([fake.engine], texts, "fr", "de", { ...FAST, concurrency: 1 }))).toBeInstanceOf(AllEnginesFailed);
    const called = fake.calls.length;
    // The slot t0 frees may reach t1 before the failure stops the queue; nothing further starts, even long after.
    expect(called).toBeLessThanOrEqual(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.calls).toHaveLength(called);
  });
});
