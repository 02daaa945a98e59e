// The limits of visitors' questions that both the server and the staff's page know (decision 151).

/** How far back the staff's view reads, in days. */
export const QUESTIONS_VIEW_DAYS = 90;
/** A staff answer's longest text, and the question it answers as the article shows it. */
export const ANSWER_MAX_CHARS = 2_000;
export const ANSWER_QUESTION_MAX_CHARS = 300;
