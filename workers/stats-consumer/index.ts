import { consumeScanBatch, pruneScanEvents, pruneScanVisits } from "../../app/queue/scan-stats.server";

/**
 * Consumes scan events from the app Worker into `daily_stats` (see app/queue/scan-stats.server.ts), and
 * prunes what it keeps for de-duplication: visitor fingerprints after every batch (kept about an hour,
 * decision 032), raw events once a day (kept 35 days, decision 021).
 */
export default {
  async queue(batch, env) {
    const summary = await consumeScanBatch(batch.messages, env.DB);
    if (summary.dropped || summary.retried) console.log(JSON.stringify({ event: "scan_batch", size: batch.messages.length, ...summary }));
    try {
      await pruneScanVisits(env.DB);
    } catch (error) {
      // The messages are already acknowledged; the next batch or the cron prunes instead.
      console.warn(JSON.stringify({ event: "scan_visits_prune_failed", error: String(error) }));
    }
  },

  async scheduled(controller, env) {
    const pruned = await pruneScanEvents(env.DB, controller.scheduledTime);
    const visits = await pruneScanVisits(env.DB, controller.scheduledTime);
    console.log(JSON.stringify({ event: "scan_events_pruned", pruned, visits }));
  },
} satisfies ExportedHandler<ConsumerEnv, unknown>;
