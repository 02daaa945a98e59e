import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { atAddress, visitorLanguagesPage } from "~/visitor/visitor.server";

export const action = getOnly;

/** `GET /v/{museum}/{slug}/languages`: the language picker of an article's public page. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { target, place } = await atAddress(context, params);
  return visitorLanguagesPage(request, context, target, place);
}
