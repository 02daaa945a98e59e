import { articleQuerySchema } from "~/models/tree-input";
import { listTranslationLanguages } from "~/models/translation-review.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { limitedLanguages } from "~/teams/roles";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/translations?articleId=`: each language the article is translated in (and a translator's own), with its counts. */
export const loader = queryLoader("translations.review", articleQuerySchema, ({ input, user, context }) =>
  listTranslationLanguages(context.db, user.museumId, input.articleId, subtitleReader(context.db, context.media, user.museumId), limitedLanguages(user) ?? []),
);
