import { Link } from "@remix-run/react";
import { forwardRef } from "react";
import { useTranslation } from "react-i18next";
import type { ImportAnswer } from "~/import/import.server";
import { IMPORT_FIELDS, type ColumnMapping, type ImportField } from "~/import/columns";

export type PlanAnswer = Pick<ImportAnswer, "rows" | "created" | "updated" | "skipped" | "failed" | "headers" | "mapping" | "dryRun" | "applied">;

/** The header of the column a field is read from, to name it the way the person's sheet does. */
function columnLabel(t: (key: string, options?: Record<string, unknown>) => string, field: ImportField, headers: readonly string[], mapping: ColumnMapping) {
  const index = mapping[field];
  const label = t(`import.fields.${field}`);
  return index === undefined || !headers[index] ? label : t("import.columnNamed", { field: label, header: headers[index] });
}

/** Which column each field reads; the page sends the choice with the next dry run. */
export function MappingEditor({
  headers,
  mapping,
  onChange,
  disabled,
}: {
  headers: string[];
  mapping: ColumnMapping;
  onChange: (m: ColumnMapping) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="import-mapping">
      <legend>{t("import.mappingLegend")}</legend>
      <p className="muted">{t("import.mappingHelp")}</p>
      <div className="import-mapping__grid">
        {IMPORT_FIELDS.map((field) => (
          <label key={field} className="field">
            {t(`import.fields.${field}`)}
            <select
              value={mapping[field] ?? ""}
              disabled={disabled}
              onChange={(event) => {
                const next = { ...mapping };
                if (event.target.value === "") delete next[field];
                else next[field] = Number(event.target.value);
                onChange(next);
              }}
            >
              <option value="">{t("import.notImported")}</option>
              {headers.map((header, index) => (
                <option key={index} value={index}>
                  {t("import.columnOption", { n: index + 1, header: header || "—" })}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Counts, then one table row per sheet row: its action and every problem by column. */
export const PlanTable = forwardRef<HTMLHeadingElement, { answer: PlanAnswer }>(function PlanTable({ answer }, ref) {
  const { t } = useTranslation();
  const done = !answer.dryRun;
  return (
    <section className="import-plan" aria-labelledby="import-plan-title">
      <h2 id="import-plan-title" ref={ref} tabIndex={-1}>
        {done ? t("import.resultTitle") : t("import.planTitle")}
      </h2>
      <p role="status">
        {t(done ? "import.doneSummary" : "import.planSummary", {
          created: answer.created,
          updated: answer.updated,
          skipped: answer.skipped,
          failed: answer.failed,
        })}
      </p>
      <div className="import-plan__scroll">
        <table className="import-table">
          <caption className="visually-hidden">{t("import.tableCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("import.colRow")}</th>
              <th scope="col">{t("import.colName")}</th>
              <th scope="col">{t("import.colAddress")}</th>
              <th scope="col">{t("import.colAction")}</th>
              <th scope="col">{t("import.colProblems")}</th>
            </tr>
          </thead>
          <tbody>
            {answer.rows.map((row) => (
              <tr key={row.row} className={`import-row import-row--${row.action}`}>
                <th scope="row">{t("import.rowNumber", { n: row.row })}</th>
                <td>{done && row.articleId && row.action !== "error" ? <Link to={`/article?id=${row.articleId}`}>{row.name}</Link> : row.name || "—"}</td>
                <td className="import-table__address">{row.address || "—"}</td>
                <td>
                  <span className={`import-badge import-badge--${row.action}`}>{t(`import.actions.${row.action}${done ? "Done" : ""}`)}</span>
                </td>
                <td>
                  {row.errors.length === 0 ? (
                    <span className="muted">{t("import.noProblem")}</span>
                  ) : (
                    <ul className="import-errors">
                      {row.errors.map((error, i) => (
                        <li key={i}>
                          {t("import.problem", {
                            column: columnLabel(t, error.column, answer.headers, answer.mapping),
                            reason: t(`import.reasons.${error.reason}`),
                          })}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
