import { actorOf } from "~/audit/log.server";
import { renameFolder } from "~/models/tree.server";
import { renameFolderSchema } from "~/models/tree-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/rename_folder {itemName, newName, pathArray}`; 409 when a sibling has newName. */
export const action = jsonAction("content.edit", renameFolderSchema, ({ input, user, context }) =>
  renameFolder(context.db, user.museumId, input, actorOf(user)),
);
