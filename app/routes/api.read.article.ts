import { describeMedia, mediaSources } from "~/models/media.server";
import { readArticle } from "~/models/tree.server";
import { articleQuerySchema } from "~/models/tree-input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/**
 * `GET /api/read/article?articleId=`: the article with its name (URL slug), unformatted_name and content,
 * and `media`: for each `/media/…` address in its draft, the file's original name (null before names were
 * kept), kind and size, from this museum's files only.
 */
export const loader = queryLoader("content.read", articleQuerySchema, async ({ input, user, context }) => {
  const article = await readArticle(context.db, user.museumId, input.articleId);
  return { ...article, media: await describeMedia(context.db, user.museumId, mediaSources(article.content)) };
});
