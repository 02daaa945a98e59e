import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { actionKey, actionsInGroup, AUDIT_GROUP_ORDER } from "./audit-labels";

export interface AuditFilterValues {
  actor: string;
  action: string;
  from: string;
  to: string;
}

interface Props {
  values: AuditFilterValues;
  people: { id: number | null; email: string }[];
  /** The field the last query refused, with its message. */
  error: { field: string; message: string } | null;
}

/** The filters as a GET form: the address of a filtered view can be bookmarked and shared. */
export function AuditFilters({ values, people, error }: Props) {
  const { t } = useTranslation();
  const invalid = (field: string) => (error?.field === field ? { "aria-invalid": true as const, "aria-describedby": "audit-filter-error" } : {});
  return (
    <Form method="get" className="audit-filters" aria-label={t("audit.filtersLabel")}>
      <label className="field">
        {t("audit.person")}
        <select name="actor" defaultValue={values.actor} {...invalid("actor")}>
          <option value="">{t("audit.everyone")}</option>
          <option value="system">{t("audit.system")}</option>
          {people.map((p) => (
            <option key={p.id ?? p.email} value={String(p.id)}>
              {p.email}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t("audit.action")}
        <select name="action" defaultValue={values.action} {...invalid("action")}>
          <option value="">{t("audit.allActions")}</option>
          {AUDIT_GROUP_ORDER.map((group) => (
            <optgroup key={group} label={t(`audit.group.${group}`)}>
              <option value={`${group}.*`}>{t("audit.allOfGroup", { group: t(`audit.group.${group}`) })}</option>
              {actionsInGroup(group).map((action) => (
                <option key={action} value={action}>
                  {t(`audit.actionLabel.${actionKey(action)}`)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <label className="field">
        {t("audit.from")}
        <input type="date" name="from" defaultValue={values.from} {...invalid("from")} />
      </label>
      <label className="field">
        {t("audit.to")}
        <input type="date" name="to" defaultValue={values.to} {...invalid("to")} />
      </label>
      <div className="audit-filters__actions">
        <button type="submit" className="button">
          {t("audit.apply")}
        </button>
        <Link to="/audit" className="button button--ghost">
          {t("audit.clear")}
        </Link>
      </div>
      {error ? (
        <p id="audit-filter-error" className="form__error" role="alert">
          {error.message}
        </p>
      ) : null}
    </Form>
  );
}
