import { actorOf } from "~/audit/log.server";
import { deleteItem } from "~/models/tree.server";
import { deleteItemSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/delete_item {id, type, pathArray}`: to the trash, restorable for 30 days. */
export const action = jsonAction("content.edit", deleteItemSchema, ({ input, user, context }) => deleteItem(context.db, user.museumId, input, actorOf(user)));
