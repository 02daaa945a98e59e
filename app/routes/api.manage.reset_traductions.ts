import { actorOf } from "~/audit/log.server";
import { articleQuerySchema } from "~/models/tree-input";
import { resetArticleTranslations } from "~/models/translations.server";
import { subtitleReader } from "~/translation/catalogue.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/reset_traductions {articleId}` (the spec's spelling): every language's translation of the article is forgotten. */
export const action = jsonAction("content.edit", articleQuerySchema, ({ input, user, context }) =>
  resetArticleTranslations(context.db, context.kv, user.museumId, input.articleId, actorOf(user), subtitleReader(context.db, context.media, user.museumId)),
);
