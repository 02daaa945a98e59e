// What staff do with visitors' questions (issue 34 §3, decision 151): see them grouped by what they ask, answer one
// (the answer becomes a question-and-answer part of the article, published and then translated like any text), or
// dismiss it. Only the museum's own rows, on every call.
import { z } from "zod";
import type { AccordionElement, ArticleContent } from "~/content/schema";
import { DEFAULT_TEXT_COLOR } from "~/content/defaults";
import type { Database } from "~/db/client.server";
import { conflict, DomainError, notFound } from "~/errors";
import { articleIdSchema } from "~/models/tree-input";
import { cleanVisitorText } from "./text";
import { updateArticle } from "~/models/articles.server";
import { findLiveArticle } from "~/models/live-article.server";
import { publishArticle } from "~/publishing/publish.server";
import { parseStoredContent } from "~/content/schema";
import { can, type Member } from "~/teams/roles";
import { dayOf } from "./store.server";
import { actorOf, auditD1 } from "~/audit/log.server";

import { ANSWER_MAX_CHARS, ANSWER_QUESTION_MAX_CHARS, QUESTIONS_VIEW_DAYS } from "./limits";

/** At most this many questions are read for the staff's view. */
const QUESTIONS_VIEW_ROWS = 5_000;

export interface QuestionTopic {
  articleId: number;
  articleName: string;
  topic: string;
  /** The latest wording in the museum's language. */
  question: string;
  /** Up to three wordings as visitors typed them, in their languages (the museum's own included). */
  originals: { question: string; lang: string }[];
  count: number;
  /** How many of them the published text answered. */
  answered: number;
  /** How many visitors sent it to the museum from "the text does not say". */
  sent: number;
  langs: string[];
  status: "open" | "answered" | "dismissed";
  lastDay: number;
}

export interface QuestionStats {
  /** Per article and language: questions, and how many the text answered. */
  rows: { articleId: number; articleName: string; lang: string; count: number; answered: number }[];
  total: number;
  answered: number;
}

interface Row {
  id: number;
  article_id: number;
  name: string;
  day: number;
  lang: string;
  question: string;
  source_text: string;
  topic: string;
  answered: number;
  sent: number;
  status: QuestionTopic["status"];
}

async function recentRows(d1: D1Database, museumId: number, articleId: number | null, now: number): Promise<Row[]> {
  const { results } = await d1
    .prepare(
      `SELECT q.id, q.article_id, a.unformatted_name AS name, q.day, q.lang, q.question, q.source_text, q.topic, q.answered, q.sent, q.status
       FROM visitor_questions q JOIN articles a ON a.id = q.article_id AND a.museum_id = q.museum_id
       WHERE q.museum_id = ?1 AND (?2 IS NULL OR q.article_id = ?2) AND q.day >= ?3 AND a.deleted_at IS NULL
       ORDER BY q.id DESC LIMIT ?4`,
    )
    .bind(museumId, articleId, dayOf(now) - QUESTIONS_VIEW_DAYS, QUESTIONS_VIEW_ROWS)
    .all<Row>();
  return results;
}

/** The questions of the last 90 days grouped by article and topic: open first, then the most asked. */
export function topicsOf(rows: readonly Row[]): QuestionTopic[] {
  const topics = new Map<string, QuestionTopic>();
  for (const row of rows) {
    const key = `${row.article_id}\n${row.topic}`;
    let topic = topics.get(key);
    if (!topic) {
      // Rows come newest first: the first seen is the latest wording and status.
      topic = {
        articleId: row.article_id,
        articleName: row.name,
        topic: row.topic,
        question: row.source_text,
        originals: [],
        count: 0,
        answered: 0,
        sent: 0,
        langs: [],
        status: row.status,
        lastDay: row.day,
      };
      topics.set(key, topic);
    }
    topic.count += 1;
    topic.answered += row.answered ? 1 : 0;
    topic.sent += row.sent ? 1 : 0;
    if (!topic.langs.includes(row.lang)) topic.langs.push(row.lang);
    if (topic.originals.length < 3 && !topic.originals.some((o) => o.question === row.question))
      topic.originals.push({ question: row.question, lang: row.lang });
  }
  const rank = (t: QuestionTopic) => (t.status === "open" ? (t.answered < t.count ? 0 : 1) : 2);
  return [...topics.values()].sort((a, b) => rank(a) - rank(b) || b.sent - a.sent || b.count - a.count || b.lastDay - a.lastDay);
}

