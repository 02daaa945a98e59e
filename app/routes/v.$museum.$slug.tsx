import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorPage } from "~/visitor/page.server";
import { atAddress } from "~/visitor/place.server";
import { can } from "~/teams/roles";
import { getUser } from "~/utils/session.server";
import { asksDraftPreview, readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/**
 * `GET /v/{museum}/{slug}`: an article's public page by its address (the editor's "public page" link,
 * opened with `ignoreStats=true` so staff previews are not counted). Same page as `/r/{link}`.
 * `?preview=draft` with a session of this museum allowed to read content shows the draft (decision 041);
 * without one, the published page as anyone sees it.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = asksDraftPreview(new URL(request.url)) ? await getUser(request, context) : null;
  const staffMuseumId = user && can(user, "content.read") ? user.museumId : undefined;
  return visitorPage(request, context, await atAddress(context, params, staffMuseumId));
}
