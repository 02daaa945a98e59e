import type { AppLoadContext } from "@remix-run/cloudflare";
import { readConfig, type AppConfig } from "./config.server";
import { createDb, type Database } from "./db/client.server";

export interface CloudflareContext {
  env: Env;
  ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
  cf?: unknown;
}

export interface AppContext {
  cloudflare: CloudflareContext;
  db: Database;
  kv: KVNamespace;
  media: R2Bucket;
  scans: Queue;
  ai: Ai;
  config: AppConfig;
  /** Per-request nonce for the Content-Security-Policy; absent under `vite dev`. */
  cspNonce?: string;
}

declare module "@remix-run/cloudflare" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

/** Builds the one typed context every loader and action receives, in dev and production alike. */
export function getLoadContext({
  context,
}: {
  request: Request;
  context: { cloudflare: CloudflareContext; cspNonce?: string };
}): AppLoadContext {
  const { env } = context.cloudflare;
  return {
    cloudflare: context.cloudflare,
    db: createDb(env.DB),
    kv: env.KV,
    media: env.MEDIA,
    scans: env.SCANS,
    ai: env.AI,
    config: readConfig(env as unknown as Record<string, unknown>),
    cspNonce: context.cspNonce,
  };
}
