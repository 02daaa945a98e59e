import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { jsonNoStore } from "~/utils/http.server";
import { getUser } from "~/utils/session.server";

/** `GET /session`: `{ email, museum }` when logged in, `{}` otherwise (spec §7). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  if (!user) return jsonNoStore({});
  return jsonNoStore({ email: user.email, museum: { name: user.museumName, slug: user.museumSlug } });
}

export const action = getOnly;
