import { actorOf } from "~/audit/log.server";
import { addFolder } from "~/models/tree.server";
import { addFolderSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/add_folder {pathArray, id}`; 409 when a sibling folder has that name. */
export const action = jsonAction("content.edit", addFolderSchema, ({ input, user, context }) => addFolder(context.db, user.museumId, input, actorOf(user)));
