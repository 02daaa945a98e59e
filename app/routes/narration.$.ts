import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { findNarration } from "~/narration/staff.server";
import { serveStored } from "~/utils/media-response.server";

/**
 * `GET|HEAD /narration/{key}`: a narration's audio (recorded or generated), whole or one byte range
 * (206/416), as `/media/` serves videos. Public: visitor pages play it. Only keys recorded in the
 * `narrations` table are served; anything else is 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const key = params["*"] ?? "";
  const row = key ? await findNarration(context.db, key) : undefined;
  if (!row) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  return serveStored(request, context, row);
}
