import { pretranslateSchema } from "~/models/translation-input";
import { pretranslate } from "~/models/translation-review.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/pretranslate {articleId, langs}`: translates now into up to 20 languages, each with its outcome. */
export const action = jsonAction("content.edit", pretranslateSchema, ({ input, user, context }) =>
  pretranslate(translationDeps(context), user.museumId, input, subtitleReader(context.db, context.media, user.museumId)),
);
