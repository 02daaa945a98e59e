import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { atAddress, visitorPage } from "~/visitor/visitor.server";

export const action = getOnly;

/**
 * `GET /v/{museum}/{slug}`: an article's public page by its address (the editor's "public page" link,
 * opened with `ignoreStats=true` so staff previews are not counted). Same page as `/r/{link}`.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { target, place } = await atAddress(context, params);
  return visitorPage(request, context, target, place);
}
