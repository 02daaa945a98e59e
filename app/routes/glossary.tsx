import { actorOf } from "~/audit/log.server";
import { type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { GlossaryList } from "~/components/glossary/glossary-list";
import { isLocale } from "~/i18n/config";
import { isDomainError, notFound, type ErrorReason } from "~/errors";
import { refusePage } from "~/utils/page.server";
import { FieldError } from "~/components/field-error";
import { addGlossaryTerm, deleteGlossaryTerm, listGlossary } from "~/models/glossary.server";
import { addGlossaryTermSchema, deleteGlossaryTermSchema, TERM_MAX_LENGTH, TRANSLATION_MAX_LENGTH } from "~/models/glossary-input";
import { getMuseum } from "~/models/museums.server";
import { languageOptionLabel, languagesByLabel } from "~/translation/languages";
import { fieldErrors, formString } from "~/utils/form";
import { formRefusal, type FormResult } from "~/utils/form-action.server";
import { intentAction, type IntentArgs } from "~/utils/intent-action.server";
import { pageMeta } from "~/utils/meta";
import { requireUser } from "~/utils/session.server";
import glossaryStylesheetUrl from "~/styles/glossary.css?url";
import { StaffErrorBoundary } from "~/components/staff-error-boundary";
import { useFormRefusal } from "~/hooks/use-form-refusal";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, "glossary", { noindex: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: glossaryStylesheetUrl }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, "content.read");
  const [museum, { terms }] = await Promise.all([getMuseum(context.db, user.museumId), listGlossary(context.db, user.museumId)]);
  if (!museum) refusePage(notFound("Museum"));
  return { terms, sourceLang: museum.sourceLang };
}

/** A form's answer: on refusal, the API's error body plus a reason per field. */
export type GlossaryActionResult = FormResult<"add" | "delete"> & { id?: number };

/** `intent=add`: a term never translated, or fixed in one language (the add form, without JavaScript too). */
async function addAction({ user, form, context }: IntentArgs) {
  const fixed = formString(form, "mode") === "fixed";
  const parsed = addGlossaryTermSchema.safeParse({
    term: formString(form, "term"),
    lang: fixed ? formString(form, "lang") : null,
    translation: fixed ? formString(form, "translation") : null,
  });
  if (!parsed.success) return formRefusal("add", fieldErrors(parsed.error));
  const term = await addGlossaryTerm(context.db, user.museumId, parsed.data, actorOf(user));
  return { intent: "add", ok: true, id: term.id } satisfies GlossaryActionResult;
}

/** `intent=delete`: a term of the list goes (already gone, by another tab or a colleague: the list reloads either way). */
async function deleteAction({ user, form, context }: IntentArgs) {
  const parsed = deleteGlossaryTermSchema.safeParse({ id: formString(form, "id") });
  if (!parsed.success) return formRefusal("delete", fieldErrors(parsed.error));
  try {
    await deleteGlossaryTerm(context.db, user.museumId, parsed.data.id, actorOf(user));
  } catch (error) {
    if (!isDomainError(error) || error.code !== "not_found") throw error;
  }
  return { intent: "delete", ok: true, id: parsed.data.id } satisfies GlossaryActionResult;
}

/** The page's forms: the same rules and models as the JSON API, one handler per intent. */
export const action = intentAction("content.edit", { add: addAction, delete: deleteAction });

/** A glossary field's refusal (lengths differ for the term and its translation). */
function GlossaryFieldError({ field, reason }: { field: string; reason?: ErrorReason }) {
  return (
    <FieldError
      scope="glossary"
      field={field}
      reason={reason}
      id={`glossary-${field}-error`}
      values={{ max: field === "translation" ? TRANSLATION_MAX_LENGTH : TERM_MAX_LENGTH }}
    />
  );
}

