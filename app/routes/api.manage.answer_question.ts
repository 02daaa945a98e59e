import { answerQuestionSchema, answerVisitorQuestion } from "~/questions/staff.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/**
 * `POST /api/manage/answer_question {articleId, topic, question, answer}` (decision 151): the answer joins the
 * article as a question-and-answer part, published at once unless the article has an unpublished draft (then it
 * waits there: `published: false`). 404 for a question not of the museum's article, 409 when the article changed.
 */
export const action = jsonAction("content.edit", answerQuestionSchema, ({ input, user, context }) => answerVisitorQuestion(context.db, user, input));
