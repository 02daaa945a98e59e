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
      <div className="field">
        <label htmlFor="audit-actor">{t("audit.person")}</label>
        <select id="audit-actor" name="actor" defaultValue={values.actor} {...invalid("actor")}>
          <option value="">{t("audit.everyone")}</option>
          <option value="system">{t("audit.system")}</option>
          {people.map((p) => (
            <option key={p.id ?? p.email} value={String(p.id)}>
              {p.email}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="audit-action">{t("audit.action")}</label>
        <select id="audit-action" name="action" defaultValue={values.action} {...invalid("action")}>
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
      </div>
      <div className="field">
        <label htmlFor="audit-from">{t("audit.from")}</label>
        <input id="audit-from" type="date" name="from" defaultValue={values.from} {...invalid("from")} />
      </div>
      <div className="field">
        <label htmlFor="audit-to">{t("audit.to")}</label>
        <input id="audit-to" type="date" name="to" defaultValue={values.to} {...invalid("to")} />
      </div>
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
