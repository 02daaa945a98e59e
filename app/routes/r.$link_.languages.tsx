import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorLanguagesPage } from "~/visitor/languages.server";
import { atLink } from "~/visitor/place.server";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/** `GET /r/{link}/languages`: the visitor page's language picker (works without JavaScript). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return visitorLanguagesPage(request, context, await atLink(context, params));
}
