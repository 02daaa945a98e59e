// A visitor's question answered from the museum's published text (issue 34 §1–2, decision 151): from the cache when
// the same question in the same language met the same text; else translated into the museum's language, matched
// against the text's sentences there, composed by an LLM engine from the best of them when the deployment has one
// (or quoted as they are), and translated back with the museum's glossary. Never a word the text does not hold:
// no passage, no answer ("the museum's text does not say").
import type { ArticleContent } from "~/content/schema";
import { sha256Hex } from "~/lib/crypto";
import { glossaryFor, type GlossaryTerm } from "~/translation/glossary";
import { translateWithGlossary } from "~/translation/glossary-translate";
import type { TranslationEngine } from "~/translation/engines";
import { VISITOR_DEADLINE_MS } from "~/translation/translate.server";
import { recordUsage, takeTranslationChars, textsChars } from "~/usage/usage.server";
import type { AnswerComposer } from "./compose";
import { normalise, passagesOf, retrieve, type Passage, type PassageKind } from "./retrieve";
import { giveBackAnswer, takeAnswer } from "./store.server";
import { cleanQuestion } from "./input";

const CACHE_TTL_SECONDS = 30 * 24 * 3600;
/** Bump when the cached shape or the way answers are made changes: older entries are then never read. */
const CACHE_VERSION = "qa:v2";

/** A sentence the answer rests on, as the visitor reads it. */
export interface Quote {
  /** Where it sits in the article (`e3.content.0`), for the link to its place on the page. */
  id: string;
  kind: PassageKind;
  /** In `lang`: the visitor's when it was translated, else the museum's. */
  text: string;
  lang: string;
}

/** What a question got, as kept in the cache. */
export interface Answered {
  /** The question in the museum's language, and its words as staff see repeats grouped. */
  sourceQuestion: string;
  topic: string;
  /** The published text answered it. */
  answered: boolean;
  /** The answer an LLM composed from the quotes, when one did. */
  composed: { text: string; lang: string } | null;
  quotes: Quote[];
  /** What made it: "extractive", or the composing engine's id. */
  engine: string;
}

export type AnswerOutcome =
  | { kind: "answer"; answer: Answered; cached: boolean }
  /** The museum's monthly bound on answers is reached: questions are paused, the page still works. */
  | { kind: "paused" }
  /** No engine could read the question now (every translation engine failed): try again in a moment. */
  | { kind: "failed" };

export interface AnswerDeps {
  d1: D1Database;
  kv: KVNamespace;
  engines: readonly TranslationEngine[];
  composers: readonly AnswerComposer[];
  waitUntil: (promise: Promise<unknown>) => void;
  /** The deployment's monthly bounds: answers composed, and translation characters (decisions 148, 151). */
  questionsMonthly: number;
  translationMonthly: number;
  now?: () => number;
}

/** What the question is about: the museum, the article's published text, and what else the page shows. */
export interface AskSubject {
  museumId: number;
  sourceLang: string;
  articleId: number;
  content: ArticleContent;
  glossary: readonly GlossaryTerm[];
  /** A tour's own text for a tour stop (its name, description and stops' titles). */
  extra?: readonly ExtraText[];
  /**
   * Text read only when an answer is made, not from the cache: the video's subtitle cues, from their files. Their
   * addresses are in the content (a new file is a new address), so the cache key changes with them all the same.
   */
  more?: () => Promise<readonly ExtraText[]>;
}

export type ExtraText = { id: string; text: string; kind: PassageKind };

/**
 * The cache key: the museum's published text and glossary as the answer reads them (a change of either is a new
 * key, so publishing invalidates by construction), the engines, the visitor's language and the question's words.
 */
export async function answerKey(subject: AskSubject, lang: string, question: string, engineIds: readonly string[]): Promise<string> {
  const text = await sha256Hex(
    JSON.stringify({
      p: passagesOf(subject.content, subject.extra).map((p) => [p.id, p.text]),
      // The subtitle files the answer may read: a new file is a new address.
      v: subject.content.flatMap((element) => (element.type === "video" && element.subtitles ? [element.subtitles] : [])),
      g: glossaryFor(subject.glossary, lang),
      e: engineIds,
    }),
  );
  const asked = await sha256Hex(`${lang}\n${normalise(question)}`);
  return `${CACHE_VERSION}:${subject.museumId}:${subject.articleId}:${text.slice(0, 16)}:${lang}:${asked.slice(0, 24)}`;
}

function validAnswered(value: unknown): value is Answered {
  if (!value || typeof value !== "object") return false;
  const v = value as Partial<Answered>;
  return typeof v.sourceQuestion === "string" && typeof v.topic === "string" && typeof v.answered === "boolean" && Array.isArray(v.quotes);
}

