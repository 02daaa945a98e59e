import { useRevalidator } from "@remix-run/react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import type { TranslationLanguage } from "~/models/translation-review.server";
import { findLanguage } from "~/translation/languages";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { NarrationCount, NarrationPanel } from "~/components/narration/narration-panel";
import { FailingNotice } from "./failing-notice";
import { LanguageName, uiLocale } from "./language-name";
import { LanguagesTable } from "./languages-table";
import { PretranslateForm } from "./pretranslate-form";
import { useConfirm } from "./use-confirm";

const RESET_TOAST = "translations-reset-all";

/** The language's name inside a sentence: lower case in French ("Traduction en allemand"). */
function languageName(code: string, locale: "fr" | "en"): string {
  const lang = findLanguage(code);
  return locale === "fr" ? (lang?.fr ?? code).toLocaleLowerCase("fr") : (lang?.en ?? code);
}

interface OverviewProps {
  article: { id: number; name: string };
  sourceLang: string;
  total: number;
  languages: readonly TranslationLanguage[];
  timeZone: string;
  /** False for a translator: no "reset all" (decision 040). */
  canEdit?: boolean;
  canReview?: (lang: string) => boolean;
  /** A translator's languages (pretranslation offers only these), or null for every language (decision 123). */
  limitedTo?: readonly string[] | null;
  /** A language asked for in the address that the member may not review: said plainly above the list. */
  refused?: string | null;
}

/** `/translations?id=`: the article's languages, pretranslation, and the spec's "reset all". */
export function LanguagesOverview({
  article,
  sourceLang,
  total,
  languages,
  timeZone,
  canEdit = true,
  canReview = () => true,
  limitedTo = null,
  refused = null,
}: OverviewProps) {
  const { t, i18n } = useTranslation();
  const locale = uiLocale(i18n.language);
  const yours = limitedTo ? new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(limitedTo.map((code) => languageName(code, locale))) : "";
  const revalidator = useRevalidator();
  const confirm = useConfirm();

  async function resetAll() {
    confirm.close();
    toast.loading(t("editor.resetting"), { id: RESET_TOAST });
    const result = await callApi("/api/manage/reset_traductions", { articleId: article.id });
    if (result.ok) toast.success(t("editor.resetDone"), { id: RESET_TOAST, duration: 5000 });
    else toast.error(apiErrorMessage(t, result), { id: RESET_TOAST, duration: 5000 });
    revalidator.revalidate();
  }

  return (
    <>
      <h1>{t("translations.title", { name: article.name })}</h1>
      {refused ? (
        <div className="tr-refused" role="alert">
          <p>
            <strong>{t("translations.refused.title", { language: languageName(refused, locale) })}</strong>
          </p>
          <p>
            {limitedTo ? t("translations.refused.yours", { count: limitedTo.length, languages: yours }) : null} {t("translations.refused.ask")}
          </p>
        </div>
      ) : null}
      {limitedTo && !refused ? <p className="tr-yours">{t("translations.yourLanguages", { count: limitedTo.length, languages: yours })}</p> : null}
      <p className="muted">
        {t("translations.sourceIs")} <LanguageName code={sourceLang} locale={locale} />. {t("translations.segmentCount", { count: total })}
      </p>
      <NarrationCount articleId={article.id} />
      {languages.map((language) =>
        language.failing && canReview(language.lang) ? (
          <FailingNotice
            key={language.lang}
            failing={language.failing}
            languageName={languageName(language.lang, locale)}
            timeZone={timeZone}
            reviewHref={`/translations?id=${article.id}&lang=${encodeURIComponent(language.lang)}`}
          />
        ) : null,
      )}
      <section className="tr-section" aria-labelledby="tr-languages-heading">
        <h2 id="tr-languages-heading">{t("translations.table.heading")}</h2>
        <LanguagesTable articleId={article.id} total={total} languages={languages} canReview={canReview} />
      </section>
      {canReview(sourceLang) ? (
        <NarrationPanel articleId={article.id} lang={sourceLang} languageName={languageName(sourceLang, locale)} heading={t("narration.sourceHeading")} />
      ) : null}
      <PretranslateForm articleId={article.id} sourceLang={sourceLang} only={limitedTo} />
      {canEdit ? (
        <section className="tr-section" aria-labelledby="tr-reset-heading">
          <h2 id="tr-reset-heading">{t("translations.resetAll.heading")}</h2>
          <p className="muted">{t("translations.resetAll.intro")}</p>
          <button ref={confirm.trigger} type="button" className="button button--danger" onClick={confirm.ask}>
            {t("editor.resetTranslations")}
          </button>
        </section>
      ) : null}
      {confirm.open ? (
        <ConfirmDialog title={t("editor.resetConfirmTitle")} confirmLabel={t("editor.resetConfirm")} onConfirm={() => void resetAll()} onCancel={confirm.close}>
          <p>{t("editor.resetConfirmBody")}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
