import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { FailureReason } from "~/translation/failures.server";

export interface Failing {
  reason: FailureReason;
  detail: string;
  since: number;
  retryAt: number;
  segments: number;
}

/** "failing since 3 May, 14:02" in the museum's time zone and the staff's locale. */
export function useFailureDates(timeZone: string) {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone });
  return (ms: number) => format.format(new Date(ms));
}

/**
 * A language whose translation failed lately (decision 030): since when, why, that visitors read the
 * original meanwhile, when engines are asked again, and the engines' own words for whoever runs them.
 */
export function FailingNotice({
  failing,
  languageName,
  timeZone,
  reviewHref,
}: {
  failing: Failing;
  languageName: string;
  timeZone: string;
  reviewHref?: string;
}) {
  const { t, i18n } = useTranslation();
  const date = useFailureDates(timeZone);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <section className="tr-failing" aria-label={t("translations.failing.label", { language: languageName })}>
      <h2 className="tr-failing__title">
        {reviewHref ? (
          <Link to={reviewHref}>{t("translations.failing.title", { language: languageName, since: date(failing.since) })}</Link>
        ) : (
          t("translations.failing.title", { language: languageName, since: date(failing.since) })
        )}
      </h2>
      <p>
        {t(`translations.failing.reason.${failing.reason}`)}{" "}
        {t("translations.failing.segments", { count: failing.segments, n: number.format(failing.segments) })}
      </p>
      <p>{t("translations.failing.next", { time: date(failing.retryAt) })}</p>
      {failing.detail ? (
        <p className="tr-failing__detail">
          {t("translations.failing.detail")} <code>{failing.detail}</code>
        </p>
      ) : null}
    </section>
  );
}
