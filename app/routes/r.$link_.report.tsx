import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { targetForLink } from "~/models/visitor.server";
import { visitorNotFound, visitorReportPage } from "~/visitor/visitor.server";

/** `GET|POST /r/{link}/report`: a visitor reports a problem with the translation (a form, no login). */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const link = linkSchema.safeParse(params.link);
  if (!link.success) return visitorNotFound(request);
  return visitorReportPage(request, context, await targetForLink(context.db, link.data), { base: `/r/${link.data}`, scannable: true });
}

export const loader = report;
export const action = report;
