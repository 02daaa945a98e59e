import type { AppLoadContext } from "@remix-run/cloudflare";
import type { ArticleContent } from "~/content/schema";
import { DomainError } from "~/errors";
import { getMuseum } from "~/models/museums.server";
import { readArticle } from "~/models/tree.server";
import { narrationText } from "~/narration/text";
import { generateOnce, narrationTextHash, type NarrationDeps } from "~/narration/narrations.server";
import { speechEnginesFromEnv, speechFor } from "~/speech/engines";
import { translateArticle } from "~/translation/translate.server";
import { translationDeps } from "./translation-deps.server";

/** What narrations need, from a request's context. */
export function narrationDeps(context: AppLoadContext): NarrationDeps {
  const { env, ctx } = context.cloudflare;
  return {
    db: context.db,
    media: context.media,
    engines: speechEnginesFromEnv(env as unknown as Record<string, unknown>),
    waitUntil: (p) => ctx.waitUntil(p),
    kv: context.kv,
  };
}

/**
 * The published text visitors read in `lang`: the published content itself in the museum's language, its
 * translation (machine or reviewed) in another. 409 when the article was never published or its
 * translation cannot be made now.
 */
export async function publishedNarrationText(context: AppLoadContext, museumId: number, articleId: number, lang: string): Promise<string> {
  const [article, museum] = await Promise.all([readArticle(context.db, museumId, articleId), getMuseum(context.db, museumId)]);
  if (!article.published || !museum) throw new DomainError("conflict", "The article was never published: there is nothing to read", "articleId", "never_published");
  const content: ArticleContent = article.published.content;
  if (lang === museum.sourceLang) return narrationText(content);
  const translated = await translateArticle(translationDeps(context), { id: article.id, museumId, content }, museum.sourceLang, lang);
  if (translated.status === "failed") throw new DomainError("conflict", "The translation in this language cannot be made now", "lang", "not_translated");
  return narrationText(translated.content);
}

/** Staff's "regenerate": generates now, after the answer, from the published text. */
export async function scheduleNarration(context: AppLoadContext, museumId: number, articleId: number, lang: string): Promise<{ scheduled: boolean }> {
  const deps = narrationDeps(context);
  const speech = speechFor(deps.engines, lang);
  if (!speech) return { scheduled: false };
  const text = await publishedNarrationText(context, museumId, articleId, lang);
  if (text.trim() === "") return { scheduled: false };
  const hash = await narrationTextHash(text);
  deps.waitUntil(generateOnce(deps, { museumId, articleId, lang, text, hash, voice: speech.voice }).catch((error: unknown) => console.warn(`narration not generated: ${String(error)}`)));
  return { scheduled: true };
}
