import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listLiveArticles } from "~/models/tree.server";
import { jsonNoStore } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/** `GET /api/read/articles`: every live article for pickers, as {id, name, unformatted_name}. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  return jsonNoStore(await listLiveArticles(context.db, user.museumId));
}
