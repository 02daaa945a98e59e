import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/cloudflare";
// eslint-disable-next-line @typescript-eslint/ban-ts-comment -- the file may not exist yet, so expect-error would be wrong half the time
// @ts-ignore The server build exists once `npm run build` has run; it has no type declarations.
import * as build from "../build/server/index.js";
import { createDb, type Database } from "../app/db/client.server";
import { getLoadContext, usedDb } from "../app/load-context";
import { purgeExpiredTrash } from "../app/models/trash.server";
import { pruneArticleVersions } from "../app/publishing/versions.server";
import { pruneAuditLog } from "../app/audit/log.server";
import { sweepOrphanMedia } from "../app/media/sweep.server";
import { publishDue } from "../app/publishing/publish.server";
import { publishVisitorChanges } from "../app/visitor-cache/snapshot.server";
import { NARRATION_QUEUE } from "../app/narration/message";
import { consumeNarrationBatch } from "../app/narration/queue.server";
import { narrationDepsFromEnv } from "../app/utils/narration.server";
import { SESSION_COOKIE, sessionToken } from "../app/utils/session.server";
import { createNonce, crossSiteRefusal, isCrossSiteWrite, withSecurityHeaders } from "../app/utils/security.server";
import { replayed } from "../app/visitor/replay/replay.server";
import { FROZEN_RETRY_SECONDS, groupByShard, museumShard, shardsOf } from "../app/shards/route.server";
import { recordShardSize } from "../app/shards/directory.server";
import { recordMuseumSizes } from "../app/usage/sizes.server";
import { mediaBuckets, routedMedia } from "../app/shards/media.server";
import { isVisitorPath, visitorBuild } from "./visitor-routes";
import { purgeClosedMuseums } from "../app/closing/closing.server";
import { consumeMoveBatch, euShardsFrom, MOVE_QUEUE, moveOptionsFrom } from "../app/shards/console-move.server";

/** The visitor's pages (`/r/…`, `/v/…`, `/t/…` tours, `/vtt`): their responses say where the time went (`Server-Timing`). */
const VISITOR_PATH = /^\/(r|v|t)\/|^\/vtt$/;

/** wrangler.toml's per-minute trigger: scheduled publications (any other cron is the daily one). */
const PUBLISH_CRON = "* * * * *";

const handleAnyRequest = createRequestHandler(build as unknown as ServerBuild);
// The same route modules for `/r/…`, `/t/…`, `/v/…`, matched among the routes that can answer them (decision 133:
// matching all 132 routes twice was a third of a cached visitor view's time).
const handleVisitorRequest = createRequestHandler(visitorBuild(build as unknown as ServerBuild));

/** Remix, with the route table that can match the request's path; no path is answered here (decision 136). */
const handleRemixRequest = (request: Request, loadContext: AppLoadContext) =>
  (isVisitorPath(new URL(request.url).pathname) ? handleVisitorRequest : handleAnyRequest)(request, loadContext);

/**
 * `?_data=` addressed loaders before single fetch; Remix still answers it with a bare 403 for a route id
 * it does not know. Nothing of ours uses it, so it is dropped and the request served as a plain one.
 */
function withoutLegacyDataParam(request: Request): Request {
  const url = new URL(request.url);
  if (!url.searchParams.has("_data")) return request;
  url.searchParams.delete("_data");
  return new Request(url, request);
}

/** One shard's part of a cron run: due publications every minute; the daily purges and prunes. */
async function scheduledOnShard(cron: string, db: Database, env: Env, now: number, shard: number) {
  if (cron === PUBLISH_CRON) {
    const result = await publishDue(db, now);
    // Visitors' pages of the museums concerned change at once (decisions 039, 132).
    await publishVisitorChanges(db, env.KV);
    if (result.due > 0) console.log(`scheduled publications (shard ${shard}): ${JSON.stringify(result)}`);
    return;
  }
  const purged = await purgeExpiredTrash(db, routedMedia(env, env.KV));
  console.log(`trash purge (shard ${shard}): ${JSON.stringify(purged)}`);
  // Article history past what is kept (decision 042): the newest 50 per article, more from the last 90 days.
  console.log(`article versions pruned (shard ${shard}): ${await pruneArticleVersions(db)}`);
  // Audit entries are kept two years (decision 043).
  console.log(`audit log prune (shard ${shard}): ${await pruneAuditLog(db.$client)}`);
  // What went for good was already out of visitors' sight; its rows' triggers noted it all the same, and any
  // write to a visitor table is published (decision 132).
  await publishVisitorChanges(db, env.KV);
  // Museums closed more than 30 days ago: their archive is no longer offered, and everything of them goes (decision 148).
  const closed = await purgeClosedMuseums(
    { directory: createDb(shardsOf(env).directory), shards: shardsOf(env).byIndex, kv: env.KV, media: routedMedia(env, env.KV) },
    db.$client,
    now,
  );
  if (closed.length > 0) console.log(`closed museums purged (shard ${shard}): ${JSON.stringify(closed)}`);
  // Its size, for placing new museums on the shard with the most room (decision 142).
  const bytes = await recordShardSize(shardsOf(env).directory, shard, db.$client, now);
  console.log(`shard ${shard} size: ${bytes} bytes`);
  // Each museum's share of it, for the operator's console (decision 150).
  console.log(`museum sizes (shard ${shard}): ${await recordMuseumSizes(shardsOf(env).directory, shard, db.$client, bytes, now)} museums measured`);
}

