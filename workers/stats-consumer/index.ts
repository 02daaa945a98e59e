import { consumeScanBatch, pruneScanEvents, pruneScanVisits } from "../../app/queue/scan-stats.server";
import { FROZEN_RETRY_SECONDS, groupByShard, shardsOf } from "../../app/shards/route.server";

/** The message's museum, read without trusting the body (consumeScanBatch validates it properly). */
function museumOf(message: Message): number | null {
  const id = (message.body as { museumId?: unknown } | null)?.museumId;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
}

/**
 * Consumes scan events from the app Worker into `daily_stats` (see app/queue/scan-stats.server.ts), and
 * prunes what it keeps for de-duplication: visitor fingerprints after every batch (kept about an hour,
 * decision 032), raw events once a day (kept 35 days, decision 021). Each batch is split by its museums'
 * shards (decision 142): each shard is written in one `batch()`, and a shard that fails retries only its own
 * messages.
 */
export default {
  async queue(batch, env) {
    const { groups, frozen } = await groupByShard(shardsOf(env), env.KV, batch.messages, museumOf);
    // A museum being moved counts its scans once its new shard is live (decision 143): nothing is lost.
    for (const message of frozen) message.retry({ delaySeconds: FROZEN_RETRY_SECONDS });
    for (const group of groups) {
      const summary = await consumeScanBatch(group.items, group.db);
      if (summary.dropped || summary.retried) console.log(JSON.stringify({ event: "scan_batch", shard: group.shard, size: group.items.length, ...summary }));
      try {
        await pruneScanVisits(group.db);
      } catch (error) {
        // The messages are already acknowledged; the next batch or the cron prunes instead.
        console.warn(JSON.stringify({ event: "scan_visits_prune_failed", shard: group.shard, error: String(error) }));
      }
    }
  },

  async scheduled(controller, env) {
    for (const [shard, db] of shardsOf(env).byIndex) {
      const pruned = await pruneScanEvents(db, controller.scheduledTime);
      const visits = await pruneScanVisits(db, controller.scheduledTime);
      console.log(JSON.stringify({ event: "scan_events_pruned", shard, pruned, visits }));
    }
  },
} satisfies ExportedHandler<ConsumerEnv, unknown>;
