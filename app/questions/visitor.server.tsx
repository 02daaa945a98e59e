// `GET|POST {page}/ask` (issue 34 §1, §4, decision 151): a visitor's question about the work, without login or
// script. Every refusal is the form again with its reason in the visitor's language, never a 500.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { constantTimeEqual, hmacSha256Hex } from "~/lib/crypto";
import { clientNetwork } from "~/lib/network";
import { reserveAttempt } from "~/models/rate-limit.server";
import { findLanguage } from "~/translation/languages";
import type { AiRunner } from "~/translation/engines/types";
import { questionsMonthlyOr, recordQuestion, markSent } from "./store.server";
import { translationDeps } from "~/utils/translation-deps.server";
import { TRANSLATION_MONTHLY_CHARS_DEFAULT } from "~/usage/usage.server";
import { apiError, clientAddress, mediaType, methodNotAllowed, readFormBody } from "~/utils/http.server";
import { chooseLanguage } from "~/visitor/language.server";
import { visitorNotFound } from "~/visitor/not-found.server";
import { suspendedPage } from "~/visitor/page.server";
import { visitOf } from "~/visitor/article/visit.server";
import { renderDocument } from "~/visitor/pages/shell";
import type { Located } from "~/visitor/place.server";
import { htmlPage, keptQuery } from "~/visitor/respond.server";
import { visitorStrings } from "~/visitor/strings.server";
import type { TourSnapshot } from "~/visitor/tour/load.server";
import { answerQuestion, type AskSubject, type ExtraText } from "./answer.server";
import { askFormSchema, cleanQuestion, formFields, QUESTION_MAX_CHARS, sendFormSchema } from "./input";
import { subtitlesMedia } from "~/models/visitor.server";
import { vttSegments } from "~/translation/segments";
import { composersFrom, type AnswerComposer } from "./compose";
import { AskPage, type AskState } from "./pages";

/** Questions per museum and client network in 15 minutes (decision 034's window): a group on one museum Wi-Fi asks freely. */
export const QUESTIONS_PER_WINDOW = 40;
const MAX_BODY_BYTES = 8 * 1024;
const METHODS = ["GET", "HEAD", "POST"];

const composerCache = new WeakMap<object, AnswerComposer[]>();

function composers(context: AppLoadContext): AnswerComposer[] {
  const env = context.cloudflare.env as unknown as object & { AI?: unknown };
  let list = composerCache.get(env);
  if (!list) composerCache.set(env, (list = composersFrom(context.config, env.AI as AiRunner | undefined)));
  return list;
}

/** The rate-limit key: the museum, and the client's network (IPv6 /64) kept only as a keyed hash. */
async function questionKey(context: AppLoadContext, museumId: number, request: Request): Promise<string> {
  return `question:${museumId}:${await hmacSha256Hex(context.config.SESSION_SECRET, `net:${clientNetwork(clientAddress(request))}`)}`;
}

/** The token that lets the page that showed "does not say" send that very question to the museum, and no other. */
const sendToken = (context: AppLoadContext, id: number) => hmacSha256Hex(context.config.SESSION_SECRET, `question-send:${id}`);

const MAX_VTT_BYTES = 1024 * 1024;

/** The cues of the article's subtitle files (the museum's own, at most 1 MiB each), read when an answer is made. */
function subtitleTexts(context: AppLoadContext, museumId: number, content: AskSubject["content"]): () => Promise<ExtraText[]> {
  return async () => {
    const srcs = content.flatMap((element) => (element.type === "video" && element.subtitles ? [element.subtitles] : [])).slice(0, 5);
    const out: ExtraText[] = [];
    for (const [v, src] of srcs.entries()) {
      const file = await subtitlesMedia(context.db, src);
      if (!file || file.museumId !== museumId) continue;
      const object = await context.media.get(file.key);
      if (!object || object.size > MAX_VTT_BYTES) continue;
      // One paragraph of the cues together: a sentence often runs over two cues.
      out.push({ id: `vtt.${v}`, text: vttSegments(await object.text()).join(" "), kind: "subtitles" });
    }
    return out;
  };
}

/** A tour stop's question may rest on the tour's own text too: its name, description and its stops' titles. */
function tourText(snapshot: TourSnapshot | undefined): AskSubject["extra"] {
  if (!snapshot) return [];
  const { tour, stops } = snapshot.view;
  return [
    { id: "tour.name", text: tour.name, kind: "tour" as const },
    { id: "tour.description", text: tour.description, kind: "tour" as const },
    ...stops.filter((s) => s.title !== "").map((s) => ({ id: `tour.stop.${s.position}`, text: s.title, kind: "tour" as const })),
  ].filter((item) => item.text.trim() !== "");
}

