import { listArticleVersions } from "~/publishing/versions.server";
import { articleVersionsQuerySchema } from "~/publishing/versions-input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/article_versions?id=`: the article's versions, newest first (decision 042). */
export const loader = queryLoader("content.read", articleVersionsQuerySchema, ({ input, user, context }) =>
  listArticleVersions(context.db, user.museumId, input.id),
);
