import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorLanguagesPage } from "~/visitor/languages.server";
import { atAddress } from "~/visitor/place.server";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/** `GET /v/{museum}/{slug}/languages`: the language picker of an article's public page. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return visitorLanguagesPage(request, context, await atAddress(context, params));
}
