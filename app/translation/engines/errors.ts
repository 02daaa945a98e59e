import type { EngineId } from "./codes";

/**
 * One engine call that did not give a usable answer. `retryable` says whether the same call may succeed
 * later (429, 5xx, a timeout, a garbled answer); a refusal (bad key, unsupported language, quota gone)
 * goes straight to the next engine. Messages never contain keys or request addresses.
 */
export class EngineError extends Error {
  override name = "EngineError";
  readonly engine: EngineId;
  readonly retryable: boolean;
  readonly status: number | undefined;
  /** What the provider asked for in Retry-After, if anything. */
  readonly retryAfterMs: number | undefined;
  /** The provider's own name for the error, when an adapter recognised it (e.g. Google's "userRateLimitExceeded"). */
  readonly code: string | undefined;

  constructor(engine: EngineId, message: string, options: { retryable: boolean; status?: number; retryAfterMs?: number; code?: string; cause?: unknown }) {
    super(`${engine}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.engine = engine;
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
  }
}

export type AllEnginesFailedReason = "unsupported" | "failed" | "deadline";

/**
 * No engine produced a translation: none serves the pair, every one failed after its retries, or the
 * overall deadline passed. The visitor then reads the original (issue 8, item 8); nothing is cached.
 */
export class AllEnginesFailed extends Error {
  override name = "AllEnginesFailed";
  readonly reason: AllEnginesFailedReason;
  /** The last error of each engine that was tried, in the order they were tried. */
  readonly failures: readonly EngineError[];

  constructor(reason: AllEnginesFailedReason, message: string, failures: readonly EngineError[] = []) {
    super(message);
    this.reason = reason;
    this.failures = failures;
  }
}

/** Any thrown value as an EngineError of this engine; unknown failures are worth a retry. */
export function asEngineError(engine: EngineId, error: unknown): EngineError {
  if (error instanceof EngineError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new EngineError(engine, message, { retryable: true, cause: error });
}
