import { z } from "zod";
import { actorOf } from "~/audit/log.server";
import { articleIdSchema } from "~/models/tree-input";
import { langSchema } from "~/models/translation-input";
import { regenerateNarration } from "~/narration/staff.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { jsonAction, postOnly } from "~/utils/api.server";
import { forgetTried } from "~/narration/tried.server";
import { scheduleNarration } from "~/utils/narration.server";

export const loader = postOnly;

const schema = z.object({ articleId: articleIdSchema, lang: langSchema });

/**
 * `POST /api/manage/regenerate_narration {articleId, lang}`: drops the generated narration and makes it
 * again from the published text, after the answer (`{scheduled}`: false when no engine speaks the
 * language). 409 `recorded` when a recording plays there.
 */
export const action = jsonAction("translations.review", schema, async ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  await regenerateNarration(context.db, context.media, user.museumId, input.articleId, input.lang, actorOf(user));
  await forgetTried(context.kv, { museumId: user.museumId, articleId: input.articleId, lang: input.lang });
  return scheduleNarration(context, user.museumId, input.articleId, input.lang);
});
