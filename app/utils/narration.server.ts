import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ArticleContent } from "~/content/schema";
import type { Database } from "~/db/client.server";
import { DomainError } from "~/errors";
import { getMuseum } from "~/models/museums.server";
import { readArticle } from "~/models/tree.server";
import { narrationText } from "~/narration/text";
import { chargedChars, monthlyCharsFrom, readBudget } from "~/narration/budget.server";
import { narrationMessage } from "~/narration/message";
import { narrationTextHash, type NarrationDeps } from "~/narration/narrations.server";
import { routedMedia } from "~/shards/media.server";
import { speechEnginesFromEnv, speechFor } from "~/speech/engines";
import { translateArticle } from "~/translation/translate.server";
import { translationDeps } from "./translation-deps.server";

/** What narrations need, from a request's context: the consumer's, with this request's clients. */
export function narrationDeps(context: AppLoadContext): NarrationDeps {
  const { env, ctx } = context.cloudflare;
  return { ...narrationDepsFromEnv(env, ctx, context.db), media: context.media, kv: context.kv };
}

/** What the narrations queue's consumer needs, from the Worker's env and the shard's database (workers/app.ts `queue()`). */
export function narrationDepsFromEnv(env: Env, ctx: Pick<ExecutionContext, "waitUntil">, db: Database): NarrationDeps {
  return {
    db,
    // Each museum's audio in its jurisdiction's bucket (decision 144).
    media: routedMedia(env, env.KV),
    engines: speechEnginesFromEnv(env as unknown as Record<string, unknown>),
    waitUntil: (p) => ctx.waitUntil(p),
    kv: env.KV,
    queue: env.NARRATIONS,
    monthlyChars: monthlyCharsFrom(env as unknown as Record<string, unknown>),
  };
}

/**
 * The published text visitors read in `lang`: the published content itself in the museum's language, its
 * translation (machine or reviewed) in another. 409 when the article was never published or its
 * translation cannot be made now.
 */
export async function publishedNarrationText(context: AppLoadContext, museumId: number, articleId: number, lang: string): Promise<string> {
  const [article, museum] = await Promise.all([readArticle(context.db, museumId, articleId), getMuseum(context.db, museumId)]);
  if (!article.published || !museum)
    throw new DomainError("conflict", "The article was never published: there is nothing to read", "articleId", "never_published");
  const content: ArticleContent = article.published.content;
  if (lang === museum.sourceLang) return narrationText(content);
  const translated = await translateArticle(translationDeps(context), { id: article.id, museumId, content }, museum.sourceLang, lang);
  if (translated.status === "failed") throw new DomainError("conflict", "The translation in this language cannot be made now", "lang", "not_translated");
  return narrationText(translated.content);
}

/**
 * Why staff's "regenerate" queued nothing: no engine speaks the language, nothing to read, a text beyond
 * the queue's limit (decision 104), or the museum's monthly bound reached (decision 105).
 */
export type NotScheduled = "no_engine" | "empty" | "too_long" | "over_budget";

/**
 * Staff's "regenerate": queues the generation of the published text (decision 104); the consumer makes it
 * within seconds. Refused up front when the month's bound is already reached (the consumer would refuse).
 */
export async function scheduleNarration(
  context: AppLoadContext,
  museumId: number,
  articleId: number,
  lang: string,
): Promise<{ scheduled: boolean; reason?: NotScheduled }> {
  const deps = narrationDeps(context);
  const speech = speechFor(deps.engines, lang);
  if (!speech) return { scheduled: false, reason: "no_engine" };
  const text = await publishedNarrationText(context, museumId, articleId, lang);
  if (text.trim() === "") return { scheduled: false, reason: "empty" };
  const hash = await narrationTextHash(text);
  const message = narrationMessage({ museumId, articleId, lang, text, hash, voice: speech.voice });
  if (!message) return { scheduled: false, reason: "too_long" };
  const budget = await readBudget(context.db, museumId, deps.monthlyChars!);
  if (budget.used + chargedChars(text) > budget.limit) return { scheduled: false, reason: "over_budget" };
  await deps.queue!.send(message, { contentType: "json" });
  return { scheduled: true };
}
