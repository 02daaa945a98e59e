import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { targetForSlug } from "~/models/visitor.server";
import { getOnly } from "~/utils/api.server";
import { visitorLanguagesPage } from "~/visitor/visitor.server";

export const action = getOnly;

/** `GET /v/{museum}/{slug}/languages`: the language picker of an article's public page. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  const target = await targetForSlug(context.db, museum, slug);
  return visitorLanguagesPage(request, context, target, { base: `/v/${encodeURIComponent(museum)}/${encodeURIComponent(slug)}`, scannable: false });
}
