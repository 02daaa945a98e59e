import { actorOf } from "~/audit/log.server";
import { updateArticleSchema } from "~/models/article-input";
import { updateArticle } from "~/models/articles.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/**
 * `POST /api/manage/update_article {articleId, newContent, unformatted_name, version?}`: 409 when
 * `version` is stale (with `error.current`: who saved which version when) or the address is taken, 413 past 256 KB of content.
 */
export const action = jsonAction("content.edit", updateArticleSchema, ({ input, user, context }) =>
  updateArticle(context.db, user.museumId, input, user.id, actorOf(user)),
);
