import { useTranslation } from "react-i18next";

/** What the page's figures count (decision 032): folded, so the charts stay first. */
export function CountingHelp() {
  const { t } = useTranslation();
  return (
    <details className="stats-help">
      <summary>{t("stats.help.summary")}</summary>
      <p>{t("stats.help.scan")}</p>
      <p>{t("stats.help.request")}</p>
      <p>{t("stats.help.privacy")}</p>
      <p>{t("stats.help.before")}</p>
    </details>
  );
}
