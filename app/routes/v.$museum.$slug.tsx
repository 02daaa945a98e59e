import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorPage } from "~/visitor/page.server";
import { atAddress } from "~/visitor/place.server";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/**
 * `GET /v/{museum}/{slug}`: an article's public page by its address (the editor's "public page" link,
 * opened with `ignoreStats=true` so staff previews are not counted). Same page as `/r/{link}`.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return visitorPage(request, context, await atAddress(context, params));
}
