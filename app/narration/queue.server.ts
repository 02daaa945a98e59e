/**
 * The narrations queue's consumer (decision 104): each message is one generation, run as `generateOnce`
 * (claim + monthly count, engines, R2, conditional write, visitor pages refreshed). Messages of a batch run
 * side by side (the engines are network calls; wrangler.toml keeps batches small). Every message is
 * acknowledged or retried on its own:
 *
 * - malformed (schema, a hash that is not its text's, an article of another museum or gone): acknowledged
 *   and logged, never retried;
 * - the engines failed: retried after 30 s, then 2 min; the third failure is kept on the claim (no new try
 *   for 15 minutes, staff's "regenerate" at once) and acknowledged;
 * - anything unexpected (D1 or R2 trouble): retried with backoff; after wrangler.toml's `max_retries` the
 *   queue moves it to the dead-letter queue, which nothing consumes (a later view asks again).
 */
import type { Database } from "~/db/client.server";
import { speechFor } from "~/speech/engines";
import { generateOnce, narrationTextHash, type GenerationOutcome, type NarrationDeps } from "./narrations.server";
import { narrationMessageSchema } from "./message";
import { liveArticleSql } from "~/models/live-article.server";

/** What the consumer needs of a queue message (the runtime's `Message`, or a test's stand-in). */
export interface QueueMessage {
  readonly id: string;
  readonly body: unknown;
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/** Attempts at the engines for one message before the failure is kept (the last one keeps it). */
export const ENGINE_ATTEMPTS = 3;

/** Delay before the engines are tried again: 30 s after the first failure, 120 s after the second. */
export const engineRetrySeconds = (attempts: number) => 30 * 4 ** Math.max(0, attempts - 1);

/** Delay before a message that met trouble (D1, R2) is delivered again: 10 s, 20 s, 40 s … at most 5 min. */
export const troubleRetrySeconds = (attempts: number) => Math.min(300, 10 * 2 ** Math.max(0, attempts - 1));

export interface NarrationBatchSummary {
  done: Partial<Record<GenerationOutcome["status"], number>>;
  dropped: number;
  retried: number;
}

type Checked = { ok: true; target: Parameters<typeof generateOnce>[1] } | { ok: false; reason: string };

async function check(db: Database, deps: NarrationDeps, body: unknown): Promise<Checked> {
  const parsed = narrationMessageSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}` };
  }
  const message = parsed.data;
  // The catalogue's code, as the page sends it (another spelling would claim under another key).
  if ((body as { lang: string }).lang !== message.lang) return { ok: false, reason: "lang: not the catalogue's code" };
  if ((await narrationTextHash(message.text)) !== message.hash) return { ok: false, reason: "hash: not the text's" };
  // Tenancy: the article must be this museum's and alive (deleted meanwhile: nothing to make).
  const article = await db.$client
    .prepare(`SELECT 1 AS found FROM articles WHERE id = ?1 AND museum_id = ?2 AND ${liveArticleSql("articles", "?2")}`)
    .bind(message.articleId, message.museumId)
    .first<number>("found");
  if (!article) return { ok: false, reason: "articleId: no such live article in this museum" };
  // The engines speaking now decide the voice (a changed configuration makes the page ask for that one).
  const speech = speechFor(deps.engines, message.lang);
  if (!speech) return { ok: false, reason: "lang: no engine speaks it now" };
  const { museumId, articleId, lang, text, hash } = message;
  return { ok: true, target: { museumId, articleId, lang, text, hash, voice: speech.voice } };
}

async function consumeOne(deps: NarrationDeps, message: QueueMessage, summary: NarrationBatchSummary): Promise<void> {
  let checked: Checked;
  try {
    checked = await check(deps.db, deps, message.body);
  } catch (error) {
    summary.retried++;
    console.warn(JSON.stringify({ event: "narration_message_retry", id: message.id, attempts: message.attempts, error: String(error).slice(0, 300) }));
    message.retry({ delaySeconds: troubleRetrySeconds(message.attempts) });
    return;
  }
  if (!checked.ok) {
    summary.dropped++;
    console.warn(JSON.stringify({ event: "narration_message_dropped", id: message.id, reason: checked.reason }));
    message.ack();
    return;
  }
  const last = message.attempts >= ENGINE_ATTEMPTS;
  try {
    const outcome = await generateOnce(
      deps,
      checked.target,
      (deps.clock ?? Date.now)(),
      last ? {} : { retryInMs: engineRetrySeconds(message.attempts) * 1000 },
    );
    summary.done[outcome.status] = (summary.done[outcome.status] ?? 0) + 1;
    if (outcome.status === "retry") {
      summary.retried++;
      message.retry({ delaySeconds: engineRetrySeconds(message.attempts) });
      return;
    }
    if (outcome.status === "generated") {
      console.log(
        JSON.stringify({
          event: "narration_generated",
          museumId: checked.target.museumId,
          articleId: checked.target.articleId,
          lang: checked.target.lang,
          engine: outcome.engine,
          bytes: outcome.bytes,
          ms: outcome.ms,
        }),
      );
    }
    message.ack();
  } catch (error) {
    summary.retried++;
    console.warn(JSON.stringify({ event: "narration_message_retry", id: message.id, attempts: message.attempts, error: String(error).slice(0, 300) }));
    message.retry({ delaySeconds: troubleRetrySeconds(message.attempts) });
  }
}

/** Consumes one batch of the narrations queue; every message is acknowledged or retried on its own. */
export async function consumeNarrationBatch(messages: readonly QueueMessage[], deps: NarrationDeps): Promise<NarrationBatchSummary> {
  const summary: NarrationBatchSummary = { done: {}, dropped: 0, retried: 0 };
  await Promise.all(messages.map((message) => consumeOne(deps, message, summary)));
  return summary;
}
