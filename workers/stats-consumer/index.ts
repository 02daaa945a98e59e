import { z } from "zod";

/**
 * One scan or view of an article, sent by the app Worker. The statistics issue aggregates these into
 * `daily_stats`; for now each valid message is acknowledged and each invalid one is dropped with a log,
 * so a malformed producer can never wedge the queue.
 */
export const scanMessageSchema = z.object({
  id: z.string().uuid(),
  museumId: z.number().int().positive(),
  articleId: z.number().int().positive(),
  lang: z.string().min(2).max(35),
  kind: z.enum(["scan", "view"]),
  occurredAt: z.number().int().nonnegative(),
});
export type ScanMessage = z.infer<typeof scanMessageSchema>;

export default {
  async queue(batch, _env, _ctx) {
    for (const message of batch.messages) {
      const parsed = scanMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        console.warn(`stats-consumer: dropping malformed message ${message.id}: ${parsed.error.issues[0]?.message}`);
      }
      message.ack();
    }
  },
} satisfies ExportedHandler<ConsumerEnv, unknown>;
