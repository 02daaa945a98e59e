import { listLiveArticles } from "~/models/tree.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/articles`: every live article for pickers, as {id, name, unformatted_name}. */
export const loader = readLoader("content.read", ({ user, context }) => listLiveArticles(context.db, user.museumId));
