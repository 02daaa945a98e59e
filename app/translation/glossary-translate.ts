import { machineTranslate, type TranslateOptions, type TranslationEngine } from "./engines";
import type { EngineId } from "./engines/codes";
import { protect, restore, type GlossaryRule } from "./glossary";

export interface ProtectedOutcome {
  /** Each text's translation, or undefined when no engine gave one whose placeholders survived. */
  texts: (string | undefined)[];
  engines: (EngineId | undefined)[];
  /** Per text, the engines whose answer lost or mangled a protected term (decision 030 remembers them). */
  lost: EngineId[][];
  /** What the engines threw for the texts left without a translation, if they threw (not a lost term). */
  error?: unknown;
}

/**
 * `machineTranslate` with the glossary's protection (decision 026): the engines receive placeholders
 * instead of glossary terms, and the terms (or their fixed translations) are put back afterwards.
 * A segment whose placeholders an engine lost or mangled is failed *for that engine* and sent again to
 * the engines after it; when none is left it stays undefined, so the caller stores nothing for it and
 * the visitor reads the original. Throws what `machineTranslate` throws when nothing at all came back.
 */
export async function translateWithGlossary(
  engines: readonly TranslationEngine[],
  texts: readonly string[],
  from: string,
  to: string,
  rules: readonly GlossaryRule[],
  options: TranslateOptions = {},
): Promise<ProtectedOutcome> {
  if (rules.length === 0) return { ...(await machineTranslate(engines, texts, from, to, options)), lost: texts.map(() => []) };
  const deadline = Date.now() + (options.deadlineMs ?? Infinity);
  const guarded = texts.map((text) => protect(text, rules));
  const result: ProtectedOutcome = { texts: texts.map(() => undefined), engines: texts.map(() => undefined), lost: texts.map(() => []) };
  // Per text, the engines whose output could not be restored.
  const refused = texts.map(() => new Set<EngineId>());
  let pending = texts.map((_, i) => i);
  let firstError: unknown;

  while (pending.length > 0) {
    // Texts refused by the same engines go together to the engines left for them.
    const groups = new Map<string, number[]>();
    for (const i of pending) {
      const key = [...refused[i]!].sort().join(",");
      groups.set(key, [...(groups.get(key) ?? []), i]);
    }
    const retry: number[] = [];
    await Promise.all(
      [...groups.values()].map(async (indices) => {
        const left = engines.filter((engine) => !refused[indices[0]!]!.has(engine.id));
        const remaining = deadline - Date.now();
        if (left.length === 0 || remaining <= 0) return;
        try {
          const outcome = await machineTranslate(
            left,
            indices.map((i) => guarded[i]!.text),
            from,
            to,
            {
              ...options,
              deadlineMs: Number.isFinite(remaining) ? remaining : undefined,
            },
          );
          indices.forEach((i, k) => {
            const engine = outcome.engines[k]!;
            const restored = restore(outcome.texts[k]!, guarded[i]!);
            if (restored === null) {
              console.warn(`glossary: ${engine} lost a protected term (${from}→${to}); trying the next engine`);
              refused[i]!.add(engine);
              retry.push(i);
            } else {
              result.texts[i] = restored;
              result.engines[i] = engine;
            }
          });
        } catch (error) {
          firstError ??= error;
        }
      }),
    );
    pending = retry;
  }

  if (firstError !== undefined && result.texts.every((text) => text === undefined)) throw firstError;
  result.lost = refused.map((engines) => [...engines]);
  if (firstError !== undefined) result.error = firstError;
  return result;
}
