/**
 * Machine translation engines (DESIGN §5, decision 018): one interface, an adapter per provider, and
 * `machineTranslate`, which batches, bounds concurrency, retries and falls back along the deployment's
 * ordered TRANSLATION_ENGINES. Settings: docs/translation-engines.md.
 */
import { ConfigError, readConfig, type AppConfig } from "~/config.server";
import type { EngineId } from "./codes";
import { deeplEngine } from "./deepl";
import { googleEngine } from "./google";
import { libreTranslateEngine } from "./libretranslate";
import { openAiCompatibleEngine } from "./openai-compatible";
import { pseudoEngine } from "./pseudo";
import type { AiRunner, TranslationEngine } from "./types";
import { workersAiEngine, workersAiLlmEngine } from "./workers-ai";

export { ENGINE_IDS, enginesServing, type EngineId } from "./codes";
export { AllEnginesFailed, EngineError, type AllEnginesFailedReason } from "./errors";
export { machineTranslate, TRANSLATE_DEFAULTS, type TranslateOptions, type TranslateOutcome } from "./run";
export { pseudoTranslate } from "./pseudo";
export type { AiRunner, BatchLimits, TranslationEngine } from "./types";

export interface EngineEnv {
  AI?: Ai;
  config: AppConfig;
}

/** One adapter from the parsed settings; throws ConfigError when what it needs is missing. */
export function createEngine(id: EngineId, { AI, config }: EngineEnv): TranslationEngine {
  const needAi = () => {
    if (!AI) throw new ConfigError(`TRANSLATION_ENGINES lists ${id}, but the Worker has no AI binding`);
    return AI as unknown as AiRunner;
  };
  const need = (name: keyof AppConfig): string => {
    const value = config[name];
    if (typeof value !== "string") throw new ConfigError(`${name} is required because TRANSLATION_ENGINES lists ${id}`);
    return value;
  };
  switch (id) {
    case "pseudo":
      return pseudoEngine({ delayMs: config.PSEUDO_DELAY_MS });
    case "workers-ai":
      return workersAiEngine(needAi());
    case "workers-ai-llm":
      return workersAiLlmEngine(needAi(), config.WORKERS_AI_LLM_MODEL);
    case "deepl":
      return deeplEngine({ apiKey: need("DEEPL_API_KEY"), baseUrl: config.DEEPL_API_URL });
    case "google":
      return googleEngine({ apiKey: need("GOOGLE_TRANSLATE_API_KEY"), url: config.GOOGLE_TRANSLATE_URL });
    case "libretranslate":
      return libreTranslateEngine({ url: need("LIBRETRANSLATE_URL"), apiKey: config.LIBRETRANSLATE_API_KEY });
    case "openai-compatible":
      return openAiCompatibleEngine({ baseUrl: need("OPENAI_BASE_URL"), apiKey: config.OPENAI_API_KEY, model: need("OPENAI_MODEL") });
  }
}

const cache = new WeakMap<object, TranslationEngine[]>();

/**
 * The ordered engines configured for this deployment (from readConfig(env) settings + bindings), built
 * once per env object so per-engine state (LibreTranslate's language list) lasts across requests.
 */
export function enginesFromEnv(env: Record<string, unknown> & { AI?: Ai }): TranslationEngine[] {
  const cached = cache.get(env);
  if (cached) return cached;
  const config = readConfig(env);
  const engines = config.TRANSLATION_ENGINES.map((id) => createEngine(id, { AI: env.AI, config }));
  cache.set(env, engines);
  return engines;
}
