import { readArticle } from "~/models/tree.server";
import { articleQuerySchema } from "~/models/tree-input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/article?articleId=`: the article with its name (URL slug), unformatted_name and content. */
export const loader = queryLoader("content.read", articleQuerySchema, ({ input, user, context }) =>
  readArticle(context.db, user.museumId, input.articleId),
);