export function statsOf(rows: readonly Row[]): QuestionStats {
  const by = new Map<string, QuestionStats["rows"][number]>();
  for (const row of rows) {
    const key = `${row.article_id}\n${row.lang}`;
    const entry = by.get(key) ?? { articleId: row.article_id, articleName: row.name, lang: row.lang, count: 0, answered: 0 };
    entry.count += 1;
    entry.answered += row.answered ? 1 : 0;
    by.set(key, entry);
  }
  return {
    rows: [...by.values()].sort((a, b) => b.count - a.count || a.articleName.localeCompare(b.articleName) || a.lang.localeCompare(b.lang)),
    total: rows.length,
    answered: rows.filter((r) => r.answered).length,
  };
}

/** The staff's view: topics and statistics, museum-wide or for one article. */
export async function questionsView(d1: D1Database, museumId: number, articleId: number | null, now = Date.now()) {
  const rows = await recentRows(d1, museumId, articleId, now);
  return { topics: topicsOf(rows), stats: statsOf(rows) };
}

/** The dashboard's card: this week's questions the text did not answer and staff have not handled. */
export async function weekUnanswered(d1: D1Database, museumId: number, now = Date.now()) {
  const { results } = await d1
    .prepare(
      `SELECT q.article_id, a.unformatted_name AS name, q.topic, count(*) AS count,
         (SELECT source_text FROM visitor_questions x WHERE x.museum_id = ?1 AND x.article_id = q.article_id AND x.topic = q.topic ORDER BY x.id DESC LIMIT 1) AS question
       FROM visitor_questions q JOIN articles a ON a.id = q.article_id AND a.museum_id = q.museum_id
       WHERE q.museum_id = ?1 AND q.day >= ?2 AND q.answered = 0 AND q.status = 'open' AND a.deleted_at IS NULL
       GROUP BY q.article_id, q.topic ORDER BY count DESC, max(q.id) DESC`,
    )
    .bind(museumId, dayOf(now) - 6)
    .all<{ article_id: number; name: string; topic: string; count: number; question: string }>();
  return {
    topics: results.length,
    questions: results.reduce((sum, r) => sum + r.count, 0),
    top: results.slice(0, 5).map((r) => ({ articleId: r.article_id, articleName: r.name, question: r.question, count: r.count })),
  };
}

const topicSchema = z.string({ required_error: "required", invalid_type_error: "wrong_type" }).min(1, "empty").max(300, "too_long");
const articleId = articleIdSchema;
/** Text staff write for visitors: NFC, no control or bidirectional-override characters, no lone surrogate. */
const cleanText = (max: number) =>
  z
    .string({ required_error: "required", invalid_type_error: "wrong_type" })
    .transform((text) => cleanVisitorText(text))
    .pipe(z.string().min(1, "empty").max(max, "too_long"));

export const dismissQuestionSchema = z.object({ articleId, topic: topicSchema });

export const answerQuestionSchema = z.object({
  articleId,
  topic: topicSchema,
  /** The question as the article will show it (staff may reword what visitors typed). */
  question: cleanText(ANSWER_QUESTION_MAX_CHARS),
  answer: cleanText(ANSWER_MAX_CHARS),
});

/** 404 when the museum's article was never asked this, else 409: another member handled it meanwhile. */
async function notOpen(d1: D1Database, museumId: number, articleId: number, topic: string): Promise<never> {
  const exists = await d1
    .prepare("SELECT 1 AS one FROM visitor_questions WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 LIMIT 1")
    .bind(museumId, articleId, topic)
    .first();
  if (!exists) throw notFound("Question", "topic");
  throw conflict("topic", "Another member answered or dismissed this question meanwhile", "already_handled");
}

/**
 * `dismiss_question`: the open topic leaves the list (its repeats stay dismissed); dismissing it again is harmless.
 * 404 for a topic not of the article, 409 for one another member answered meanwhile.
 */
