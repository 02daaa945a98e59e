import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";
import { ANSWER_MAX_CHARS, ANSWER_QUESTION_MAX_CHARS, QUESTIONS_VIEW_DAYS } from "~/questions/limits";
import { questionsView, type QuestionTopic } from "~/questions/staff.server";
import { can } from "~/teams/roles";
import questionsStyles from "~/styles/questions.css?url";
import { callApi, type ApiFailure } from "~/utils/api-client";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "questions", { noindex: true });
export const links: LinksFunction = () => [{ rel: "stylesheet", href: questionsStyles }];

/** `GET /questions[?article=ID]`: what visitors asked, museum-wide or about one article (decision 151). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.read");
  const raw = new URL(request.url).searchParams.get("article");
  const asked = raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : null;
  const [view, all] = await Promise.all([
    questionsView(context.db.$client, user.museumId, asked),
    asked === null ? null : questionsView(context.db.$client, user.museumId, null),
  ]);
  // The filter lists every article visitors asked about, whichever is chosen.
  const source = all ?? view;
  const articles = [...new Map(source.stats.rows.map((r) => [r.articleId, r.articleName])).entries()]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return { ...view, articles, article: asked, canEdit: can(user, "content.edit"), days: QUESTIONS_VIEW_DAYS };
}

function errorText(t: (key: string, options?: Record<string, unknown>) => string, result: ApiFailure): string {
  if (result.status === 404) return t("questions.gone");
  if (result.status === 409 && result.error.reason === "already_handled") return t("questions.handled");
  if (result.status === 409) return t("questions.changed");
  if (result.status === 400 && result.error.field)
    return t("questions.invalidField", { field: t(`questions.fields.${result.error.field}`, { defaultValue: result.error.field }) });
  return t("questions.failed");
}

/** The list is stale: the question or its article is gone, or another member handled it. */
const stale = (result: ApiFailure) => result.status === 404 || (result.status === 409 && result.error.reason === "already_handled");

