import { actorOf } from "~/audit/log.server";
import { StopNumberTaken, updateStopNumber } from "~/tours/stop-numbers.server";
import { updateStopNumberSchema } from "~/tours/tour-input";
import { jsonAction, postOnly } from "~/utils/api.server";
import { jsonNoStore } from "~/utils/http.server";

export const loader = postOnly;

/**
 * `POST /api/manage/update_stop_number {articleId, stopNumber|null}`: 1–9999, unique in the museum. A taken
 * number → 409 whose `error.article` {id, name} names the article that has it.
 */
export const action = jsonAction("content.edit", updateStopNumberSchema, async ({ input, user, context }) => {
  try {
    return await updateStopNumber(context.db, user.museumId, input, actorOf(user));
  } catch (error) {
    if (!(error instanceof StopNumberTaken)) throw error;
    const body = error.toBody();
    return jsonNoStore({ error: { ...body.error, article: error.holder } }, { status: 409 });
  }
});
