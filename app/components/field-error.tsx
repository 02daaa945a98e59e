import { useTranslation } from "react-i18next";
import type { ErrorReason } from "~/errors";

interface FieldErrorProps {
  /** The page's locale section: its own wording (`{scope}.errors.{field}.{reason}`) wins over the shared one. */
  scope: string;
  field: string;
  reason?: ErrorReason;
  /** The element's id, which the input names in `aria-describedby`. */
  id: string;
  /** Values the wording interpolates (`min`, `max`). */
  values?: Record<string, number>;
}

/** A form field's refusal under the field, announced: the page's wording of the reason, else the shared one. */
export function FieldError({ scope, field, reason, id, values }: FieldErrorProps) {
  const { t } = useTranslation();
  if (!reason) return null;
  return (
    <p id={id} className="field__error" role="alert">
      {t([`${scope}.errors.${field}.${reason}`, `errors.reasons.${reason}`], values)}
    </p>
  );
}
