import type { AppLoadContext } from "@remix-run/cloudflare";
import { glossaryRules } from "~/models/glossary.server";
import { enginesFromEnv } from "~/translation/engines";
import type { TranslationDeps } from "~/translation/translate.server";
import { translationMonthlyCharsFrom } from "~/usage/usage.server";
import { timedEngines } from "~/visitor-cache/timing";

/**
 * What the translation pipeline needs, from a request's context: D1, KV, the configured engines,
 * waitUntil, and the museum glossary's rules (read from its model here, so translation imports none).
 */
export function translationDeps(context: AppLoadContext): TranslationDeps {
  const { env, ctx } = context.cloudflare;
  return {
    db: context.db,
    kv: context.kv,
    // Counted and timed for the `Server-Timing` header (decision 039).
    engines: context.timing
      ? timedEngines(enginesFromEnv(env as unknown as Record<string, unknown> & { AI?: Ai }), context.timing)
      : enginesFromEnv(env as unknown as Record<string, unknown> & { AI?: Ai }),
    waitUntil: (p) => ctx.waitUntil(p),
    glossary: (museumId, to) => glossaryRules(context.db, museumId, to),
    monthlyChars: translationMonthlyCharsFrom(env as unknown as Record<string, unknown>),
  };
}
