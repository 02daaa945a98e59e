import { resetTranslationSchema } from "~/models/translation-input";
import { resetTranslation } from "~/models/translation-review.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/reset_translation {articleId, lang}`: forgets the article's translation in one language. */
export const action = jsonAction(resetTranslationSchema, ({ input, user, context }) => resetTranslation(context.db, context.kv, user.museumId, input));
