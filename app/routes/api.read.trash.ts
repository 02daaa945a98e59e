import { listTrash } from "~/models/trash.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/trash`: trashed articles and folders still restorable, newest first. */
export const loader = readLoader("content.edit", ({ user, context }) => listTrash(context.db, user.museumId));
