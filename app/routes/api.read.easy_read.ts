import { readEasyRead } from "~/easy-read/easy-read.server";
import { articleQuerySchema } from "~/easy-read/input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/easy_read?articleId=`: the article's original, its easy-to-read draft, the approved copy and their state. */
export const loader = queryLoader("content.read", articleQuerySchema, ({ input, user, context }) => readEasyRead(context.db, user.museumId, input.articleId));