/** Translates `texts` from → to with the glossary, within the museum's translation bound; null when it cannot. */
async function translateTexts(
  deps: AnswerDeps,
  subject: AskSubject,
  texts: readonly string[],
  from: string,
  to: string,
  rules: ReturnType<typeof glossaryFor>,
): Promise<{ texts: (string | undefined)[]; engine?: string } | null> {
  if (texts.length === 0 || from === to) return { texts: [...texts] };
  const chars = textsChars(texts);
  if (!(await takeTranslationChars(deps.d1, subject.museumId, chars, deps.translationMonthly))) return null;
  try {
    const outcome = await translateWithGlossary(deps.engines, texts, from, to, rules, { deadlineMs: VISITOR_DEADLINE_MS });
    const engine = outcome.engines.find((e) => e !== undefined);
    if (engine) deps.waitUntil(recordUsage(deps.d1, [{ museumId: subject.museumId, kind: "translation", engine, chars }]));
    return { texts: outcome.texts, engine };
  } catch {
    return null;
  }
}

/** Composes with the first engine that answers; an engine failure passes to the next, then to the quotes alone. */
async function compose(
  deps: AnswerDeps,
  subject: AskSubject,
  question: string,
  candidates: readonly Passage[],
): Promise<{ text: string | null; cited: Passage[]; engine: string } | undefined> {
  for (const composer of deps.composers) {
    try {
      const input = { question, passages: candidates.map((p, i) => ({ n: i + 1, text: p.text })), lang: subject.sourceLang };
      const signal = AbortSignal.timeout(VISITOR_DEADLINE_MS);
      const composed = await composer.compose(input, signal);
      deps.waitUntil(
        recordUsage(deps.d1, [
          { museumId: subject.museumId, kind: "questions", engine: composer.id, chars: textsChars([question, ...input.passages.map((p) => p.text)]) },
        ]),
      );
      if (!composed) return { text: null, cited: [], engine: composer.id };
      return { text: composed.answer, cited: composed.cited.map((n) => candidates[n - 1]!).filter(Boolean), engine: composer.id };
    } catch (error) {
      console.warn(`answer engine ${composer.id} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return undefined;
}

/** The answer to `question` (as typed, in `lang`) about the subject's published text. */
export async function answerQuestion(deps: AnswerDeps, subject: AskSubject, lang: string, question: string): Promise<AnswerOutcome> {
  const now = deps.now?.() ?? Date.now();
  const asked = cleanQuestion(question);
  const key = await answerKey(subject, lang, asked, [...deps.engines.map((e) => e.id), ...deps.composers.map((c) => c.id)]);
  const kept = await deps.kv.get(key, "json").catch(() => null);
  if (validAnswered(kept)) return { kind: "answer", answer: kept, cached: true };

  if (!(await takeAnswer(deps.d1, subject.museumId, deps.questionsMonthly, now))) return { kind: "paused" };
  const from = subject.sourceLang;
  const rulesIn = glossaryFor(subject.glossary, from);
  const inMuseumLanguage = await translateTexts(deps, subject, [asked], lang, from, rulesIn);
  const sourceQuestion = inMuseumLanguage?.texts[0];
  if (sourceQuestion === undefined) {
    await giveBackAnswer(deps.d1, subject.museumId, now);
    return { kind: "failed" };
  }

  const more = subject.more ? await subject.more().catch(() => []) : [];
  const retrieval = retrieve(sourceQuestion, passagesOf(subject.content, [...(subject.extra ?? []), ...more]));
  // What staff see repeats grouped by: what the question asks for (a number, a time…) and its words, in any order.
  const terms = [...retrieval.terms].sort().join(" ");
  const topic = (terms ? [retrieval.type, terms].filter(Boolean).join(": ") : normalise(sourceQuestion)).slice(0, 300);
  const composed = retrieval.candidates.length > 0 ? await compose(deps, subject, sourceQuestion, retrieval.candidates) : undefined;
  // An engine that read the passages and found no answer is believed; one that failed leaves the quotes alone.
  const cited = composed ? composed.cited : retrieval.found;
  // An engine that answered with one of the sentences as it stands adds nothing to the quote: the quote alone shows.
  const composedText = composed?.text && !cited.some((p) => normalise(p.text) === normalise(composed.text!)) ? composed.text : null;

  const rulesOut = glossaryFor(subject.glossary, lang);
  const out = await translateTexts(deps, subject, [...(composedText ? [composedText] : []), ...cited.map((p) => p.text)], from, lang, rulesOut);
  const shown = (text: string, i: number) => {
    const translated = out?.texts[i];
    return translated === undefined ? { text, lang: from } : { text: translated, lang };
  };
  const offset = composedText ? 1 : 0;
  const answer: Answered = {
    sourceQuestion,
    topic,
    answered: cited.length > 0,
    composed: composedText ? shown(composedText, 0) : null,
    quotes: cited.map((p, i) => ({ id: p.id, kind: p.kind, ...shown(p.text, i + offset) })),
    engine: composed?.engine ?? "extractive",
  };
  // Kept only when every part is in the visitor's language: an answer left in the museum's for a failed engine is
  // made again next time.
  const complete = (answer.composed === null || answer.composed.lang === lang) && answer.quotes.every((q) => q.lang === lang);
  if (complete) {
    deps.waitUntil(
      deps.kv.put(key, JSON.stringify(answer), { expirationTtl: CACHE_TTL_SECONDS, metadata: { m: subject.museumId } }).catch((error: unknown) => {
        console.warn(`answer not cached: ${String(error)}`);
      }),
    );
  }
  return { kind: "answer", answer, cached: false };
}
