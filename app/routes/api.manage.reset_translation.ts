import { actorOf } from "~/audit/log.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { resetTranslationSchema } from "~/models/translation-input";
import { resetTranslation } from "~/models/translation-review.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/reset_translation {articleId, lang}`: forgets the article's translation in one language. */
export const action = jsonAction("translations.review", resetTranslationSchema, ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  return resetTranslation(context.db, context.kv, user.museumId, input, actorOf(user), subtitleReader(context.db, context.media, user.museumId));
});
