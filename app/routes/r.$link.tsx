import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { targetForLink } from "~/models/visitor.server";
import { getOnly } from "~/utils/api.server";
import { visitorNotFound, visitorPage } from "~/visitor/visitor.server";

export const action = getOnly;

/**
 * `GET /r/{link}`: the address printed on a QR code (never changes). The article in the visitor's
 * language, a friendly page when the code leads nowhere yet, the 404 page for an unknown link. Opening
 * it without `?lang=` counts as a scan. Server-rendered HTML, no React bundle (DESIGN §6).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const link = linkSchema.safeParse(params.link);
  if (!link.success) return visitorNotFound(request);
  const target = await targetForLink(context.db, link.data);
  return visitorPage(request, context, target, { base: `/r/${link.data}`, scannable: true });
}
