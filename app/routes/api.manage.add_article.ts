import { actorOf } from "~/audit/log.server";
import { i18nServer } from "~/i18n/i18n.server";
import { addArticle } from "~/models/tree.server";
import { addArticleSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/add_article {pathArray}`: a new article named in the caller's interface language. */
export const action = jsonAction("content.edit", addArticleSchema, async ({ input, user, context, request }) => {
  const t = await i18nServer.getFixedT(request);
  return addArticle(context.db, user.museumId, { pathArray: input.pathArray, defaultNameBase: t("articles.newArticleBase") }, actorOf(user));
});