export default function Glossary() {
  const { terms, sourceLang } = useLoaderData<typeof loader>();
  const actionData = useActionData<GlossaryActionResult | { error: unknown }>();
  const result = actionData && "intent" in actionData ? actionData : undefined;
  useFormRefusal(result);
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const uiLocale = isLocale(i18n.language) ? i18n.language : "fr";
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "add";
  const addErrors = result?.intent === "add" && !result.ok ? (result.errors ?? {}) : {};
  const formRef = useRef<HTMLFormElement>(null);
  // A new form (empty fields) after each term added; a refused add keeps the form as typed (its mode and
  // fields stay, so their errors show and take focus), even right after a successful one.
  const lastAdded = useRef("add");
  if (result?.intent === "add" && result.ok) lastAdded.current = `added-${result.id}`;
  const formKey = lastAdded.current;

  useEffect(() => {
    if (result?.intent !== "add") return;
    if (result.ok) {
      toast.success(t("glossary.added"), { id: "glossary-add" });
      formRef.current?.querySelector<HTMLInputElement>('input[name="term"]')?.focus();
    } else {
      toast.dismiss("glossary-add");
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    }
  }, [result, t]);

  const languages = languagesByLabel(uiLocale, sourceLang);

  return (
    <section className="page glossary">
      <header className="articles__header">
        <h1>{t("glossary.title")}</h1>
        <Link to="/settings" className="button button--ghost">
          <span aria-hidden="true">←</span> {t("glossary.backToSettings")}
        </Link>
      </header>
      <p className="glossary__intro">{t("glossary.intro")}</p>

      <h2 id="glossary-add-heading">{t("glossary.addHeading")}</h2>
      <Form method="post" className="form glossary-form" aria-labelledby="glossary-add-heading" key={formKey} ref={formRef} noValidate>
        <input type="hidden" name="intent" value="add" />
        <label className="field">
          <span>{t("glossary.term")}</span>
          <input
            name="term"
            required
            maxLength={TERM_MAX_LENGTH}
            autoComplete="off"
            dir="auto"
            aria-invalid={Boolean(addErrors.term)}
            aria-describedby={addErrors.term ? "glossary-term-help glossary-term-error" : "glossary-term-help"}
          />
          <small id="glossary-term-help">{t("glossary.termHelp")}</small>
        </label>
        <GlossaryFieldError field="term" reason={addErrors.term} />
        <fieldset className="glossary-form__modes">
          <legend>{t("glossary.modeLegend")}</legend>
          <label className="glossary-form__mode">
            <input type="radio" name="mode" value="never" defaultChecked />
            <span>{t("glossary.modeNever")}</span>
          </label>
          <label className="glossary-form__mode">
            <input type="radio" name="mode" value="fixed" />
            <span>{t("glossary.modeFixed")}</span>
          </label>
        </fieldset>
        <div className="glossary-form__fixed">
          <label className="field">
            <span>{t("glossary.language")}</span>
            <select name="lang" defaultValue="" aria-invalid={Boolean(addErrors.lang)} aria-describedby={addErrors.lang ? "glossary-lang-error" : undefined}>
              <option value="">{t("glossary.chooseLanguage")}</option>
              {languages.map((lang) => (
                <option key={lang.code} value={lang.code}>
                  {languageOptionLabel(lang.code, uiLocale)}
                </option>
              ))}
            </select>
          </label>
          <GlossaryFieldError field="lang" reason={addErrors.lang} />
          <label className="field">
            <span>{t("glossary.translation")}</span>
            <input
              name="translation"
              maxLength={TRANSLATION_MAX_LENGTH}
              autoComplete="off"
              dir="auto"
              aria-invalid={Boolean(addErrors.translation)}
              aria-describedby={addErrors.translation ? "glossary-translation-error" : undefined}
            />
          </label>
          <GlossaryFieldError field="translation" reason={addErrors.translation} />
        </div>
        <button type="submit" className="button glossary-form__submit" aria-disabled={adding}>
          <span aria-hidden="true">+</span> {t("glossary.add")}
        </button>
      </Form>

      <h2 id="glossary-list-heading">{t("glossary.listHeading", { count: terms.length })}</h2>
      <GlossaryList terms={terms} uiLocale={uiLocale} deleted={result?.intent === "delete" && result.ok ? result.id : undefined} />
    </section>
  );
}

/** What happened and what to do, when the page cannot be shown (decision 136). */
export function ErrorBoundary() {
  return <StaffErrorBoundary />;
}
