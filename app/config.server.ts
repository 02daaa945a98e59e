import { z } from "zod";
import { ENGINE_IDS, type EngineId } from "./translation/engines/codes";
import { SPEECH_ENGINE_IDS, type SpeechEngineId } from "./speech/engines/types";

// wrangler passes unset optional vars as "" (a `[vars]` line left empty), which means "not set".
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

const httpUrl = (name: string) =>
  z
    .string()
    .url(`${name} must be an absolute URL`)
    .refine((value) => /^https?:\/\//i.test(value), `${name} must be an http: or https: URL`);

const engineList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((id) => id.trim())
      .filter((id) => id !== ""),
  )
  .pipe(
    z
      .array(z.enum(ENGINE_IDS, { errorMap: () => ({ message: `lists an unknown engine; known: ${ENGINE_IDS.join(", ")}` }) }))
      .min(1, "lists no engine")
      .refine((ids) => new Set(ids).size === ids.length, "lists an engine twice"),
  );

const speechEngineList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((id) => id.trim())
      .filter((id) => id !== ""),
  )
  .pipe(
    z
      .array(z.enum(SPEECH_ENGINE_IDS, { errorMap: () => ({ message: `lists an unknown speech engine; known: ${SPEECH_ENGINE_IDS.join(", ")}` }) }))
      .refine((ids) => new Set(ids).size === ids.length, "lists an engine twice"),
  );

/** Speech engines when SPEECH_ENGINES is not set (decision 090): Workers AI's MeloTTS, which needs no key. */
export const DEFAULT_SPEECH_ENGINES: readonly SpeechEngineId[] = ["workers-ai"];

/** What each speech engine needs besides its name in SPEECH_ENGINES. */
export const REQUIRED_SPEECH_SETTINGS: Partial<Record<SpeechEngineId, readonly string[]>> = {
  google: ["GOOGLE_TTS_API_KEY"],
  "openai-compatible": ["SPEECH_OPENAI_BASE_URL"],
};

/**
 * Engines used when TRANSLATION_ENGINES is not set: the real ones that need no key (decision 037). The
 * offline `pseudo` engine is for local runs and tests, which set it explicitly (.dev.vars, `npm start`,
 * the test configs).
 */
export const DEFAULT_ENGINES: readonly EngineId[] = ["workers-ai", "workers-ai-llm"];

/** Engines that run through the Worker's `AI` binding (Cloudflare only). */
export const AI_BINDING_ENGINES: readonly EngineId[] = ["workers-ai", "workers-ai-llm"];

/** What each engine needs besides its name in TRANSLATION_ENGINES (docs/translation-engines.md). */
export const REQUIRED_SETTINGS: Partial<Record<EngineId, readonly string[]>> = {
  deepl: ["DEEPL_API_KEY"],
  google: ["GOOGLE_TRANSLATE_API_KEY"],
  libretranslate: ["LIBRETRANSLATE_URL"],
  "openai-compatible": ["OPENAI_BASE_URL", "OPENAI_MODEL"],
};

