import { listTree } from "~/models/tree.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/tree`: the museum's folders and articles, nested from the root. */
export const loader = readLoader("content.read", ({ user, context }) => listTree(context.db, user.museumId));
