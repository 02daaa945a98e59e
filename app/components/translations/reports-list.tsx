import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { apiErrorMessage, callApi } from "~/utils/api-client";

export interface OpenReport {
  id: number;
  message: string;
  createdAt: number;
}

/** Visitors' open reports for one language, each with "Mark resolved"; focus moves to the next one, or the heading. */
export function ReportsList({ reports, timeZone, onResolved }: { reports: readonly OpenReport[]; timeZone: string; onResolved: () => void }) {
  const { t, i18n } = useTranslation();
  const [resolved, setResolved] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState<number | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const open = reports.filter((r) => !resolved.has(r.id));
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone });

  async function resolve(report: OpenReport) {
    if (busy !== null) return;
    setBusy(report.id);
    const result = await callApi("/api/manage/resolve_report", { reportId: report.id });
    setBusy(null);
    if (!result.ok && result.status !== 404) {
      toast.error(apiErrorMessage(t, result), { id: `report-${report.id}`, duration: 5000 });
      return;
    }
    // Where focus goes once this item is gone: the next report's button, else the previous one, else the heading.
    const position = open.findIndex((r) => r.id === report.id);
    const next = open[position + 1] ?? open[position - 1];
    setResolved((current) => new Set([...current, report.id]));
    toast.success(t("translations.reports.resolved"), { id: `report-${report.id}`, duration: 5000 });
    requestAnimationFrame(() => {
      const target = next ? list.current?.querySelector<HTMLButtonElement>(`[data-report="${next.id}"] button`) : null;
      (target ?? heading.current)?.focus();
    });
    onResolved();
  }

  return (
    <section className="tr-section tr-reports" aria-labelledby="tr-reports-heading">
      <h2 id="tr-reports-heading" ref={heading} tabIndex={-1}>
        {t("translations.reports.heading", { count: open.length })}
      </h2>
      {open.length === 0 ? (
        <p className="muted">{t("translations.reports.none")}</p>
      ) : (
        <ul ref={list} className="tr-reports__list">
          {open.map((report) => (
            <li key={report.id} data-report={report.id} className="tr-report">
              <p className="tr-report__message" dir="auto">
                {report.message}
              </p>
              <p className="tr-report__date muted">{t("translations.reports.on", { date: date.format(report.createdAt) })}</p>
              <button type="button" className="button button--ghost button--small" aria-disabled={busy !== null} onClick={() => void resolve(report)}>
                {t("translations.reports.resolve")}
                <span className="visually-hidden"> {t("translations.reports.on", { date: date.format(report.createdAt) })}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
