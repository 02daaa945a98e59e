import { consumeScanBatch, pruneScanEvents } from "../../app/queue/scan-stats.server";

/**
 * Consumes scan events from the app Worker into `daily_stats` (see app/queue/scan-stats.server.ts), and
 * once a day prunes the raw events kept for de-duplication (docs/decisions/021-stats-consumer.md).
 */
export default {
  async queue(batch, env) {
    const summary = await consumeScanBatch(batch.messages, env.DB);
    if (summary.dropped || summary.retried) console.log(JSON.stringify({ event: "scan_batch", size: batch.messages.length, ...summary }));
  },

  async scheduled(controller, env) {
    const pruned = await pruneScanEvents(env.DB, controller.scheduledTime);
    console.log(JSON.stringify({ event: "scan_events_pruned", pruned }));
  },
} satisfies ExportedHandler<ConsumerEnv, unknown>;
