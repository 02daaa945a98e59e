import { approveEasyRead } from "~/easy-read/easy-read.server";
import { approveEasyReadSchema } from "~/easy-read/input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/approve_easy_read {articleId, version}`: visitors read this version from now on (409 when stale). */
export const action = jsonAction("content.publish", approveEasyReadSchema, ({ input, user, context }) => approveEasyRead(context.db, user, input));
