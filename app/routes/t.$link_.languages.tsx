import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { tourLanguagesPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/** `GET /t/{link}/languages`: the language picker of a tour page, each choice leading back to it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return tourLanguagesPage(request, context, params.link ?? "");
}
