// Where visitors' questions are kept (0017, decision 151): one row per question, nothing about who asked; and the
// monthly bound on composing answers, taken as decision 148 takes translation characters.
import { spendMonth } from "~/narration/budget.server";

/** Answers composed per museum and month when neither the museum nor the deployment says otherwise. */
export const QUESTIONS_MONTHLY_DEFAULT = 10_000;
export const QUESTIONS_MONTHLY_MAX = 10_000_000;

/** `QUESTIONS_MONTHLY` from the Worker's vars: a whole number of answers a month (0 turns questions off). */
export function questionsMonthlyFrom(env: Record<string, unknown>): number {
  const raw = env.QUESTIONS_MONTHLY;
  if (raw === undefined || raw === "") return QUESTIONS_MONTHLY_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > QUESTIONS_MONTHLY_MAX) {
    throw new Error(`QUESTIONS_MONTHLY must be a whole number of answers from 0 to ${QUESTIONS_MONTHLY_MAX}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

/** `QUESTIONS_MONTHLY`, or the default when it is malformed: a visitor page never fails on it (the ask page says). */
export function questionsMonthlyOr(env: Record<string, unknown>): number {
  try {
    return questionsMonthlyFrom(env);
  } catch {
    return QUESTIONS_MONTHLY_DEFAULT;
  }
}

/**
 * Takes one answer from the museum's monthly bound in one statement: true when it fits under the museum's own
 * bound (or the deployment's `fallback`), false (nothing taken) when it does not. Fifty questions at once never
 * overshoot: each statement sees the others' counts.
 */
export async function takeAnswer(d1: D1Database, museumId: number, fallback: number, now = Date.now()): Promise<boolean> {
  const taken = await d1
    .prepare(
      `INSERT INTO question_spend (museum_id, month, answers)
       SELECT ?1, ?2, 1 WHERE 1 <= coalesce((SELECT questions_monthly FROM museums WHERE id = ?1), ?3)
       ON CONFLICT (museum_id, month) DO UPDATE SET answers = question_spend.answers + 1
       WHERE question_spend.answers + 1 <= coalesce((SELECT questions_monthly FROM museums WHERE id = ?1), ?3)
       RETURNING answers`,
    )
    .bind(museumId, spendMonth(now), fallback)
    .first();
  return taken !== null;
}

/** Gives back an answer taken for a question no engine could read (every translation engine failed). */
export async function giveBackAnswer(d1: D1Database, museumId: number, now = Date.now()): Promise<void> {
  await d1
    .prepare("UPDATE question_spend SET answers = max(0, answers - 1) WHERE museum_id = ?1 AND month = ?2")
    .bind(museumId, spendMonth(now))
    .run()
    .catch((error: unknown) => console.warn(`question answer not given back: ${String(error)}`));
}

export interface AskedQuestion {
  museumId: number;
  articleId: number;
  lang: string;
  question: string;
  sourceText: string;
  topic: string;
  answered: boolean;
}

/** The UTC day number (days since 1970-01-01) of `now`, as the statistics count days. */
export const dayOf = (now: number) => Math.floor(now / 86_400_000);

/**
 * Keeps one question; a topic staff already answered or dismissed stays so for its repeats. Returns its id (for the
 * visitor's "send it to the museum").
 */
export async function recordQuestion(d1: D1Database, asked: AskedQuestion, now = Date.now()): Promise<number> {
  const row = await d1
    .prepare(
      `INSERT INTO visitor_questions (museum_id, article_id, day, lang, question, source_text, topic, answered, status)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, coalesce(
         (SELECT status FROM visitor_questions WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?7 AND status != 'open' ORDER BY id DESC LIMIT 1),
         'open'))
       RETURNING id`,
    )
    .bind(asked.museumId, asked.articleId, dayOf(now), asked.lang, asked.question, asked.sourceText, asked.topic, asked.answered ? 1 : 0)
    .first<{ id: number }>();
  if (!row) throw new Error("the question was not kept");
  return row.id;
}

/** The visitor sends an unanswered question to the museum: true when that question of that article exists. */
export async function markSent(d1: D1Database, museumId: number, articleId: number, id: number): Promise<boolean> {
  const result = await d1
    .prepare("UPDATE visitor_questions SET sent = 1 WHERE id = ?1 AND museum_id = ?2 AND article_id = ?3 RETURNING id")
    .bind(id, museumId, articleId)
    .first();
  return result !== null;
}
