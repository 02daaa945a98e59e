import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { readOnlyPage } from "~/visitor/respond.server";
import { stopLanguagesPage } from "~/visitor/tour/page.server";

export const action = readOnlyPage;

/** `GET /t/{link}/{position}/languages`: the language picker of a tour's stop. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return stopLanguagesPage(request, context, params.link ?? "", params.position ?? "");
}
