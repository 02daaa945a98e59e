import { useRevalidator } from "@remix-run/react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "~/components/confirm-dialog";
import type { ReviewSegment, TranslationFailing } from "~/models/translation-review.server";
import { findLanguage } from "~/translation/languages";
import { apiErrorMessage, callApi } from "~/utils/api-client";
import { NarrationPanel } from "~/components/narration/narration-panel";
import { FailingNotice } from "./failing-notice";
import { LanguageName, uiLocale } from "./language-name";
import { ReportsList, type OpenReport } from "./reports-list";
import { SegmentList } from "./segment-list";
import { useConfirm } from "./use-confirm";

interface LanguageReviewProps {
  article: { id: number; name: string };
  translation: { lang: string; sourceLang: string; segments: ReviewSegment[]; reports: OpenReport[]; failing: TranslationFailing | null };
  timeZone: string;
}

const RESET_TOAST = "translation-reset-language";

/** `/translations?id=&lang=`: one language side by side, its visitors' reports, and "reset this language". */
export function LanguageReview({ article, translation, timeZone }: LanguageReviewProps) {
  const { t, i18n } = useTranslation();
  const locale = uiLocale(i18n.language);
  const revalidator = useRevalidator();
  const confirm = useConfirm();
  const { lang, sourceLang, segments, reports, failing } = translation;
  const target = findLanguage(lang);
  const source = findLanguage(sourceLang);
  // French writes language names in lower case inside a sentence ("Traduction en allemand").
  const languageName = locale === "fr" ? (target?.fr ?? lang).toLocaleLowerCase("fr") : (target?.en ?? lang);
  const number = new Intl.NumberFormat(i18n.language);
  // What visitors get counts: a stale review is not served, its fresh machine text (if made) is.
  const translated = segments.filter((s) => (s.stale ? Boolean(s.machineText) : s.text !== null)).length;
  const reviewed = segments.filter((s) => s.origin === "edited" && !s.stale).length;
  const stale = segments.filter((s) => s.stale).length;

  async function resetLanguage() {
    confirm.close();
    toast.loading(t("translations.resetLanguage.resetting"), { id: RESET_TOAST });
    const result = await callApi("/api/manage/reset_translation", { articleId: article.id, lang });
    if (result.ok) toast.success(t("translations.resetLanguage.done", { language: languageName }), { id: RESET_TOAST, duration: 5000 });
    else toast.error(apiErrorMessage(t, result), { id: RESET_TOAST, duration: 5000 });
    revalidator.revalidate();
  }

  return (
    <>
      <h1>{t("translations.languageTitle", { language: languageName, name: article.name })}</h1>
      <p className="tr-summary">
        <LanguageName code={lang} locale={locale} />
        {" · "}
        {t("translations.summary.translated", { done: number.format(translated), count: segments.length })}
        {" · "}
        {t("translations.summary.reviewed", { count: reviewed, n: number.format(reviewed) })}
        {stale > 0 ? (
          <>
            {" · "}
            <strong className="tr-summary__stale">{t("translations.summary.stale", { count: stale, n: number.format(stale) })}</strong>
          </>
        ) : null}
      </p>
      {failing ? <FailingNotice failing={failing} languageName={languageName} timeZone={timeZone} /> : null}

      <section className="tr-section" aria-labelledby="tr-segments-heading">
        <h2 id="tr-segments-heading">{t("translations.segmentsHeading")}</h2>
        <SegmentList
          articleId={article.id}
          lang={lang}
          segments={segments}
          dir={target?.dir ?? "ltr"}
          sourceLang={sourceLang}
          sourceDir={source?.dir ?? "ltr"}
          languageName={languageName}
          onChanged={() => revalidator.revalidate()}
        />
      </section>

      <NarrationPanel articleId={article.id} lang={lang} languageName={languageName} />

      <ReportsList reports={reports} timeZone={timeZone} onResolved={() => revalidator.revalidate()} />

      <section className="tr-section" aria-labelledby="tr-reset-heading">
        <h2 id="tr-reset-heading">{t("translations.resetLanguage.heading")}</h2>
        <p className="muted">{t("translations.resetLanguage.intro", { language: languageName })}</p>
        <button ref={confirm.trigger} type="button" className="button button--danger" onClick={confirm.ask}>
          {t("translations.resetLanguage.button")}
        </button>
      </section>
      {confirm.open ? (
        <ConfirmDialog
          title={t("translations.resetLanguage.confirmTitle", { language: languageName })}
          confirmLabel={t("translations.resetLanguage.confirm")}
          onConfirm={() => void resetLanguage()}
          onCancel={confirm.close}
        >
          <p>{t("translations.resetLanguage.confirmBody")}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
