import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { atAddress } from "~/visitor/place.server";
import { visitorReportPage } from "~/visitor/report.server";

/** `GET|POST /v/{museum}/{slug}/report`: the report form of an article's public page. */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorReportPage(request, context, await atAddress(context, params));
}

export const loader = report;
export const action = report;
