import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { listTrash } from "~/models/trash.server";
import { jsonNoStore } from "~/utils/http.server";
import { requireApiUser } from "~/utils/session.server";

/** `GET /api/read/trash`: trashed articles and folders still restorable, newest first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, context);
  return jsonNoStore(await listTrash(context.db, user.museumId));
}
