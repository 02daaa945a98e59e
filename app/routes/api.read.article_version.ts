import { readArticleVersion } from "~/publishing/versions.server";
import { articleVersionQuerySchema } from "~/publishing/versions-input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/article_version?id=&version=`: one version with its content (decision 042). */
export const loader = queryLoader("content.read", articleVersionQuerySchema, ({ input, user, context }) =>
  readArticleVersion(context.db, user.museumId, input.id, input.version),
);
