import type { AppLoadContext } from "@remix-run/cloudflare";
import { readConfig, type AppConfig } from "./config.server";
import { createDb, type Database } from "./db/client.server";
import { readCookie } from "./lib/cookies";
import { requestHint } from "./shards/keys";
import { routedMedia } from "./shards/media.server";
import { RequestShards, routedD1, shardsOf } from "./shards/route.server";
import { RequestTiming, d1DelayFor, timedD1, timedKv } from "./visitor-cache/timing";

export interface CloudflareContext {
  env: Env;
  ctx: Pick<ExecutionContext, "waitUntil" | "passThroughOnException">;
  cf?: unknown;
}

export interface AppContext {
  cloudflare: CloudflareContext;
  /** The museum's shard (decision 142): the one the request named (path, session cookie) or bound since. */
  db: Database;
  /** The directory database: museums' shards, e-mail → museum, printed link → museum (decision 142). */
  directory: Database;
  /** Which museum, hence which shard, this request's `db` talks to; `shards.bind(id)` names it. */
  shards: RequestShards;
  kv: KVNamespace;
  media: R2Bucket;
  scans: Queue;
  ai: Ai;
  config: AppConfig;
  /** This request's D1/KV/engine counts and times, for the `Server-Timing` header (decision 039). */
  timing: RequestTiming;
  /**
   * Whether visitor pages may use their snapshots (decision 039): only where staff changes are published
   * after each request, i.e. under workers/app.ts (`npm start`, production), not under `vite dev`.
   */
  visitorSnapshots: boolean;
  /**
   * The request carries a session cookie (a staff member, signed in or once): visitor pages check their
   * snapshot against the museum's change stamp on every view, so a staff preview shows a save at once (decision 133).
   */
  sessionCookie: boolean;
  /** Per-request nonce for the Content-Security-Policy; absent under `vite dev`. */
  cspNonce?: string;
}

declare module "@remix-run/cloudflare" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}

/** Builds the one typed context every loader and action receives, in dev and production alike. */
export function getLoadContext({
  request,
  context,
}: {
  request: Request;
  context: { cloudflare: CloudflareContext; cspNonce?: string; publishesVisitorChanges?: boolean };
}): AppLoadContext {
  const { env } = context.cloudflare;
  // The bindings are wrapped once per request, so every D1 and KV call is counted and timed.
  const timing = new RequestTiming();
  // The D1 handle is made on first use: a cached visitor view reads no D1 and skips drizzle's set-up of the
  // schema's relations (7 % of such a view's CPU, decision 139).
  let db: Database | undefined;
  let directoryDb: Database | undefined;
  const delay = d1DelayFor(request, env as unknown as Record<string, unknown>);
  const kv = timedKv(env.KV, timing);
  const sessionToken = readCookie(request.headers.get("Cookie"), "muselingo_session") ?? null;
  // The shard is found when the first statement runs, from what the request names (decision 142).
  const all = shardsOf(env);
  const shards = new RequestShards(
    { directory: timedD1(all.directory, timing, delay), byIndex: all.byIndex },
    kv,
    requestHint(new URL(request.url), sessionToken),
  );
  const loadContext: AppLoadContext = {
    cloudflare: context.cloudflare,
    get db() {
      if (!db) {
        db = createDb(timedD1(routedD1(shards.target), timing, delay));
        made.set(loadContext, db);
      }
      return db;
    },
    get directory() {
      return (directoryDb ??= createDb(shards.shards.directory));
    },
    shards,
    kv,
    timing,
    visitorSnapshots: context.publishesVisitorChanges === true,
    // SESSION_COOKIE of app/utils/session.server.ts, named here without importing it (vite.config.ts loads this file).
    sessionCookie: sessionToken !== null,
    // Each museum's files in its jurisdiction's bucket (decision 144).
    media: routedMedia(env, kv),
    scans: env.SCANS,
    ai: env.AI,
    config: readConfig(env as unknown as Record<string, unknown>),
    cspNonce: context.cspNonce,
  };
  return loadContext;
}

const made = new WeakMap<AppLoadContext, Database>();

/** The context's D1 handle if the request used it, else undefined (nothing was written through it). */
export function usedDb(context: AppLoadContext): Database | undefined {
  return made.get(context);
}
