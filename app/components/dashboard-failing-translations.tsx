import { useTranslation } from "react-i18next";
import type { FailingTranslation } from "~/models/dashboard.server";
import { languageLabel } from "~/translation/languages";
import { MaybeLink } from "./stats/activity";

/**
 * The dashboard's "Translations failing" card (decision 030): per article and language, since when and
 * why, each leading to the language's review page. Quiet when nothing fails.
 */
export function DashboardFailingTranslations({
  failing,
  timeZone,
  canReview = () => true,
}: {
  failing: { first: readonly FailingTranslation[]; count: number };
  timeZone: string;
  canReview?: (lang: string) => boolean;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language === "en" ? "en" : "fr";
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone });
  return (
    <section className="activity__card dashboard-failing" aria-labelledby="dashboard-failing-title">
      <h2 id="dashboard-failing-title">{`${t("dashboard.failing")} (${failing.count})`}</h2>
      {failing.count === 0 ? (
        <p>{t("dashboard.failingNone")}</p>
      ) : (
        <>
          <ul>
            {failing.first.map((f) => (
              <li key={`${f.id}-${f.lang}`}>
                <MaybeLink to={`/translations?id=${f.id}&lang=${encodeURIComponent(f.lang)}`} allowed={canReview(f.lang)}>
                  {t("dashboard.failingLine", { name: f.name, language: languageLabel(f.lang, locale), since: date.format(new Date(f.since)) })}
                </MaybeLink>
                <br />
                <span className="muted">{t(`translations.failing.reason.${f.reason}`)}</span>
              </li>
            ))}
          </ul>
          {failing.count > failing.first.length ? <p>{t("dashboard.more", { count: failing.count - failing.first.length })}</p> : null}
        </>
      )}
    </section>
  );
}
