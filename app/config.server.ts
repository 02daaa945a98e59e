import { z } from "zod";

export const TRANSLATION_ENGINES = ["pseudo", "workers-ai", "openai-compatible"] as const;

const configSchema = z.object({
  // Keys the login rate limiter's HMAC, so D1 never holds raw e-mail or IP addresses.
  SESSION_SECRET: z
    .string({ required_error: "SESSION_SECRET is not set (a secret of at least 32 characters)" })
    .min(32, "SESSION_SECRET must hold at least 32 characters"),
  TRANSLATION_ENGINE: z.enum(TRANSLATION_ENGINES).default("pseudo"),
  // Base of the addresses printed on QR codes; empty means "the address the request came in on". At most
  // 150 characters: a short base keeps the code's modules large, and qrcode-svg's level-H tables fail for
  // some longer payloads (decision 013).
  PUBLIC_BASE_URL: z
    .union([z.literal(""), z.string().url("PUBLIC_BASE_URL must be an absolute URL").max(150, "PUBLIC_BASE_URL holds at most 150 characters")])
    .default(""),
});

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
