import { z } from "zod";
import { actorOf } from "~/audit/log.server";
import { articleIdSchema } from "~/models/tree-input";
import { langSchema } from "~/models/translation-input";
import { deleteNarration } from "~/narration/staff.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { jsonAction, postOnly } from "~/utils/api.server";
import { forgetTried } from "~/narration/tried.server";

export const loader = postOnly;

const schema = z.object({ articleId: articleIdSchema, lang: langSchema });

/**
 * `POST /api/manage/delete_narration {articleId, lang}`: removes the narration (recorded or generated) of
 * that language; 404 when there is none. A generated one comes back at the next visit if an engine
 * speaks the language (remove a recording to go back to generation).
 */
export const action = jsonAction("translations.review", schema, async ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  const deleted = await deleteNarration(context.db, context.media, user.museumId, input.articleId, input.lang, actorOf(user));
  // A generation noted as failed or under way no longer holds the next view back (decision 098).
  await forgetTried(context.kv, { museumId: user.museumId, articleId: input.articleId, lang: input.lang });
  return deleted;
});
