import type { ArticleContent } from "~/content/schema";
import type { VisitorArticle } from "~/models/visitor.server";
import { narrationForVisitor, type PlayableNarration } from "~/narration/narrations.server";
import { narrationText } from "~/narration/text";
import { narrationDeps } from "~/utils/narration.server";
import type { TranslatedText } from "./translation.server";
import type { Visit } from "./visit.server";

// What a narration reads of a content, by the content object (a cached translation is one object per isolate):
// the same string on every view, so the hash remembered for it is found without walking the content again.
const texts = new WeakMap<ArticleContent, string>();

function textOf(content: ArticleContent): string {
  let text = texts.get(content);
  if (text === undefined) texts.set(content, (text = narrationText(content)));
  return text;
}

/**
 * The narration of what the page shows, in the page's language (never of a draft): ready, or scheduled after
 * this answer (issue 22). A failure to decide costs the page its player, never the page.
 */
export async function narrate(visit: Visit, article: VisitorArticle, text: TranslatedText): Promise<PlayableNarration | null> {
  if (visit.draftPreview) return null;
  const { museum } = visit.target;
  return narrationForVisitor(
    // Decided from the snapshot (decision 098): no D1; "tried recently" notes come through the page's KV memo.
    { ...narrationDeps(visit.context), kv: visit.deps.kv },
    { museumId: museum.id, articleId: article.id, lang: text.lang, text: textOf(text.translated.content), narrations: visit.target.narrations },
  ).catch((error: unknown) => {
    console.warn(`narration lookup failed: ${String(error)}`);
    return null;
  });
}
