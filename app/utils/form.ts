import type { ZodError } from "zod";
import type { ErrorReason } from "~/errors";
import { issueReason } from "./zod-error";

/** The reason code of the first issue per field, keyed by the field's name: the API's reasons, for forms. */
export function fieldErrors(error: ZodError): Record<string, ErrorReason> {
  const out: Record<string, ErrorReason> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_form";
    out[key] ??= issueReason(issue);
  }
  return out;
}

export function formString(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
