import { AllEnginesFailed, EngineError, asEngineError } from "./errors";
import type { EngineId } from "./codes";
import { DEFAULT_LIMITS, type BatchLimits, type TranslationEngine } from "./types";

export interface TranslateOptions {
  /** One engine call; past it the call is abandoned and counts as a retryable failure. */
  timeoutMs?: number;
  /** Further attempts of a batch on the same engine after a retryable failure. */
  retries?: number;
  /** Engine calls in flight at once, all engines together. */
  concurrency?: number;
  /** The whole translation, retries and fallbacks included; then AllEnginesFailed("deadline"). */
  deadlineMs?: number;
  /** First backoff; doubles per attempt, with jitter. */
  backoffMs?: number;
}

export interface TranslateOutcome {
  texts: string[];
  /** The engine that translated each text. */
  engines: EngineId[];
}

export const TRANSLATE_DEFAULTS: Required<TranslateOptions> = {
  timeoutMs: 8_000,
  retries: 2,
  concurrency: 4,
  deadlineMs: 15_000,
  backoffMs: 250,
};

/**
 * Translates with the first engine in preference order that supports the pair; a batch that still fails
 * after its retries goes to the next engine that supports the pair. Identical texts are translated once.
 * Empty input makes no call.
 */
export async function machineTranslate(
  engines: readonly TranslationEngine[],
  texts: readonly string[],
  from: string,
  to: string,
  options: TranslateOptions = {},
): Promise<TranslateOutcome> {
  if (texts.length === 0) return { texts: [], engines: [] };
  const opts = { ...TRANSLATE_DEFAULTS, ...definedOnly(options) };
  const candidates = engines.filter((engine) => engine.supports(from, to));
  if (candidates.length === 0) {
    throw new AllEnginesFailed("unsupported", `No configured translation engine serves ${from} → ${to}`);
  }

  const unique = [...new Set(texts)];
  const results = new Map<string, { text: string; engine: EngineId }>();
  const failures: EngineError[] = [];
  const scope = new Scope();
  const deadlineError = new AllEnginesFailed("deadline", `Translation ${from} → ${to} took longer than ${opts.deadlineMs} ms`);
  const timer = setTimeout(() => scope.abort(deadlineError), opts.deadlineMs);
  const slots = new Semaphore(Math.max(1, Math.floor(opts.concurrency)), scope);
  const startedAt = Date.now();
  const remaining = () => opts.deadlineMs - (Date.now() - startedAt);

  const attempt = async (engine: TranslationEngine, batch: string[]): Promise<string[]> => {
    for (let n = 0; ; n++) {
      try {
        return await slots.run(() => callOnce(engine, batch, from, to, opts.timeoutMs, scope));
      } catch (error) {
        if (scope.signal.aborted) throw scope.signal.reason;
        const failure = asEngineError(engine.id, error);
        if (!failure.retryable || n >= opts.retries) throw failure;
        // A provider asking to wait past the deadline is better left for the next engine.
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > remaining()) throw failure;
        const base = opts.backoffMs * 2 ** n;
        const wait = Math.max(failure.retryAfterMs ?? 0, base / 2 + Math.random() * (base / 2));
        await scope.sleep(Math.min(wait, remaining()));
      }
    }
  };

  const translateWith = async (level: number, pending: readonly string[]): Promise<void> => {
    const engine = candidates[level];
    if (!engine) {
      throw new AllEnginesFailed("failed", `Every translation engine failed for ${from} → ${to}`, [...failures]);
    }
    await Promise.all(
      splitBatches(pending, engine.limits ?? DEFAULT_LIMITS).map(async (batch) => {
        let translated: string[];
        try {
          translated = await attempt(engine, batch);
        } catch (error) {
          if (error instanceof AllEnginesFailed) throw error;
          failures.push(asEngineError(engine.id, error));
          return await translateWith(level + 1, batch);
        }
        batch.forEach((text, i) => results.set(text, { text: translated[i]!, engine: engine.id }));
      }),
    );
  };

  try {
    await raceAbort(translateWith(0, unique), scope.signal);
  } finally {
    clearTimeout(timer);
    // Stops whatever is still in flight or queued once the outcome is known (success, failure or deadline).
    scope.abort(new AllEnginesFailed("failed", "Translation finished"));
  }
  return {
    texts: texts.map((text) => results.get(text)!.text),
    engines: texts.map((text) => results.get(text)!.engine),
  };
}

