import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorAskPage } from "~/questions/visitor.server";
import { atAddress } from "~/visitor/place.server";

/** `GET|POST /v/{museum}/{slug}/ask`: a visitor's question about an article's public page. */
async function ask({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs) {
  return visitorAskPage(request, context, await atAddress(context, params));
}

export const loader = ask;
export const action = ask;
