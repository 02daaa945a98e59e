import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { targetForSlug } from "~/models/visitor.server";
import { visitorReportPage } from "~/visitor/visitor.server";

/** `GET|POST /v/{museum}/{slug}/report`: the report form of an article's public page. */
async function report({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  const museum = params.museum ?? "";
  const slug = params.slug ?? "";
  const target = await targetForSlug(context.db, museum, slug);
  return visitorReportPage(request, context, target, { base: `/v/${encodeURIComponent(museum)}/${encodeURIComponent(slug)}`, scannable: false });
}

export const loader = report;
export const action = report;
