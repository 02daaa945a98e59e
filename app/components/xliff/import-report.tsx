import { forwardRef } from "react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import type { ImportReport, UnitReport, UnitStatus } from "~/xliff/report";

/** How many units the page lists: the rest are counted, not shown (a whole museum can hold thousands). */
export const REPORT_LIST_MAX = 300;

const ORDER: Record<UnitStatus, number> = { error: 0, stale: 1, applied_stale: 2, applied: 3, untranslated: 4, unchanged: 5 };

/**
 * The per-unit report of an import (or of a dry run): counts first, then errors, stale units, applied
 * ones, and last the units not translated yet (not an error: the translator has not done them).
 */
export const ImportReportView = forwardRef<HTMLHeadingElement, { report: ImportReport }>(function ImportReportView({ report }, ref) {
  const { t } = useTranslation();
  const listed = report.units
    .map((unit, index) => ({ unit, index }))
    .filter(({ unit }) => unit.status !== "unchanged")
    .sort((a, b) => ORDER[a.unit.status] - ORDER[b.unit.status] || a.index - b.index);
  const shown = listed.slice(0, REPORT_LIST_MAX);
  return (
    <section className="xliff-report" aria-labelledby="xliff-report-heading">
      <h2 id="xliff-report-heading" tabIndex={-1} ref={ref}>
        {report.dryRun ? t("xliff.report.dryHeading") : t("xliff.report.heading")}
      </h2>
      <p>{report.dryRun ? t("xliff.report.dryIntro") : t("xliff.report.intro")}</p>
      <ul className="xliff-report__counts">
        {(["applied", "applied_stale", "unchanged", "stale", "untranslated", "error"] as const).map((status) => (
          <li key={status} className={`xliff-status xliff-status--${status}`}>
            <strong>{report.counts[status]}</strong> {t(`xliff.status.${status}`, { count: report.counts[status] })}
          </li>
        ))}
      </ul>
      {shown.length > 0 ? (
        <ol className="xliff-report__units">
          {shown.map(({ unit, index }) => (
            <UnitLine key={index} unit={unit} />
          ))}
        </ol>
      ) : null}
      {listed.length > shown.length ? <p className="muted">{t("xliff.report.more", { count: listed.length - shown.length })}</p> : null}
    </section>
  );
});

function UnitLine({ unit }: { unit: UnitReport }) {
  const { t } = useTranslation();
  return (
    <li className={`xliff-unit xliff-unit--${unit.status}`}>
      <p className="xliff-unit__head">
        <span className={`xliff-status xliff-status--${unit.status}`}>{t(`xliff.unit.${unit.status}`)}</span>{" "}
        <span className="xliff-unit__where">{unit.article ?? unit.id}</span>
      </p>
      {unit.reason ? <p className="xliff-unit__reason">{reasonText(t, unit)}</p> : null}
      {unit.source ? (
        <p className="xliff-unit__text" dir="auto">
          <span className="visually-hidden">{t("xliff.unit.source")} </span>
          {unit.source}
        </p>
      ) : null}
      {unit.target ? (
        <p className="xliff-unit__text xliff-unit__target" dir="auto">
          <span className="visually-hidden">{t("xliff.unit.target")} </span>
          {unit.target}
        </p>
      ) : null}
      <p className="xliff-unit__id muted">
        <code>{unit.id}</code>
      </p>
    </li>
  );
}

/** Why a unit was not applied, in words: for an unusable target, what is wrong with it and where. */
function reasonText(t: TFunction, unit: UnitReport): string {
  if (unit.reason === "invalid_target" && unit.detail && unit.detail !== "empty") {
    return t(`xliff.reason.${unit.detail}`, {
      max: String(unit.max ?? ""),
      character: unit.character ?? "",
      position: String(unit.position ?? ""),
      code: unit.code ?? "",
    });
  }
  return t(`xliff.reason.${unit.reason}`, { term: unit.term ?? "", expected: unit.expected ?? "" });
}
