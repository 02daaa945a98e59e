import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { atLink, visitorLanguagesPage } from "~/visitor/visitor.server";

export const action = getOnly;

/** `GET /r/{link}/languages`: the visitor page's language picker (works without JavaScript). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { target, place } = await atLink(context, params);
  return visitorLanguagesPage(request, context, target, place);
}
