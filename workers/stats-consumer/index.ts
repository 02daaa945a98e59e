import { scanEventSchema } from "../../app/queue/scan-event";

/**
 * Consumes scan events from the app Worker. The statistics issue aggregates them into `daily_stats`; for
 * now each valid message is acknowledged and each invalid one is dropped with a log, so a malformed
 * producer can never wedge the queue.
 */
export default {
  async queue(batch, _env, _ctx) {
    for (const message of batch.messages) {
      const parsed = scanEventSchema.safeParse(message.body);
      if (!parsed.success) {
        console.warn(`stats-consumer: dropping malformed message ${message.id}: ${parsed.error.issues[0]?.message}`);
      }
      message.ack();
    }
  },
} satisfies ExportedHandler<ConsumerEnv, unknown>;
