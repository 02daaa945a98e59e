import { useEffect } from "react";
import toast from "react-hot-toast";
import { useTranslation } from "react-i18next";
import { isErrorReason } from "~/errors";

/**
 * A staff form's refusal that names no field (`errors._form`, from `intentAction`: the museum is moving, a
 * limit, a conflict without a field) is said in a toast; a refusal naming a field is that field's own error.
 * Without it such a refusal left the form as it was, saying nothing (found by moving a museum under a browser).
 */
export function useFormRefusal(result: unknown): void {
  const { t } = useTranslation();
  const key = formRefusalKey(result);
  useEffect(() => {
    if (key !== null) toast.error(t(key), { id: "form-refusal" });
  }, [result, key, t]);
}

/** The message of a refusal that names no field, or null (none, or one a field says). */
export function formRefusalKey(result: unknown): string | null {
  const errors = result && typeof result === "object" && "errors" in result ? (result as { errors?: Record<string, unknown> }).errors : undefined;
  const reason = errors?._form;
  if (reason === undefined) return null;
  return isErrorReason(reason) ? `errors.reasons.${reason}` : "errors.codes.unknown";
}
