import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorAskPage } from "~/questions/visitor.server";
import { atLink } from "~/visitor/place.server";

/** `GET|POST /r/{link}/ask`: a visitor's question about the work the printed code leads to (a form, no login). */
async function ask({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorAskPage(request, context, await atLink(context, params));
}

export const loader = ask;
export const action = ask;
