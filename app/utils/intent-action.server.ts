// Staff pages whose forms send an `intent` (issue 31 §3): one action built from a named handler per intent,
// with one way to refuse an unknown or missing intent and one way to map a domain error to the form's answer.
import { data, type ActionFunctionArgs, type AppLoadContext } from "@remix-run/cloudflare";
import { invalidField, asDomainError, type ErrorReason } from "~/errors";
import type { SessionUser } from "~/models/auth.server";
import type { Permission } from "~/teams/roles";
import { formRefusal, readStaffForm } from "./form-action.server";

export interface IntentArgs {
  request: Request;
  context: AppLoadContext;
  user: SessionUser;
  form: FormData;
}

export type IntentHandler = (args: IntentArgs) => Promise<unknown>;

/**
 * The answer to an intent the page does not have (or none): 400 naming the field `intent`, `required` when it is
 * missing, `invalid` otherwise. The value sent is never echoed (it may be anything, of any length).
 */
export function intentRefusal(intent: string) {
  const reason: ErrorReason = intent === "" ? "required" : "invalid";
  return data({ ok: false as const, errors: { intent: reason }, ...invalidField("intent", reason).toBody() }, { status: 400 });
}

/**
 * A page action from its intents' handlers. POST, a session, a form body and the permission (per intent when a
 * function) are checked first (`readStaffForm`); then an unknown intent is refused (`intentRefusal`), and a
 * domain error thrown by a handler becomes the form's refusal with the error's status: `{intent, ok: false,
 * errors: {field: reason}, error}`, plus what `refusalExtra` adds (the member the answer is about, say).
 */
export function intentAction<H extends Record<string, IntentHandler>>(
  permission: Permission | ((intent: string) => Permission),
  handlers: H,
  refusalExtra?: (intent: keyof H & string, args: IntentArgs) => Record<string, unknown>,
) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const read = await readStaffForm(request, context, permission);
    if ("response" in read) return read.response;
    const { user, form, intent } = read;
    // Own keys only: "__proto__", "constructor" or "toString" are unknown intents like any other.
    if (!Object.hasOwn(handlers, intent)) return intentRefusal(intent);
    const name = intent as keyof H & string;
    const args = { request, context, user, form };
    try {
      return (await handlers[name]!(args)) as Awaited<ReturnType<H[keyof H]>>;
    } catch (caught) {
      const error = asDomainError(caught);
      if (!error) throw caught;
      const refusal = formRefusal(
        name,
        { [error.field ?? "_form"]: error.reason ?? "invalid" },
        {
          status: error.status,
          error,
          headers: error.retryAfter ? { "Retry-After": String(error.retryAfter) } : undefined,
        },
      );
      return refusalExtra ? data({ ...refusal.data, ...refusalExtra(name, args) }, refusal.init ?? undefined) : refusal;
    }
  };
}
