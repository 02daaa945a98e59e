import type { AppLoadContext } from "@remix-run/cloudflare";
import { enginesFromEnv } from "./engines";
import type { TranslationDeps } from "./translate.server";

/** What the translation pipeline needs, from a request's context: D1, KV, the configured engines, waitUntil. */
export function translationDeps(context: AppLoadContext): TranslationDeps {
  const { env, ctx } = context.cloudflare;
  return { db: context.db, kv: context.kv, engines: enginesFromEnv(env as unknown as Record<string, unknown> & { AI?: Ai }), waitUntil: (p) => ctx.waitUntil(p) };
}