export default {
  async fetch(incoming, env, ctx) {
    const request = withoutLegacyDataParam(incoming);
    const nonce = createNonce();
    const signedIn = sessionToken(request) !== null;
    if (isCrossSiteWrite(request)) return withSecurityHeaders(crossSiteRefusal(), nonce, signedIn);
    const loadContext = getLoadContext({
      request,
      context: { cloudflare: { env, ctx, cf: incoming.cf }, cspNonce: nonce, publishesVisitorChanges: true },
    });
    // Every path is a route module's: the JSON calls on a page's path (`POST /login`, `/invite/{token}`,
    // `/reset/{token}`) are answered by that page's action (decision 136). A visitor page that route answered a
    // moment ago to the identical request is given again as it answered it (decision 141).
    let response = replayed(request, loadContext) ?? (await handleRemixRequest(request, loadContext));
    // What the request wrote to the tables visitors read is published before the answer leaves, so staff's
    // next preview shows it (decisions 039, 132); a request that wrote none of them costs nothing here.
    const db = usedDb(loadContext);
    if (db) await publishVisitorChanges(db, loadContext.kv);
    if (response.status === 405 && !response.headers.has("Allow")) {
      // Remix's own 405 (a page without an action, an unusual method) names no method; say which work.
      response = new Response(response.body, response);
      response.headers.set("Allow", request.method === "POST" ? "GET, HEAD" : "GET, HEAD, POST");
    }
    const path = new URL(request.url).pathname;
    if (VISITOR_PATH.test(path)) {
      response = new Response(response.body, response);
      response.headers.set("Server-Timing", loadContext.timing.header());
    }
    const sessionCookie = signedIn || response.headers.get("Set-Cookie")?.includes(SESSION_COOKIE) === true;
    return withSecurityHeaders(response, nonce, sessionCookie, path);
  },

  // The narrations queue (decision 104): each message generates one narration. Messages are acknowledged
  // or retried one by one (app/narration/queue.server.ts). A batch from a queue this Worker does not know
  // (a wrong wrangler.toml) is retried, so it ends in that queue's dead letters rather than being lost.
  async queue(batch, env, ctx) {
    if (batch.queue === MOVE_QUEUE) {
      const shards = shardsOf(env);
      const env_ = env as unknown as Record<string, unknown>;
      const summary = await consumeMoveBatch(
        batch.messages,
        {
          directory: shards.directory,
          shards: shards.byIndex,
          kv: env.KV,
          euShards: euShardsFrom(env_),
          audit: createDb(shards.directory),
        },
        moveOptionsFrom(env_),
      );
      console.log(JSON.stringify({ event: "move_batch", ...summary }));
      return;
    }
    if (batch.queue !== NARRATION_QUEUE) {
      console.warn(JSON.stringify({ event: "queue_unknown", queue: batch.queue, size: batch.messages.length }));
      batch.retryAll({ delaySeconds: 60 });
      return;
    }
    // Each museum's messages on its own shard (decision 142).
    const museumOf = (m: Message) => {
      const id = (m.body as { museumId?: unknown } | null)?.museumId;
      return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
    };
    const { groups, frozen } = await groupByShard(shardsOf(env), env.KV, batch.messages, museumOf);
    // A museum being moved gets its narrations once its new shard is live (decision 143).
    for (const message of frozen) message.retry({ delaySeconds: FROZEN_RETRY_SECONDS });
    for (const group of groups) {
      const deps = narrationDepsFromEnv(env, ctx, createDb(group.db));
      const summary = await consumeNarrationBatch(group.items, deps);
      // Whatever the batch wrote to the visitor tables that was not published yet (decision 132).
      await publishVisitorChanges(deps.db, env.KV);
      if (summary.dropped || summary.retried)
        console.log(JSON.stringify({ event: "narration_batch", shard: group.shard, size: group.items.length, ...summary }));
    }
  },

  // Every minute (PUBLISH_CRON): scheduled publications that are due (decision 041), at most a minute late.
  // Daily (the other cron): what has been in the trash past its 30 days goes for good, article versions past
  // what is kept, audit entries past two years, files no row references past a day (decision 112).
  // Awaited rather than handed to waitUntil: the event lasts as long as the handler, and the purge now
  // also waits on R2.
  // Each shard in turn (decision 142): one shard's failure is logged and the others still run.
  async scheduled(controller, env) {
    const shards = shardsOf(env);
    const now = Math.max(Number(controller.scheduledTime) || 0, Date.now());
    const failed: number[] = [];
    for (const [shard, d1] of shards.byIndex) {
      try {
        await scheduledOnShard(controller.cron, createDb(d1), env, now, shard);
      } catch (error) {
        failed.push(shard);
        console.error(JSON.stringify({ event: "scheduled_shard_failed", cron: controller.cron, shard, error: String(error) }));
      }
    }
    if (controller.cron !== PUBLISH_CRON) {
      // Files an import killed midway left in R2 with no row (decision 112): after the trash purge, whose
      // deletions it would otherwise find first. Each key is looked up in its museum's shard.
      // Each bucket in turn: MEDIA, and MEDIA_EU where museums keep their files in the EU (decision 144).
      for (const [jurisdiction, bucket] of mediaBuckets(env)) {
        const swept = await sweepOrphanMedia(
          { db: async (museumId) => (await museumShard(shards, env.KV, museumId))?.db ?? null, bucket, kv: env.KV, label: jurisdiction },
          now,
        );
        console.log(`media sweep${jurisdiction ? ` (${jurisdiction})` : ""}: ${JSON.stringify(swept)}`);
      }
    }
    if (failed.length > 0) throw new Error(`the scheduled run failed on shard(s) ${failed.join(", ")}`);
  },
} satisfies ExportedHandler<Env>;