const configSchema = z
  .object({
    // Keys the login rate limiter's HMAC, so D1 never holds raw e-mail or IP addresses.
    SESSION_SECRET: z
      .string({ required_error: "SESSION_SECRET is not set (a secret of at least 32 characters)" })
      .min(32, "SESSION_SECRET must hold at least 32 characters"),
    // Base of the addresses printed on QR codes; empty means "the address the request came in on". At most
    // 150 characters: a short base keeps the code's modules large, and qrcode-svg's level-H tables fail for
    // some longer payloads (decision 013).
    PUBLIC_BASE_URL: z
      .union([z.literal(""), z.string().url("PUBLIC_BASE_URL must be an absolute URL").max(150, "PUBLIC_BASE_URL holds at most 150 characters")])
      .default(""),
    // Machine translation (decision 018): engines in order of preference, then each one's settings.
    TRANSLATION_ENGINES: optional(engineList),
    // Replaced by TRANSLATION_ENGINES; still read so an old deployment that chose a real engine with it
    // fails with a useful message instead of silently showing pseudo-translations.
    TRANSLATION_ENGINE: optional(z.string()),
    PSEUDO_DELAY_MS: optional(z.coerce.number().int("PSEUDO_DELAY_MS must be a whole number").min(0).max(60_000)).transform((value) => value ?? 0),
    WORKERS_AI_LLM_MODEL: optional(
      z.string().regex(/^@cf\/[\w.-]+\/[\w.-]+$/, "WORKERS_AI_LLM_MODEL must be a Workers AI model name such as @cf/meta/llama-3.1-8b-instruct"),
    ).transform((value) => value ?? "@cf/meta/llama-3.3-70b-instruct-fp8-fast"),
    DEEPL_API_KEY: optional(z.string()),
    // Empty: chosen from the key (free keys end in ":fx").
    DEEPL_API_URL: optional(httpUrl("DEEPL_API_URL")),
    GOOGLE_TRANSLATE_API_KEY: optional(z.string()),
    GOOGLE_TRANSLATE_URL: optional(httpUrl("GOOGLE_TRANSLATE_URL")).transform((value) => value ?? "https://translation.googleapis.com/language/translate/v2"),
    LIBRETRANSLATE_URL: optional(httpUrl("LIBRETRANSLATE_URL")),
    LIBRETRANSLATE_API_KEY: optional(z.string()),
    OPENAI_BASE_URL: optional(httpUrl("OPENAI_BASE_URL")),
    OPENAI_API_KEY: optional(z.string()),
    OPENAI_MODEL: optional(z.string().max(200)),
    // Narration (decision 090): speech engines in order of preference ("" = none: read-aloud only).
    SPEECH_ENGINES: z.preprocess((value) => (value === undefined ? undefined : String(value)), speechEngineList.optional()),
    SPEECH_OPENAI_BASE_URL: optional(httpUrl("SPEECH_OPENAI_BASE_URL")),
    SPEECH_OPENAI_API_KEY: optional(z.string()),
    SPEECH_OPENAI_MODEL: optional(z.string().max(200)).transform((value) => value ?? "tts-1"),
    SPEECH_OPENAI_VOICE: optional(z.string().max(100)).transform((value) => value ?? "alloy"),
    GOOGLE_TTS_API_KEY: optional(z.string()),
    GOOGLE_TTS_URL: optional(httpUrl("GOOGLE_TTS_URL")).transform((value) => value ?? "https://texttospeech.googleapis.com/v1/text:synthesize"),
    // The local eSpeak service the `offline` engine reads with (decision 102); `npm start` and the tests set it.
    OFFLINE_SPEECH_URL: optional(httpUrl("OFFLINE_SPEECH_URL")),
  })
  .superRefine((config, ctx) => {
    if (config.TRANSLATION_ENGINES === undefined && config.TRANSLATION_ENGINE !== undefined && config.TRANSLATION_ENGINE !== "pseudo") {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["TRANSLATION_ENGINE"],
        message: `TRANSLATION_ENGINE was replaced by TRANSLATION_ENGINES, an ordered list such as "deepl,workers-ai,workers-ai-llm"`,
      });
    }
    for (const engine of config.TRANSLATION_ENGINES ?? []) {
      for (const name of REQUIRED_SETTINGS[engine] ?? []) {
        if (config[name as keyof typeof config] === undefined) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            path: [name],
            message: `${name} is required because TRANSLATION_ENGINES lists ${engine}`,
          });
        }
      }
    }
    for (const engine of config.SPEECH_ENGINES ?? []) {
      for (const name of REQUIRED_SPEECH_SETTINGS[engine] ?? []) {
        if (config[name as keyof typeof config] === undefined) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: `${name} is required because SPEECH_ENGINES lists ${engine}` });
        }
      }
    }
  })
  .transform(({ TRANSLATION_ENGINE: _replaced, ...config }) => ({
    ...config,
    TRANSLATION_ENGINES: config.TRANSLATION_ENGINES ?? [...DEFAULT_ENGINES],
    SPEECH_ENGINES: config.SPEECH_ENGINES ?? [...DEFAULT_SPEECH_ENGINES],
  }));

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

const cache = new WeakMap<object, AppConfig>();

/** Parses the Worker's vars and secrets once per env object; throws a readable ConfigError. */
export function readConfig(env: Record<string, unknown>): AppConfig {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}

export interface EngineReadiness {
  id: string;
  /** Whether the engine has every setting and binding it needs (never the values themselves). */
  ready: boolean;
  /** Names of the missing settings or bindings. */
  missing: string[];
  /** `pseudo` shows visibly fake translations: fine locally, wrong in production. */
  offline: boolean;
}

export interface ConfigReadiness {
  engines: EngineReadiness[];
  /** The engine list itself is invalid (unknown engine, listed twice…): the message, without values. */
  enginesError: string | null;
  sessionSecret: boolean;
}

const isSet = (value: unknown) => (typeof value === "string" ? value.trim() !== "" : value !== undefined && value !== null);

/**
 * What `GET /healthz` reports about the configuration, without throwing and without any value: which
 * engines are listed and whether each has what it needs. Same rules as readConfig.
 */
export function configReadiness(env: Record<string, unknown>): ConfigReadiness {
  const secret = env.SESSION_SECRET;
  const sessionSecret = typeof secret === "string" && secret.length >= 32;
  const raw = env.TRANSLATION_ENGINES;
  let ids: string[] = [...DEFAULT_ENGINES];
  let enginesError: string | null = null;
  if (isSet(raw)) {
    const parsed = engineList.safeParse(raw);
    if (parsed.success) ids = parsed.data;
    else {
      enginesError = parsed.error.issues.map((i) => `TRANSLATION_ENGINES ${i.message}`).join("; ");
      ids = String(raw)
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== "");
    }
  }
  const engines = ids.map((id): EngineReadiness => {
    if (!(ENGINE_IDS as readonly string[]).includes(id)) return { id, ready: false, missing: ["(unknown engine)"], offline: false };
    const missing = (REQUIRED_SETTINGS[id as EngineId] ?? []).filter((name) => !isSet(env[name]));
    if (AI_BINDING_ENGINES.includes(id as EngineId) && !env.AI) missing.push("AI (binding)");
    return { id, ready: missing.length === 0, missing, offline: id === "pseudo" };
  });
  return { engines, enginesError, sessionSecret };
}