function Topic({
  topic,
  canEdit,
  onDone,
  onStale,
}: {
  topic: QuestionTopic;
  canEdit: boolean;
  onDone: (message: string) => void;
  onStale: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);
  const answerField = useRef<HTMLTextAreaElement>(null);
  const answerButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) answerField.current?.focus();
  }, [open]);
  const id = `q-${topic.articleId}-${encodeURIComponent(topic.topic).replace(/%/g, "")}`.slice(0, 120);

  async function dismiss() {
    if (busy) return;
    setBusy(true);
    const result = await callApi("/api/manage/dismiss_question", { articleId: topic.articleId, topic: topic.topic });
    setBusy(false);
    if (result.ok) onDone(t("questions.dismissed"));
    else if (stale(result)) onStale(errorText(t, result));
    else toast.error(errorText(t, result));
  }

  async function answer(form: HTMLFormElement) {
    if (busy) return;
    const data = new FormData(form);
    setBusy(true);
    setError(null);
    const result = await callApi<{ published: boolean }>("/api/manage/answer_question", {
      articleId: topic.articleId,
      topic: topic.topic,
      question: String(data.get("question") ?? ""),
      answer: String(data.get("answer") ?? ""),
    });
    setBusy(false);
    if (result.ok) {
      setOpen(false);
      onDone(result.data.published ? t("questions.answeredPublished") : t("questions.answeredDraft"));
    } else {
      if (stale(result)) onStale(errorText(t, result));
      else setError({ field: result.status === 400 ? (result.error.field ?? undefined) : undefined, text: errorText(t, result) });
    }
  }

  const status =
    topic.status !== "open"
      ? t(`questions.status.${topic.status}`)
      : topic.answered === topic.count
        ? t("questions.status.fromText")
        : t("questions.status.open");
  return (
    <li className={`question-card question-card--${topic.status}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="question-card__title">
        {topic.question}
      </h3>
      <p className="muted question-card__meta">
        <Link to={`/questions?article=${topic.articleId}`}>{topic.articleName}</Link> · {t("questions.asked", { count: topic.count })} ·{" "}
        {t("questions.answeredShare", { answered: topic.answered, count: topic.count })} · {topic.langs.join(", ")}
        {topic.sent > 0 ? ` · ${t("questions.sent", { count: topic.sent })}` : ""}
      </p>
      <p className={`question-card__status question-card__status--${topic.status}`}>{status}</p>
      {topic.originals.length > 0 && (
        <ul className="question-card__originals" aria-label={t("questions.originals")}>
          {topic.originals.map((o) => (
            <li key={`${o.lang}:${o.question}`}>
              <span className="question-card__lang">{o.lang}</span> <q lang={o.lang}>{o.question}</q>
            </li>
          ))}
        </ul>
      )}
      {canEdit && topic.status === "open" && !open && (
        <div className="question-card__actions">
          <button ref={answerButton} type="button" className="button button--small" onClick={() => setOpen(true)}>
            {t("questions.answer")}
          </button>
          <button type="button" className="button button--small button--ghost" aria-disabled={busy} onClick={() => void dismiss()}>
            {t("questions.dismiss")}
          </button>
        </div>
      )}
      {open && (
        <form
          className="question-card__form"
          onSubmit={(event) => {
            event.preventDefault();
            void answer(event.currentTarget);
          }}
        >
          <label htmlFor={`${id}-question`}>{t("questions.fields.question")}</label>
          <textarea
            id={`${id}-question`}
            name="question"
            rows={2}
            maxLength={ANSWER_QUESTION_MAX_CHARS}
            required
            defaultValue={topic.question}
            aria-invalid={error?.field === "question" ? "true" : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <label htmlFor={`${id}-answer`}>{t("questions.fields.answer")}</label>
          <p id={`${id}-help`} className="muted">
            {t("questions.answerHelp")}
          </p>
          <textarea
            ref={answerField}
            id={`${id}-answer`}
            name="answer"
            rows={4}
            maxLength={ANSWER_MAX_CHARS}
            required
            aria-invalid={error?.field === "answer" ? "true" : undefined}
            aria-describedby={error ? `${id}-help ${id}-error` : `${id}-help`}
          />
          {error && (
            <p id={`${id}-error`} className="field__error" role="alert">
              {error.text}
            </p>
          )}
          <div className="question-card__actions">
            <button type="submit" className="button button--small" aria-disabled={busy}>
              {t("questions.publishAnswer")}
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => {
                setOpen(false);
                setError(null);
                requestAnimationFrame(() => answerButton.current?.focus());
              }}
            >
              {t("questions.cancel")}
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

export default function Questions() {
  const { topics, stats, articles, article, canEdit, days } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const heading = useRef<HTMLHeadingElement>(null);
  const share = stats.total === 0 ? 0 : Math.round((stats.answered / stats.total) * 100);
  const open = topics.filter((topic) => topic.status === "open");
  const handled = topics.filter((topic) => topic.status !== "open");

  /** Another member handled it, or it is gone: the reason stays in a toast, the list refreshes, focus goes to its heading. */
  function refreshed(message: string) {
    toast.error(message);
    revalidator.revalidate();
    requestAnimationFrame(() => heading.current?.focus());
  }

  function done(message: string) {
    toast.success(message);
    revalidator.revalidate();
    // The card is gone from the open list: focus goes to the list's heading, never lost.
    requestAnimationFrame(() => heading.current?.focus());
  }

  return (
    <section className="page questions-page">
      <h1>{t("questions.title")}</h1>
      <p className="muted">{t("questions.intro", { count: days })}</p>
      <Form method="get" className="questions-filter">
        <label htmlFor="questions-article">{t("questions.article")}</label>
        <select id="questions-article" name="article" defaultValue={article ?? ""}>
          <option value="">{t("questions.allArticles")}</option>
          {articles.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
        <button type="submit" className="button button--small">
          {t("questions.show")}
        </button>
      </Form>
      <p className="questions-summary">{t("questions.summary", { count: stats.total, share })}</p>
      <h2 ref={heading} tabIndex={-1}>
        {t("questions.openTitle", { count: open.length })}
      </h2>
      {open.length === 0 ? <p>{t("questions.none")}</p> : null}
      <ul className="question-list">
        {open.map((topic) => (
          <Topic key={`${topic.articleId}:${topic.topic}`} topic={topic} canEdit={canEdit} onDone={done} onStale={refreshed} />
        ))}
      </ul>
      {handled.length > 0 && (
        <>
          <h2>{t("questions.handledTitle", { count: handled.length })}</h2>
          <ul className="question-list">
            {handled.map((topic) => (
              <Topic key={`${topic.articleId}:${topic.topic}`} topic={topic} canEdit={canEdit} onDone={done} onStale={refreshed} />
            ))}
          </ul>
        </>
      )}
      {stats.rows.length > 0 && (
        <>
          <h2>{t("questions.statsTitle")}</h2>
          <div className="table-scroll">
            <table className="questions-stats">
              <thead>
                <tr>
                  <th scope="col">{t("questions.article")}</th>
                  <th scope="col">{t("questions.language")}</th>
                  <th scope="col">{t("questions.count")}</th>
                  <th scope="col">{t("questions.fromText")}</th>
                </tr>
              </thead>
              <tbody>
                {stats.rows.map((row) => (
                  <tr key={`${row.articleId}:${row.lang}`}>
                    <td>{row.articleName}</td>
                    <td>{row.lang}</td>
                    <td>{row.count}</td>
                    <td>{Math.round((row.answered / row.count) * 100)} %</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
