import { actorOf } from "~/audit/log.server";
import { restoreItem } from "~/models/trash.server";
import { restoreItemSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/restore_item {type, id}`: back from the trash (ids as listed by /api/read/trash). */
export const action = jsonAction("content.edit", restoreItemSchema, ({ input, user, context }) => restoreItem(context.db, user.museumId, input, actorOf(user)));