export async function visitorAskPage(request: Request, context: AppLoadContext, located: Located & { snapshot?: TourSnapshot }): Promise<Response> {
  if (!METHODS.includes(request.method)) return methodNotAllowed(METHODS.join(", "));
  const { target, place } = located;
  if (!target?.article || located.draftPreview) return visitorNotFound(request, context, place);
  const visit = visitOf(request, context, { ...located, target });
  if (typeof target.museum.suspendedAt === "number" || typeof target.museum.closedAt === "number") return suspendedPage(visit);
  const { museum, article } = target;
  let lang = chooseLanguage(request, museum.sourceLang).lang;
  const deps = translationDeps(context);
  const page = async (state: AskState, status = 200, headers: Record<string, string> = {}) => {
    const { strings, lang: stringsLang } = await visitorStrings(deps, lang);
    return htmlPage(
      renderDocument(
        <AskPage
          museumName={museum.name}
          strings={strings}
          stringsLang={stringsLang}
          lang={lang}
          base={place.base}
          keep={keptQuery(new URL(request.url))}
          state={state}
          nonce={context.cspNonce}
        />,
        visit.display,
      ),
      status,
      { "Cache-Control": "private, no-store", ...headers },
    );
  };
  // Questions turned off (the museum's bound, or the deployment's, at 0): paused, even for an answer kept in the cache.
  const env = context.cloudflare.env as unknown as Record<string, unknown>;
  const questionsMonthly = questionsMonthlyOr(env);
  if (museum.questionsMonthly === 0 || questionsMonthly === 0) {
    return page({ kind: "form", error: (await visitorStrings(deps, lang)).strings.askPaused }, 503, { "Retry-After": "3600" });
  }
  if (request.method !== "POST") return page({ kind: "form" });

  if (mediaType(request) !== "application/x-www-form-urlencoded") {
    return apiError(415, "unsupported_media_type", "Send the form as application/x-www-form-urlencoded");
  }
  const body = await readFormBody(request, MAX_BODY_BYTES);
  if (!body.ok) return body.response;
  const fields = formFields(body.form);
  lang = findLanguage(fields.lang ?? "")?.code ?? lang;
  const strings = async () => (await visitorStrings(deps, lang)).strings;

  // "Send my question to the museum", from the page that said the text does not say.
  if (fields.send !== undefined) {
    const sent = sendFormSchema.safeParse(fields);
    const id = sent.success ? sent.data.send : 0;
    const encoder = new TextEncoder();
    const valid = sent.success && constantTimeEqual(encoder.encode(await sendToken(context, id)), encoder.encode(sent.data.token));
    if (!valid || !(await markSent(context.db.$client, museum.id, article.id, id))) {
      return page({ kind: "form", error: (await strings()).answerSendFailed }, 400);
    }
    const row = await context.db.$client
      .prepare("SELECT question, lang FROM visitor_questions WHERE id = ?1 AND museum_id = ?2")
      .bind(id, museum.id)
      .first<{ question: string; lang: string }>();
    return page({ kind: "sent", question: row?.question ?? "", questionLang: row?.lang ?? lang });
  }

  const asked = askFormSchema.safeParse(fields);
  if (!asked.success) {
    const words = await strings();
    const reason = asked.error.issues[0]?.message;
    const error = reason === "too_long" ? words.askTooLong : reason === "no_words" ? words.askNoWords : words.askEmpty;
    // The form comes back with what the visitor typed (cut at the limit), so nothing is lost.
    const typed = [...cleanQuestion(fields.q ?? "")].slice(0, QUESTION_MAX_CHARS).join("");
    return page({ kind: "form", question: typed, error }, 400);
  }
  const question = asked.data.q;
  const reservation = await reserveAttempt(context.db, [await questionKey(context, museum.id, request)], Date.now(), QUESTIONS_PER_WINDOW);
  if (!reservation.allowed) {
    return page({ kind: "form", question, error: (await strings()).askTooMany }, 429, { "Retry-After": String(reservation.retryAfter) });
  }

  const subject: AskSubject = {
    museumId: museum.id,
    sourceLang: museum.sourceLang,
    articleId: article.id,
    content: article.content,
    glossary: target.glossary,
    extra: tourText(located.snapshot),
    more: subtitleTexts(context, museum.id, article.content),
  };
  const outcome = await answerQuestion(
    {
      d1: context.db.$client,
      kv: context.kv,
      engines: deps.engines,
      // Counted and timed with the translation engines: `Server-Timing: engine` (decision 039).
      composers: composers(context).map((composer) => ({
        id: composer.id,
        compose: (input, signal) => context.timing.measure(context.timing.engine, () => composer.compose(input, signal)),
      })),
      waitUntil: deps.waitUntil,
      questionsMonthly,
      translationMonthly: deps.monthlyChars ?? TRANSLATION_MONTHLY_CHARS_DEFAULT,
    },
    subject,
    lang,
    question,
  );
  if (outcome.kind === "paused") return page({ kind: "form", question, error: (await strings()).askPaused }, 503, { "Retry-After": "3600" });
  if (outcome.kind === "failed") return page({ kind: "form", question, error: (await strings()).askFailed }, 503, { "Retry-After": "60" });
  const { answer } = outcome;
  const id = await recordQuestion(context.db.$client, {
    museumId: museum.id,
    articleId: article.id,
    lang,
    question,
    sourceText: answer.sourceQuestion,
    topic: answer.topic,
    answered: answer.answered,
  });
  return page({
    kind: "answer",
    question,
    questionLang: lang,
    answer,
    sendToken: answer.answered ? undefined : { id, token: await sendToken(context, id) },
  });
}
