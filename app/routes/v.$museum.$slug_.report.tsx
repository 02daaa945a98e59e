import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { atAddress, visitorReportPage } from "~/visitor/visitor.server";

/** `GET|POST /v/{museum}/{slug}/report`: the report form of an article's public page. */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const { target, place } = await atAddress(context, params);
  return visitorReportPage(request, context, target, place);
}

export const loader = report;
export const action = report;
