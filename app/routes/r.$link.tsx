import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getOnly } from "~/utils/api.server";
import { atLink, visitorPage } from "~/visitor/visitor.server";

export const action = getOnly;

/**
 * `GET /r/{link}`: the address printed on a QR code (never changes). The article in the visitor's
 * language, a friendly page when the code leads nowhere yet, the 404 page for an unknown link. Opening
 * it without `?lang=` counts as a scan. Server-rendered HTML, no React bundle (DESIGN §6).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { target, place } = await atLink(context, params);
  return visitorPage(request, context, target, place);
}
