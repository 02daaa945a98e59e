import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { museumOfArchiveLink } from "~/closing/archive-link.server";
import { archiveDownload, noDownload } from "~/closing/closing.server";
import { museumClosedAt } from "~/closing/state.server";

/**
 * `GET /closed-archive/{link}`: a closed museum's archive (decision 148), for the admin the sign-in page gave this
 * link to (signed, valid an hour). Anything else, and a museum not closed or already purged, is a 404.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const museumId = await museumOfArchiveLink(context.config.SESSION_SECRET, params.token ?? "");
  if (museumId === null) return noDownload();
  context.shards.bind(museumId);
  if ((await museumClosedAt(context.db.$client, museumId)) === null) return noDownload();
  return (await archiveDownload(context.media, museumId))?.response ?? noDownload();
}
