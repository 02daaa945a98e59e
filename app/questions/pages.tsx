// What a visitor sees of questions (issue 34 §1, decision 151): the form under the article, and the page that
// answers it. Plain HTML forms: they work without JavaScript and add no script to the page.
import { href, MuseumBar, Shell } from "~/visitor/pages/shell";
import { VisitorTextArea } from "~/visitor/pages/text-field";
import type { VisitorStrings } from "~/visitor/strings.server";
import type { Answered, Quote } from "./answer.server";
import { QUESTION_MAX_CHARS } from "./input";

type AskStrings = Pick<VisitorStrings, "askTitle" | "askLabel" | "askHelp" | "askSend">;

/** The place of the form on the article page, for the answer page's "ask another" and a refused form's way back. */
export const ASK_ANCHOR = "v-ask";

/** The form under an article: one field, posted to `{page}/ask` in the visitor's language. */
export function AskForm({
  strings,
  base,
  keep,
  lang,
  question = "",
  error,
  heading = true,
  ui,
}: {
  strings: AskStrings;
  base: string;
  keep: string;
  lang: string;
  question?: string;
  error?: string;
  /** The form's own heading (on the article page); the answer page has its own. */
  heading?: boolean;
  ui?: { lang?: string; dir?: "ltr" | "rtl" };
}) {
  return (
    <section className="v-ask" id={ASK_ANCHOR} aria-labelledby={heading ? "v-ask-title" : undefined} {...ui}>
      {heading && <h2 id="v-ask-title">{strings.askTitle}</h2>}
      <form className="v-form" method="post" action={href(`${base}/ask`, keep, {})}>
        <input type="hidden" name="lang" value={lang} />
        <VisitorTextArea
          id="v-q"
          name="q"
          label={strings.askLabel}
          help={strings.askHelp}
          error={error}
          rows={2}
          maxLength={QUESTION_MAX_CHARS}
          defaultValue={question}
        />
        <button type="submit" className="v-button">
          {strings.askSend}
        </button>
      </form>
    </section>
  );
}

/** A link to the quoted sentence's place on the article page: a text fragment the browser scrolls to and marks. */
export function quoteHref(base: string, keep: string, lang: string, quote: Quote): string {
  const words = quote.text.replace(/\s+/g, " ").trim().split(" ");
  // A fragment's text is matched word by word; a long sentence is named by its start and end.
  const fragment =
    words.length > 8 ? `${encodeFragment(words.slice(0, 4).join(" "))},${encodeFragment(words.slice(-4).join(" "))}` : encodeFragment(words.join(" "));
  return `${href(base, keep, { lang })}#:~:text=${fragment}`;
}

// The characters a text directive gives a meaning to (`,` `-` `&`) are escaped, as the specification asks.
const encodeFragment = (text: string) => encodeURIComponent(text).replace(/-/g, "%2D");

export type AskState =
  | { kind: "form"; question?: string; error?: string }
  | { kind: "answer"; question: string; questionLang: string; answer: Answered; sendToken?: { id: number; token: string } }
  | { kind: "sent"; question: string; questionLang: string };

export interface AskPageProps {
  museumName: string;
  strings: VisitorStrings;
  stringsLang: string;
  lang: string;
  base: string;
  keep: string;
  state: AskState;
  nonce?: string;
}

/** Where a quote that is not the article's visible text comes from. */
function placeOf(strings: VisitorStrings, kind: Quote["kind"]): string {
  if (kind === "subtitles") return strings.answerFromSubtitles;
  if (kind === "alt") return strings.answerFromImage;
  return strings.answerFromTour;
}

const dirOf = (lang: string) => (/^(ar|fa|he|ur|ps|sd|ug|yi|dv|ckb)(-|$)/.test(lang) ? "rtl" : "ltr");

/** The answer (quoted and linked to its place), "the text does not say" with the offer to send it, or the form again. */
export function AskPage({ museumName, strings, stringsLang, lang, base, keep, state, nonce }: AskPageProps) {
  const title = state.kind === "form" ? strings.askTitle : strings.answerTitle;
  const back = href(base, keep, { lang });
  return (
    <Shell lang={stringsLang} title={`${title} – ${museumName}`} description={strings.askTitle} bodyClass="v-page" nonce={nonce} robots="noindex, nofollow">
      <MuseumBar name={museumName} />
      <main className="v-main v-answer">
        <h1>{title}</h1>
        {state.kind !== "form" && (
          <p className="v-question" lang={state.questionLang} dir={dirOf(state.questionLang)}>
            <q>{state.question}</q>
          </p>
        )}
        {state.kind === "answer" && state.answer.answered && (
          <section aria-labelledby="v-answer-title" role="status">
            {state.answer.composed && (
              <>
                <h2 id="v-answer-title">{strings.answerComposed}</h2>
                <p lang={state.answer.composed.lang} dir={dirOf(state.answer.composed.lang)}>
                  {state.answer.composed.text}
                </p>
              </>
            )}
            {state.answer.composed ? <h3>{strings.answerFrom}</h3> : <h2 id="v-answer-title">{strings.answerFrom}</h2>}
            {state.answer.quotes.map((quote) => (
              <figure className="v-quote" key={`${quote.id}:${quote.text}`}>
                <blockquote lang={quote.lang} dir={dirOf(quote.lang)}>
                  <p>{quote.text}</p>
                </blockquote>
                <figcaption>
                  {/* A cue, an image's description, the tour's text: no place on this page to point to; the caption says where. */}
                  {quote.kind === "text" ? <a href={quoteHref(base, keep, lang, quote)}>{strings.answerSeeOnPage}</a> : placeOf(strings, quote.kind)}
                </figcaption>
              </figure>
            ))}
          </section>
        )}
        {state.kind === "answer" && !state.answer.answered && (
          <section aria-labelledby="v-answer-title">
            <h2 id="v-answer-title" role="status">
              {strings.answerNotSaid}
            </h2>
            {state.sendToken && (
              <form className="v-form" method="post" action={href(`${base}/ask`, keep, {})}>
                <p>{strings.answerSendOffer}</p>
                <input type="hidden" name="lang" value={lang} />
                <input type="hidden" name="send" value={String(state.sendToken.id)} />
                <input type="hidden" name="token" value={state.sendToken.token} />
                <button type="submit" className="v-button">
                  {strings.answerSend}
                </button>
              </form>
            )}
          </section>
        )}
        {state.kind === "sent" && <p role="status">{strings.answerSent}</p>}
        {state.kind === "form" ? (
          <AskForm strings={strings} base={base} keep={keep} lang={lang} question={state.question} error={state.error} heading={false} />
        ) : (
          <>
            <h2>{strings.askAnother}</h2>
            <AskForm strings={strings} base={base} keep={keep} lang={lang} heading={false} />
          </>
        )}
        <p>
          <a href={back}>{strings.backToArticle}</a>
        </p>
      </main>
    </Shell>
  );
}
