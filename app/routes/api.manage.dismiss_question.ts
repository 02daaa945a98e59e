import { dismissQuestionSchema, dismissQuestion } from "~/questions/staff.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/dismiss_question {articleId, topic}` (decision 151): the question leaves the open list. 404 when not the museum's. */
export const action = jsonAction("content.edit", dismissQuestionSchema, ({ input, user, context }) => dismissQuestion(context.db.$client, user, input));
