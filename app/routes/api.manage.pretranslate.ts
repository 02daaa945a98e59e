import { pretranslateSchema } from "~/models/translation-input";
import { pretranslate } from "~/models/translation-review.server";
import { actorOf } from "~/audit/log.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { translationDeps } from "~/utils/translation-deps.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/**
 * `POST /api/manage/pretranslate {articleId, langs}`: translates now into up to 20 languages, each with its
 * outcome. A translator may ask for their own languages (decision 123): every one is checked before any is translated.
 */
export const action = jsonAction("translations.review", pretranslateSchema, ({ input, user, context }) => {
  input.langs.forEach((lang: string, i: number) => assertCanReviewLanguage(user, lang, `langs.${i}`));
  return pretranslate(translationDeps(context), user.museumId, input, subtitleReader(context.db, context.media, user.museumId), actorOf(user));
});
