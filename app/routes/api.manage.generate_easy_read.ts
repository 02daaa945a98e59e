import { generateEasyRead } from "~/easy-read/easy-read.server";
import { generateEasyReadSchema } from "~/easy-read/input";
import { jsonAction, postOnly } from "~/utils/api.server";
import { easyReadDeps } from "~/utils/easy-read-deps.server";

export const loader = postOnly;

/**
 * `POST /api/manage/generate_easy_read {articleId, version}` (decision 094): writes the easy-to-read draft
 * from the article's published text with the deployment's LLM engine. 409 when `version` is stale; calls
 * made while one runs wait for it (one engine call); 503 `engine_failed` / `no_engine`, nothing changed.
 */
export const action = jsonAction("content.edit", generateEasyReadSchema, ({ input, user, context }) => generateEasyRead(easyReadDeps(context), user, input));
