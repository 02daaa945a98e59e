import { actorOf } from "~/audit/log.server";
import { markReviewedSchema } from "~/models/translation-input";
import { MarkConflict, markReviewed } from "~/models/translation-mark-reviewed.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";
import { jsonNoStore } from "~/utils/http.server";

export const loader = postOnly;

/**
 * `POST /api/manage/mark_reviewed {articleId, lang, segments:[{id, text}]}`: the machine translations the
 * person saw become reviewed as they are; 409 `{error:{…, segments:[ids]}}` when any changed meanwhile.
 */
export const action = jsonAction("translations.review", markReviewedSchema, async ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  try {
    return await markReviewed(context.db, context.kv, user.museumId, input, actorOf(user), subtitleReader(context.db, context.media, user.museumId));
  } catch (error) {
    if (!(error instanceof MarkConflict)) throw error;
    return jsonNoStore({ error: { ...error.toBody().error, segments: error.segments } }, { status: 409 });
  }
});
