import { Form } from "@remix-run/react";
import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import type { GlossaryTermView } from "~/models/glossary.server";
import { findLanguage, languageLabel } from "~/translation/languages";

/**
 * The museum's terms, each with a delete button. After a delete, focus goes to the delete button that
 * took the removed row's place (the next term, else the previous one), or to the term field of the add
 * form when the list is empty, never to the page's start.
 */
export function GlossaryList({ terms, uiLocale, deleted }: { terms: readonly GlossaryTermView[]; uiLocale: "fr" | "en"; deleted?: number }) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement>(null);
  // The position of the row being deleted, until the list without it is drawn.
  const deleting = useRef<number | null>(null);

  useEffect(() => {
    const index = deleting.current;
    if (index === null || deleted === undefined || terms.some((term) => term.id === deleted)) return;
    deleting.current = null;
    toast.success(t("glossary.deleted"), { id: "glossary-delete" });
    const buttons = listRef.current?.querySelectorAll<HTMLButtonElement>("button[data-delete]") ?? [];
    const target = buttons[Math.min(index, buttons.length - 1)];
    if (target) target.focus();
    else document.querySelector<HTMLInputElement>('.glossary-form input[name="term"]')?.focus();
  }, [terms, deleted, t]);

  if (terms.length === 0) return <p className="qrcodes__empty">{t("glossary.empty")}</p>;

  return (
    <ul className="tree glossary__list" aria-labelledby="glossary-list-heading" ref={listRef}>
      {terms.map((term, index) => {
        const language = term.lang === null ? undefined : findLanguage(term.lang);
        return (
          <li key={term.id} className="tree-row glossary-row">
            <div className="glossary-row__text">
              <span className="glossary-row__term" dir="auto">
                {term.term}
              </span>
              {term.lang === null ? (
                <span className="glossary-row__rule glossary-row__rule--never">{t("glossary.never")}</span>
              ) : (
                <span className="glossary-row__rule">
                  {t("glossary.fixedIn", { language: languageLabel(term.lang, uiLocale) })}{" "}
                  <span lang={term.lang} dir={language?.dir ?? "auto"} className="glossary-row__translation">
                    {term.translation}
                  </span>
                </span>
              )}
            </div>
            <Form method="post" className="glossary-row__delete" onSubmit={() => (deleting.current = index)}>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={term.id} />
              <button type="submit" className="button button--ghost button--small" data-delete="">
                {t("glossary.delete")}
                <span className="visually-hidden">
                  {" "}
                  {term.lang === null
                    ? t("glossary.deleteWhich", { term: term.term })
                    : t("glossary.deleteWhichIn", { term: term.term, language: languageLabel(term.lang, uiLocale) })}
                </span>
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}
