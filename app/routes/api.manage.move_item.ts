import { actorOf } from "~/audit/log.server";
import { moveItem } from "~/models/tree.server";
import { moveItemSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/move_item {fromPathArray, itemId, toPathArray, toFolderId}`; toFolderId null = root. */
export const action = jsonAction("content.edit", moveItemSchema, ({ input, user, context }) => moveItem(context.db, user.museumId, input, actorOf(user)));
