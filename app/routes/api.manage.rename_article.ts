import { actorOf } from "~/audit/log.server";
import { renameArticle } from "~/models/tree.server";
import { renameArticleSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/rename_article {articleId, newName}`: renames the private label. */
export const action = jsonAction("content.edit", renameArticleSchema, ({ input, user, context }) =>
  renameArticle(context.db, user.museumId, input, actorOf(user)),
);
