import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { tourPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/**
 * `GET /t/{link}`: a tour's page, the address printed on its code (issue 21, decision 076): cover,
 * description, duration and the numbered stops in the visitor's language. Server-rendered, no script.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return tourPage(request, context, params.link ?? "");
}
