import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorAskPage } from "~/questions/visitor.server";
import { locateStop } from "~/visitor/tour/page.server";

/** `GET|POST /t/{link}/{position}/ask`: a visitor's question at a tour's stop (the tour's own text counts too). */
async function ask({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorAskPage(request, context, await locateStop(context, params.link ?? "", params.position ?? ""));
}

export const loader = ask;
export const action = ask;
