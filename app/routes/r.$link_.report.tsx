import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { atLink } from "~/visitor/place.server";
import { visitorReportPage } from "~/visitor/report.server";

/** `GET|POST /r/{link}/report`: a visitor reports a problem with the translation (a form, no login). */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorReportPage(request, context, await atLink(context, params));
}

export const loader = report;
export const action = report;
