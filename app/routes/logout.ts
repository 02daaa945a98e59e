import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { deleteSession } from "~/models/auth.server";
import { jsonNoStore } from "~/utils/http.server";
import { clearSessionCookie, sessionToken } from "~/utils/session.server";

export function loader() {
  return redirect("/");
}

/** `POST /logout`: the session row is deleted, so the cookie is worthless even if kept. */
export async function action({ request, context }: ActionFunctionArgs) {
  const token = sessionToken(request);
  if (token) await deleteSession(context.db, token);
  return jsonNoStore({ ok: true }, { headers: { "Set-Cookie": clearSessionCookie(request) } });
}
