import { createScheduledController, env } from "cloudflare:test";
import worker from "../../workers/app";

/**
 * Runs the app Worker's cron handler as Cloudflare would at `scheduledTime` for `cron`, to its end. (The Workers vitest
 * plugin's `SELF` Fetcher cannot carry `scheduled()` any more: its options do not serialise.)
 */
export async function runCron(cron: string, scheduledTime: Date = new Date()): Promise<void> {
  await worker.scheduled(createScheduledController({ scheduledTime, cron }), env);
}