/** One engine call, bounded by its own timeout and the overall deadline, its answer checked. */
async function callOnce(engine: TranslationEngine, batch: string[], from: string, to: string, timeoutMs: number, scope: Scope): Promise<string[]> {
  const call = scope.child();
  const timeoutError = new EngineError(engine.id, `no answer within ${timeoutMs} ms`, { retryable: true });
  const timer = setTimeout(() => call.abort(timeoutError), timeoutMs);
  try {
    // Raced as well as passed down, so an engine that ignores its signal cannot hold the visitor.
    const output = await raceAbort(engine.translate(batch, from, to, call.signal), call.signal);
    return checkOutput(engine.id, batch, output);
  } finally {
    clearTimeout(timer);
    scope.release(call);
  }
}

/** Exactly one string per input; a non-blank text may not come back blank. */
export function checkOutput(engine: EngineId, inputs: readonly string[], output: unknown): string[] {
  if (!Array.isArray(output) || output.length !== inputs.length) {
    const got = Array.isArray(output) ? `${output.length} translations` : "no list";
    throw new EngineError(engine, `returned ${got} for ${inputs.length} texts`, { retryable: true });
  }
  output.forEach((text, i) => {
    if (typeof text !== "string") {
      throw new EngineError(engine, `translation ${i + 1} is not text`, { retryable: true });
    }
    if (text.trim() === "" && inputs[i]!.trim() !== "") {
      throw new EngineError(engine, `translation ${i + 1} is empty`, { retryable: true });
    }
  });
  return output as string[];
}

/** Consecutive batches within the limits; a text longer than maxChars travels alone. */
export function splitBatches(texts: readonly string[], limits: BatchLimits): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length >= limits.maxTexts || chars + text.length > limits.maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * The overall deadline and every call and backoff under it. Nothing listens on a shared signal: aborting
 * the scope aborts each child directly, so a hundred batches do not hang a hundred listeners on one signal.
 */
class Scope {
  private readonly controller = new AbortController();
  private readonly children = new Set<AbortController>();
  private readonly onAbort = new Set<(reason: unknown) => void>();
  readonly signal = this.controller.signal;

  abort(reason: unknown) {
    if (this.signal.aborted) return;
    this.controller.abort(reason);
    for (const child of this.children) child.abort(reason);
    for (const listener of this.onAbort) listener(reason);
    this.children.clear();
    this.onAbort.clear();
  }

  child(): AbortController {
    const child = new AbortController();
    if (this.signal.aborted) child.abort(this.signal.reason);
    else this.children.add(child);
    return child;
  }

  release(child: AbortController) {
    this.children.delete(child);
  }

  /** Resolves after `ms`, or rejects with the scope's reason when it aborts first. */
  sleep(ms: number): Promise<void> {
    return this.wait((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }

  /** A promise that `start` resolves, rejected with the scope's reason if the scope aborts first. */
  wait(start: (resolve: () => void) => ReturnType<typeof setTimeout> | void): Promise<void> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | void = undefined;
      const listener = (reason: unknown) => {
        if (timer !== undefined) clearTimeout(timer);
        reject(reason);
      };
      this.onAbort.add(listener);
      timer = start(() => {
        this.onAbort.delete(listener);
        resolve();
      });
    });
  }
}

class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(
    private readonly size: number,
    private readonly scope: Scope,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= this.size) {
      await this.scope.wait((resolve) => {
        this.waiting.push(resolve);
      });
    }
    this.scope.signal.throwIfAborted();
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/** The promise, or the signal's reason as soon as it aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function definedOnly(options: TranslateOptions): TranslateOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined && Number.isFinite(v)));
}
