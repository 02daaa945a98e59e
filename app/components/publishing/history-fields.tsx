import { useTranslation } from "react-i18next";
import type { Field } from "~/publishing/diff";

/** A setting as staff read it: a file by its name, yes/no, an empty value as "none". */
export function useValueText() {
  const { t } = useTranslation();
  return (name: string, value: string) => {
    if (value === "") return t("history.none");
    if (value === "true" || value === "false") return t(value === "true" ? "history.yes" : "history.no");
    if (value.startsWith("/media/")) return value.slice(value.lastIndexOf("/") + 1);
    if (name === "justify" || name === "align") return t(`history.positions.${value}`, { defaultValue: value });
    return value;
  };
}

/** The label of an element type or a field, in the interface language. */
export function useHistoryLabels() {
  const { t } = useTranslation();
  return {
    type: (type: string) => t(`history.types.${type}`, { defaultValue: type }),
    field: (name: string) => t(`history.fields.${name}`, { defaultValue: name }),
  };
}

/** The texts of an element, and its files, read-only (settings such as sizes are left out). */
export function ElementFields({ fields, wrap }: { fields: Field[]; wrap?: "ins" | "del" }) {
  const labels = useHistoryLabels();
  const valueText = useValueText();
  const { t } = useTranslation();
  const shown = fields.filter((field) => field.kind === "text" || (["src", "subtitles", "link", "url"].includes(field.name) && field.value !== ""));
  if (shown.length === 0) return null;
  return (
    <dl className="history-fields">
      {shown.map((field) => {
        const text = field.kind === "text" ? field.value : valueText(field.name, field.value);
        const body =
          wrap === "ins" ? (
            <ins>
              <span className="visually-hidden">{t("history.insStart")}</span>
              {text}
              <span className="visually-hidden">{t("history.insEnd")}</span>
            </ins>
          ) : wrap === "del" ? (
            <del>
              <span className="visually-hidden">{t("history.delStart")}</span>
              {text}
              <span className="visually-hidden">{t("history.delEnd")}</span>
            </del>
          ) : (
            text
          );
        return (
          <div key={field.name} className="history-fields__row">
            <dt>{labels.field(field.name)}</dt>
            <dd dir="auto" className={field.kind === "text" ? "history-fields__text" : undefined}>
              {field.kind === "text" && field.value === "" ? <span className="history-muted">{t("history.empty")}</span> : body}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
