import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listTree } from "~/models/tree.server";
import { jsonNoStore } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/** `GET /api/tree`: the museum's folders and articles, nested from the root. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  return jsonNoStore(await listTree(context.db, user.museumId));
}
