import { assertCanReviewLanguage } from "~/teams/roles";
import { translationQuerySchema } from "~/models/translation-input";
import { readTranslation } from "~/models/translation-review.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/translation?articleId=&lang=`: the segments side by side in one language, and its open reports. */
export const loader = queryLoader("translations.review", translationQuerySchema, ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  return readTranslation(context.db, user.museumId, input.articleId, input.lang, subtitleReader(context.db, context.media, user.museumId));
});
