import { useRevalidator } from "@remix-run/react";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { foldForSearch } from "~/components/qrcodes/qrcode-helpers";
import { LANGUAGES, findLanguage } from "~/translation/languages";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { LanguageName, uiLocale } from "./language-name";

type Outcome = { lang: string; status: "machine" | "reviewed" | "failed"; message?: string };
type Run = { langs: string[]; outcomes: Outcome[]; running: boolean };

const PROGRESS_TOAST = "pretranslate";
const SEARCH_FROM = 8;

/**
 * Staff choose languages from the catalogue and translate the article into them now, one call per
 * language so the progress ("3 / 8 languages") moves as each one returns; failures stay listed with a retry.
 */
export function PretranslateForm({ articleId, sourceLang, only = null }: { articleId: number; sourceLang: string; only?: readonly string[] | null }) {
  const { t, i18n } = useTranslation();
  const locale = uiLocale(i18n.language);
  const revalidator = useRevalidator();
  const id = useId();
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [run, setRun] = useState<Run | null>(null);
  const progressRef = useRef<HTMLParagraphElement>(null);

  const catalogue = useMemo(
    () => LANGUAGES.filter((l) => l.code !== sourceLang && (!only || only.includes(l.code))).sort((a, b) => a[locale].localeCompare(b[locale], locale)),
    [sourceLang, locale, only],
  );
  // A translator's few languages need no search (decision 123).
  const searchable = catalogue.length > SEARCH_FROM;
  const matches = useMemo(() => {
    const needle = foldForSearch(query.trim());
    if (!needle) return catalogue;
    return catalogue.filter((l) => [l[locale], l.endonym, l.code].some((text) => foldForSearch(text).includes(needle)));
  }, [catalogue, query, locale]);

  const failed = run && !run.running ? run.outcomes.filter((o) => o.status === "failed") : [];
  const nameOf = (code: string) => findLanguage(code)?.[locale] ?? code;

  function toggle(code: string, on: boolean) {
    setChosen((current) => (on ? [...current.filter((c) => c !== code), code] : current.filter((c) => c !== code)));
  }

  async function translate(langs: string[]) {
    if (langs.length === 0 || run?.running) return;
    const outcomes: Outcome[] = [];
    setRun({ langs, outcomes: [], running: true });
    toast.loading(t("translations.pretranslate.running"), { id: PROGRESS_TOAST });
    for (const lang of langs) {
      const result = await callApi<{ results: { lang: string; status: Outcome["status"] }[] }>("/api/manage/pretranslate", { articleId, langs: [lang] });
      const status = result.ok ? (result.data.results.find((r) => r.lang === lang)?.status ?? "failed") : "failed";
      outcomes.push({ lang, status, message: result.ok ? undefined : apiErrorMessage(t, result) });
      setRun({ langs, outcomes: [...outcomes], running: true });
    }
    setRun({ langs, outcomes, running: false });
    const failures = outcomes.filter((o) => o.status === "failed").length;
    if (failures === 0) toast.success(t("translations.pretranslate.done", { count: langs.length }), { id: PROGRESS_TOAST, duration: 5000 });
    else toast.error(t("translations.pretranslate.someFailed", { count: failures }), { id: PROGRESS_TOAST, duration: 5000 });
    setChosen((current) => current.filter((code) => outcomes.some((o) => o.lang === code && o.status === "failed")));
    revalidator.revalidate();
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void translate(chosen);
  }

  function retry() {
    // The retry button disappears with the list it belongs to: the progress line takes the focus.
    progressRef.current?.focus();
    void translate(failed.map((o) => o.lang));
  }

  return (
    <section className="tr-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t("translations.pretranslate.heading")}</h2>
      <p className="muted">{t("translations.pretranslate.intro")}</p>
      <form onSubmit={onSubmit} className="tr-pretranslate">
        {searchable ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-search`}>{t("translations.pretranslate.search")}</label>
              <input
                id={`${id}-search`}
                type="search"
                value={query}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={`${id}-count`}
                onChange={(e) => setQuery(e.target.value)}
                // Enter here means "done typing", never "translate now".
                onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
              />
            </div>
            <p id={`${id}-count`} className="muted picker__count" aria-live="polite">
              {t("translations.pretranslate.count", { count: matches.length })}
            </p>
          </>
        ) : null}
        <fieldset className="picker__group">
          <legend>{t("translations.pretranslate.legend")}</legend>
          <div className="picker__list tr-langs">
            {matches.map((language) => (
              <label key={language.code} className="picker__option">
                <input
                  type="checkbox"
                  value={language.code}
                  checked={chosen.includes(language.code)}
                  onChange={(e) => toggle(language.code, e.target.checked)}
                />
                <LanguageName code={language.code} locale={locale} />
              </label>
            ))}
            {matches.length === 0 ? <p className="picker__none muted">{t("translations.pretranslate.noMatch")}</p> : null}
          </div>
        </fieldset>
        <p className="tr-pretranslate__chosen" aria-live="polite">
          {chosen.length === 0
            ? t("translations.pretranslate.noneChosen")
            : t("translations.pretranslate.chosen", { count: chosen.length, names: chosen.map(nameOf).join(", ") })}
        </p>
        <div className="tr-actions">
          <button type="submit" className="button" aria-disabled={chosen.length === 0 || run?.running === true}>
            {t("translations.pretranslate.submit")}
          </button>
          {chosen.length > 0 ? (
            <button type="button" className="button button--ghost" aria-disabled={run?.running === true} onClick={() => run?.running || setChosen([])}>
              {t("translations.pretranslate.clear")}
            </button>
          ) : null}
        </div>
      </form>
      <p ref={progressRef} tabIndex={-1} className="tr-progress" role="status" data-testid="pretranslate-progress">
        {run ? t("translations.pretranslate.progress", { done: run.outcomes.length, count: run.langs.length }) : null}
      </p>
      {failed.length > 0 ? (
        <div className="tr-failures">
          <h3>{t("translations.pretranslate.failedHeading", { count: failed.length })}</h3>
          <ul>
            {failed.map((o) => (
              <li key={o.lang}>
                <LanguageName code={o.lang} locale={locale} />
                {o.message ? <span className="muted"> — {o.message}</span> : null}
              </li>
            ))}
          </ul>
          <button type="button" className="button button--ghost" onClick={retry}>
            {t("translations.pretranslate.retry", { count: failed.length })}
          </button>
        </div>
      ) : null}
    </section>
  );
}
