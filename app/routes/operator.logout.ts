import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { endOperatorSession } from "~/operator/accounts.server";
import { clearOperatorCookie, getOperator } from "~/operator/session.server";
import { methodNotAllowed } from "~/utils/http.server";

export function loader(_: LoaderFunctionArgs) {
  return methodNotAllowed("POST");
}

/** Ends the operator's session (audited) and clears the cookie; without a session, only the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const operator = await getOperator(request, context);
  if (operator) await endOperatorSession(context.directory, operator);
  return redirect("/operator/login", { headers: { "Set-Cookie": clearOperatorCookie(request), "Cache-Control": "private, no-store" } });
}
