import { restoreArticleVersion } from "~/publishing/versions.server";
import { restoreArticleVersionSchema } from "~/publishing/versions-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/restore_article_version {id, version}`: the version becomes the new draft, unpublished (decision 042). */
export const action = jsonAction("content.publish", restoreArticleVersionSchema, ({ input, user, context }) =>
  restoreArticleVersion(context.db, user.museumId, { id: user.id, email: user.email }, input),
);
