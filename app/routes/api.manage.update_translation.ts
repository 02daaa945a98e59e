import { actorOf } from "~/audit/log.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { updateTranslationSchema } from "~/models/translation-input";
import { updateTranslation } from "~/models/translation-review.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/update_translation {articleId, lang, segmentId, text}`: a staff correction, shown to visitors at once. */
export const action = jsonAction("translations.review", updateTranslationSchema, ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  return updateTranslation(context.db, context.kv, user.museumId, input, subtitleReader(context.db, context.media, user.museumId), actorOf(user));
});
