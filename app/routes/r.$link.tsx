import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { visitorPage } from "~/visitor/page.server";
import { atLink } from "~/visitor/place.server";
import { readOnlyPage } from "~/visitor/respond.server";

export const action = readOnlyPage;

/**
 * `GET /r/{link}`: the address printed on a QR code (never changes). The article in the visitor's
 * language, a friendly page when the code leads nowhere yet, the 404 page for an unknown link. Opening
 * it without `?lang=` counts as a scan. Server-rendered HTML, no React bundle (DESIGN §6).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return visitorPage(request, context, await atLink(context, params));
}
