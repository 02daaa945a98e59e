import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { targetForSlug } from "~/models/visitor.server";
import { getOnly } from "~/utils/api.server";
import { visitorPage } from "~/visitor/visitor.server";

export const action = getOnly;

/**
 * `GET /v/{museum}/{slug}`: an article's public page by its address (the editor's "public page" link,
 * opened with `ignoreStats=true` so staff previews are not counted). Same page as `/r/{link}`.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  const target = await targetForSlug(context.db, museum, slug);
  return visitorPage(request, context, target, { base: `/v/${encodeURIComponent(museum)}/${encodeURIComponent(slug)}`, scannable: false });
}
