import { updateEasyRead } from "~/easy-read/easy-read.server";
import { updateEasyReadSchema } from "~/easy-read/input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/update_easy_read {articleId, version, texts}`: staff's edit of the draft (409 when stale). */
export const action = jsonAction("content.edit", updateEasyReadSchema, ({ input, user, context }) => updateEasyRead(context.db, user, input));
