import { useTranslation } from "react-i18next";
import type { MonthlyBound } from "~/usage/usage.server";

/** At 90 % of a monthly bound and more. */
const NEAR = 0.9;

/**
 * Tells staff, on the dashboard, that a monthly bound of their museum (decision 148) is near or reached, and what
 * visitors get meanwhile: the original text (translation), the browser's read-aloud (narration), or questions paused
 * (decision 151).
 */
export function BoundNotice({
  bounds,
  resetsAt,
}: {
  bounds: { translation: MonthlyBound; narration: MonthlyBound; questions?: MonthlyBound };
  resetsAt: number;
}) {
  const { t, i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "fr-FR", { dateStyle: "long", timeZone: "UTC" }).format(resetsAt);
  const number = new Intl.NumberFormat(i18n.language === "en" ? "en-GB" : "fr-FR");
  const shown = (["translation", "narration", "questions"] as const).filter((kind) => {
    const bound = bounds[kind];
    if (!bound) return false;
    return bound.limit === 0 ? bound.used > 0 || kind === "translation" : bound.used >= bound.limit * NEAR;
  });
  if (shown.length === 0) return null;
  return (
    <section className="activity__card dashboard-failing" aria-labelledby="dashboard-bounds-title">
      <h2 id="dashboard-bounds-title">{t("usage.title")}</h2>
      {shown.map((kind) => {
        const bound = bounds[kind]!;
        const reached = bound.used >= bound.limit;
        return (
          <p key={kind}>
            <strong>{t(`usage.${kind}.${reached ? "reached" : "near"}`)}</strong>{" "}
            {t(kind === "questions" ? "usage.answersFigures" : "usage.figures", { used: number.format(bound.used), limit: number.format(bound.limit) })}{" "}
            {t(`usage.${kind}.${reached ? "meanwhile" : "then"}`, { date })}
          </p>
        );
      })}
    </section>
  );
}
