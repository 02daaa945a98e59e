import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { FieldError } from "~/components/field-error";
import type { ArticleContent } from "~/content/schema";
import type { EasyReadState } from "~/easy-read/easy-read.server";
import { textFields, type FieldKind } from "~/easy-read/fields";
import type { ErrorBody, ErrorReason } from "~/errors";

export type EasyReadResult = { intent: string; ok: boolean; version?: number; errors?: Record<string, ErrorReason> } & Partial<ErrorBody>;

const KIND_KEY: Record<FieldKind, string> = {
  text: "easyRead.kind.text",
  heading: "easyRead.kind.heading",
  label: "easyRead.kind.label",
  alt: "easyRead.kind.alt",
};

function originalTexts(content: ArticleContent | null): Map<string, string> {
  return new Map(content ? textFields(content).map((f) => [f.id, f.text]) : []);
}

/** `/easy-read?id=`: the original beside the easy-to-read draft, one row per text; generate, save, approve, remove. */
export function EasyReadPage({ state, canApprove, result }: { state: EasyReadState; canApprove: boolean; result?: EasyReadResult }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const message = useRef<HTMLDivElement>(null);
  // An action's answer takes focus, so it is read at once and the keyboard stays where the news is.
  useEffect(() => {
    if (result) message.current?.focus();
  }, [result]);
  const fields = state.content ? textFields(state.content).filter((f) => f.text.trim() !== "" || originalTexts(state.original).get(f.id)?.trim()) : [];
  const originals = originalTexts(state.original);
  const counters: Record<FieldKind, number> = { text: 0, heading: 0, label: 0, alt: 0 };
  const errors = result && !result.ok ? (result.errors ?? {}) : {};
  const lang = state.sourceLang;
  const canGenerate = state.original !== null;

  return (
    <section className="page easy-read">
      <header className="articles__header">
        <h1 dir="auto">{t("easyRead.title", { name: state.articleName })}</h1>
        <Link to={`/article?id=${state.articleId}`} className="button button--ghost">
          <span aria-hidden="true">←</span> {t("easyRead.backToEditor")}
        </Link>
      </header>
      <p className="easy-read__intro">
        {t("easyRead.intro")} <a href="https://www.inclusion-europe.eu/easy-to-read/">{t("easyRead.rulesLink")}</a>
      </p>
      <p className="easy-read__status">
        <span className={`easy-read__badge easy-read__badge--${state.status}`}>{t(`easyRead.status.${state.status}`)}</span>{" "}
        {state.status === "changed" ? t("easyRead.changedNote") : null}
      </p>
      {state.stale ? (
        <p className="easy-read__notice" role="note">
          {t("easyRead.stale")}
        </p>
      ) : null}
      {!canGenerate ? <p className="easy-read__notice">{t("easyRead.neverPublished")}</p> : null}

      <div ref={message} tabIndex={-1} role="status" className="easy-read__message-slot">
        {result?.ok ? (
          <p className="easy-read__message easy-read__message--ok">{t(`easyRead.done.${result.intent}`)}</p>
        ) : result ? (
          <p className="easy-read__message easy-read__message--error">
            {result.error?.reason ? t(`errors.reasons.${result.error.reason}`, { max: 20000 }) : t(`errors.codes.${result.error?.code ?? "unknown"}`)}
          </p>
        ) : null}
      </div>

      <div className="easy-read__actions">
        {canGenerate ? (
          <Form method="post" className="easy-read__inline-form">
            <input type="hidden" name="intent" value="generate" />
            <input type="hidden" name="version" value={state.version} />
            <button
              type="submit"
              className={state.content ? "button button--ghost" : "button"}
              disabled={busyIntent !== ""}
              aria-busy={busyIntent === "generate"}
            >
              {busyIntent === "generate" ? t("easyRead.generating") : state.content ? t("easyRead.regenerate") : t("easyRead.generate")}
            </button>
          </Form>
        ) : null}
        {state.content && canApprove && (state.status === "draft" || state.status === "changed") ? (
          <Form method="post" className="easy-read__inline-form">
            <input type="hidden" name="intent" value="approve" />
            <input type="hidden" name="version" value={state.version} />
            <button type="submit" className="button" disabled={busyIntent !== ""}>
              {t("easyRead.approve")}
            </button>
          </Form>
        ) : null}
        {state.content ? (
          <details className="easy-read__remove">
            <summary>{t("easyRead.remove")}</summary>
            <Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <p>{t("easyRead.removeBody")}</p>
              <button type="submit" className="button button--danger" disabled={busyIntent !== ""}>
                {t("easyRead.removeConfirm")}
              </button>
            </Form>
          </details>
        ) : null}
      </div>

      {state.content ? (
        <Form method="post" className="easy-read__form" key={state.version}>
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="version" value={state.version} />
          <div className="easy-read__grid" role="presentation">
            <h2 className="easy-read__col-head">{t("easyRead.original")}</h2>
            <h2 className="easy-read__col-head">{t("easyRead.easyVersion")}</h2>
            {fields.map((field) => {
              counters[field.kind] += 1;
              const label = t(KIND_KEY[field.kind], { n: counters[field.kind] });
              const error = errors[`texts.${field.id}`];
              return (
                <div className="easy-read__row" key={field.id}>
                  <div className="easy-read__original">
                    <p className="easy-read__label" aria-hidden="true">
                      {label}
                    </p>
                    <p className="easy-read__text" lang={lang} dir="auto">
                      {originals.get(field.id) ?? "—"}
                    </p>
                  </div>
                  <div className="easy-read__edit field">
                    <label htmlFor={`f-${field.id}`}>{label}</label>
                    <textarea
                      id={`f-${field.id}`}
                      name={`f:${field.id}`}
                      defaultValue={field.text}
                      lang={lang}
                      dir="auto"
                      rows={field.kind === "text" ? Math.min(12, Math.max(3, field.text.split("\n").length + 1)) : 2}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `f-${field.id}-error` : undefined}
                    />
                    <FieldError scope="easyRead" field="text" reason={error} id={`f-${field.id}-error`} values={{ max: 20000 }} />
                  </div>
                </div>
              );
            })}
          </div>
          <p className="easy-read__save">
            <button type="submit" className="button" disabled={busyIntent !== ""}>
              {t("easyRead.save")}
            </button>{" "}
            {state.status === "approved" ? <span className="easy-read__hint">{t("easyRead.saveNeedsApproval")}</span> : null}
          </p>
        </Form>
      ) : (
        <p>{t("easyRead.empty")}</p>
      )}
    </section>
  );
}
