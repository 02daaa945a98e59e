import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { SUPPORTED_LOCALES } from "~/i18n/config";
import { localeCookie } from "~/i18n/i18n.server";
import { apiError, invalidInput } from "~/utils/http.server";
import { safeRedirect } from "~/utils/session.server";

const schema = z.object({ lng: z.enum(SUPPORTED_LOCALES), redirectTo: z.string().optional() });

export function loader() {
  return apiError(405, "method_not_allowed", "Use POST");
}

/** Sets the interface language cookie and returns to the page the switch was pressed on. */
export async function action({ request }: ActionFunctionArgs) {
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return invalidInput(parsed.error);
  return redirect(safeRedirect(parsed.data.redirectTo, "/"), {
    headers: { "Set-Cookie": await localeCookie.serialize(parsed.data.lng) },
  });
}
