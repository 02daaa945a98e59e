import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { stopPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/**
 * `GET /t/{link}/{position}`: a stop of a tour (1…n over the shown stops): the article's visitor page with
 * "Stop 3 of 12", previous, next and the tour's name. Out of range or unknown: the 404 page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return stopPage(request, context, params.link ?? "", params.position ?? "");
}
