import { deleteEasyRead } from "~/easy-read/easy-read.server";
import { deleteEasyReadSchema } from "~/easy-read/input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/delete_easy_read {articleId}`: removes the draft and the approved version. */
export const action = jsonAction("content.edit", deleteEasyReadSchema, ({ input, user, context }) => deleteEasyRead(context.db, user, input));