export async function dismissQuestion(d1: D1Database, user: { id: number; email: string; museumId: number }, input: z.infer<typeof dismissQuestionSchema>) {
  const { museumId } = user;
  const changed = await d1
    .prepare("UPDATE visitor_questions SET status = 'dismissed' WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 AND status = 'open' RETURNING id")
    .bind(museumId, input.articleId, input.topic)
    .all();
  if (changed.results.length === 0) {
    // Dismissed already (by this member's other tab, or a colleague): as asked, and nothing more to record.
    const already = await d1
      .prepare("SELECT 1 AS one FROM visitor_questions WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 AND status = 'dismissed' LIMIT 1")
      .bind(museumId, input.articleId, input.topic)
      .first();
    if (already) return { articleId: input.articleId, topic: input.topic, status: "dismissed" as const, questions: 0 };
    await notOpen(d1, museumId, input.articleId, input.topic);
  }
  const about = await d1
    .prepare(
      `SELECT a.unformatted_name AS name, (SELECT source_text FROM visitor_questions WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 ORDER BY id DESC LIMIT 1) AS question
       FROM articles a WHERE a.id = ?2 AND a.museum_id = ?1`,
    )
    .bind(museumId, input.articleId, input.topic)
    .first<{ name: string; question: string }>();
  await auditD1(d1, {
    museumId,
    actor: actorOf(user),
    action: "question.dismiss",
    target: `article:${input.articleId}`,
    detail: { name: about?.name ?? "", question: (about?.question ?? "").slice(0, 300), topic: input.topic },
  }).run();
  return { articleId: input.articleId, topic: input.topic, status: "dismissed" as const, questions: changed.results.length };
}

/** The color of the article's last text, so the answer reads as the text around it does (contrast included). */
function textColor(content: ArticleContent): string {
  for (let i = content.length - 1; i >= 0; i -= 1) {
    const element = content[i]!;
    if (element.type === "text" || element.type === "accordion") return element.type === "text" ? element.color : element.header.color;
  }
  return DEFAULT_TEXT_COLOR;
}

/** The question-and-answer part an answer adds: an accordion whose header is the question, its text the answer. */
export function questionAndAnswer(content: ArticleContent, question: string, answer: string): AccordionElement {
  const color = textColor(content);
  const style = { fontSize: 16, bold: false, italic: false, color };
  return {
    type: "accordion",
    header: { content: question, ...style, bold: true },
    details: [{ type: "text", content: answer, ...style, size: 100, justify: "flex-start", align: "left" }],
  };
}

/**
 * `answer_question`: the answer joins the article as a question-and-answer part. When the article had no unpublished
 * change and the member may publish, it is published at once (visitors read it, in their language, at their next
 * question or view); otherwise it waits in the draft, and the answer says so. The topic is then "answered".
 */
export async function answerVisitorQuestion(
  db: Database,
  user: { id: number; email: string; museumId: number } & Member,
  input: z.infer<typeof answerQuestionSchema>,
) {
  const d1 = db.$client;
  // The topic is claimed first: of two members answering it, even seconds apart, one adds an answer.
  const claimed = await d1
    .prepare("UPDATE visitor_questions SET status = 'answered' WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 AND status = 'open' RETURNING id")
    .bind(user.museumId, input.articleId, input.topic)
    .all<{ id: number }>();
  if (claimed.results.length === 0) await notOpen(d1, user.museumId, input.articleId, input.topic);
  try {
    const added = await addAnswer(db, user, input);
    await auditD1(d1, {
      museumId: user.museumId,
      actor: actorOf(user),
      action: "question.answer",
      target: `article:${input.articleId}`,
      detail: { name: added.name, question: input.question, topic: input.topic, published: added.published },
    }).run();
    const { name: _name, ...answer } = added;
    return answer;
  } catch (error) {
    // Nothing was added: the topic is open again, its repeats asked meanwhile too.
    await d1
      .prepare("UPDATE visitor_questions SET status = 'open' WHERE museum_id = ?1 AND article_id = ?2 AND topic = ?3 AND status = 'answered' AND id >= ?4")
      .bind(user.museumId, input.articleId, input.topic, Math.min(...claimed.results.map((r) => r.id)))
      .run();
    throw error;
  }
}

async function addAnswer(db: Database, user: { id: number; email: string; museumId: number } & Member, input: z.infer<typeof answerQuestionSchema>) {
  const row = await findLiveArticle(db, user.museumId, input.articleId);
  const content = parseStoredContent(row.content);
  const hadDraft = row.publishedContent === null || row.publishedVersion !== row.version;
  const newContent = [...content, questionAndAnswer(content, input.question, input.answer)] as ArticleContent;
  const saved = await updateArticle(db, user.museumId, { articleId: input.articleId, newContent, version: row.version }, user.id, {
    id: user.id,
    email: user.email,
  });
  let published = false;
  if (!hadDraft && can(user, "content.publish")) {
    try {
      await publishArticle(db, user, { id: input.articleId, version: saved.version, note: "Answer to visitors' question" });
      published = true;
    } catch (error) {
      // Someone saved the article meanwhile: the answer stays in the draft, for them to publish.
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return { articleId: input.articleId, topic: input.topic, status: "answered" as const, published, name: row.unformattedName };
}
