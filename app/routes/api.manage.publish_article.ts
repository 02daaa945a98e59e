import { publishArticle } from "~/publishing/publish.server";
import { publishArticleSchema } from "~/publishing/publishing-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/**
 * `POST /api/manage/publish_article {id, version, at?, note?}` (decision 041): publishes the saved draft
 * now; `at` schedules it (ISO 8601 with an offset, or the museum's wall clock "YYYY-MM-DDTHH:mm"),
 * `at: null` cancels the schedule. 409 when `version` is stale or there is nothing new to publish.
 */
export const action = jsonAction("content.publish", publishArticleSchema, ({ input, user, context }) => publishArticle(context.db, user, input));
