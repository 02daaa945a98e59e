import type { EngineId } from "./codes";

/** How much one call may carry; `machineTranslate` cuts batches to fit. */
export interface BatchLimits {
  /** Texts per call. */
  readonly maxTexts: number;
  /** Characters (UTF-16 code units) per call; one longer text still goes alone. */
  readonly maxChars: number;
}

export interface TranslationEngine {
  readonly id: EngineId;
  /** Batch size this engine accepts; `DEFAULT_LIMITS` when absent. */
  readonly limits?: BatchLimits;
  /** Whether this engine can translate between these catalogue codes. */
  supports(from: string, to: string): boolean;
  /** Exactly one output per input, same order; throws on failure (EngineError). Honours signal. */
  translate(texts: readonly string[], from: string, to: string, signal: AbortSignal): Promise<string[]>;
}

export const DEFAULT_LIMITS: BatchLimits = { maxTexts: 50, maxChars: 10_000 };

/** The slice of the Workers AI binding the engines use (the typed `Ai` overloads need literal models). */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}
