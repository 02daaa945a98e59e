import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorReportPage } from "~/visitor/report.server";
import { locateStop } from "~/visitor/tour/page.server";

/** `GET|POST /t/{link}/{position}/report`: the translation report form of a tour's stop. */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorReportPage(request, context, await locateStop(context, params.link ?? "", params.position ?? ""));
}

export const loader = report;
export const action = report;
