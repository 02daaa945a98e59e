import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { SUPPORTED_LOCALES } from "~/i18n/config";
import { localeCookie } from "~/i18n/i18n.server";
import { invalidInput, methodNotAllowed, readFormBody } from "~/utils/http.server";
import { safeRedirect } from "~/utils/session.server";

const schema = z.object({ lng: z.enum(SUPPORTED_LOCALES), redirectTo: z.string().max(2048).optional() });

export const loader = () => methodNotAllowed("POST");

/** Sets the interface language cookie and returns to the page the switch was pressed on. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const parsed = schema.safeParse(Object.fromEntries(body.form));
  if (!parsed.success) return invalidInput(parsed.error);
  return redirect(safeRedirect(parsed.data.redirectTo, "/"), {
    headers: { "Set-Cookie": await localeCookie.serialize(parsed.data.lng) },
  });
}
