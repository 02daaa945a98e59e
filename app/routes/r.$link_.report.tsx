import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { atLink, visitorReportPage } from "~/visitor/visitor.server";

/** `GET|POST /r/{link}/report`: a visitor reports a problem with the translation (a form, no login). */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const { target, place } = await atLink(context, params);
  return visitorReportPage(request, context, target, place);
}

export const loader = report;
export const action = report;
