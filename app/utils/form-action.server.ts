import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { invalidField, type DomainError, type ErrorBody, type ErrorReason } from "~/errors";
import { formString } from "./form";
import { methodNotAllowed, readFormBody } from "./http.server";
import type { SessionUser } from "~/models/auth.server";
import { requireUser } from "./session.server";
import type { Permission } from "~/teams/roles";

/** A staff page form's answer: on refusal, the API's error body plus a reason per field (said by the page). */
export type FormResult<I extends string> = { intent: I; ok: boolean; errors?: Record<string, ErrorReason> } & Partial<ErrorBody>;

/**
 * The start every staff page action shares: POST only, a session, a form body (415/413/400 otherwise) and
 * its `intent`; the member's role must hold `permission` (for that intent). Either a response to return as is, or the user, the form and the intent.
 */
export async function readStaffForm(
  request: Request,
  context: AppLoadContext,
  permission: Permission | ((intent: string) => Permission),
): Promise<{ response: Response } | { user: SessionUser; form: FormData; intent: string }> {
  if (request.method !== "POST") return { response: methodNotAllowed("GET, POST") };
  const body = await readFormBody(request);
  if (!body.ok) return { response: body.response };
  const intent = formString(body.form, "intent");
  const user = await requireUser(request, context, typeof permission === "function" ? permission(intent) : permission);
  return { user, form: body.form, intent };
}

/** A refused form: the first field's reason as the API would say it (or `error` when given), and all the reasons. */
export function formRefusal<I extends string>(
  intent: I,
  errors: Record<string, ErrorReason>,
  options: { status?: number; headers?: HeadersInit; error?: DomainError } = {},
) {
  const [field, reason] = Object.entries(errors)[0] ?? ["_form", "invalid" as const];
  const body = (options.error ?? invalidField(field, reason)).toBody();
  return data<FormResult<I>>({ intent, ok: false, errors, ...body }, { status: options.status ?? 400, headers: options.headers });
}
