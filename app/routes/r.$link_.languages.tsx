import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { linkSchema } from "~/models/qrcode-input";
import { targetForLink } from "~/models/visitor.server";
import { getOnly } from "~/utils/api.server";
import { visitorLanguagesPage, visitorNotFound } from "~/visitor/visitor.server";

export const action = getOnly;

/** `GET /r/{link}/languages`: the visitor page's language picker (works without JavaScript). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const link = linkSchema.safeParse(params.link);
  if (!link.success) return visitorNotFound(request);
  return visitorLanguagesPage(request, context, await targetForLink(context.db, link.data), { base: `/r/${link.data}`, scannable: true });
}
