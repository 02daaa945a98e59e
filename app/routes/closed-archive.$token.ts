import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { museumOfArchiveLink } from "~/closing/archive-link.server";
import { closedArchive } from "~/closing/closing.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * `GET /closed-archive/{link}`: a closed museum's archive (decision 148), for the admin the sign-in page gave this
 * link to (signed, valid an hour). Anything else, and a museum not closed or already purged, is a 404.
 */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const museumId = await museumOfArchiveLink(context.config.SESSION_SECRET, params.token ?? "");
  if (museumId === null) return notFound();
  context.shards.bind(museumId);
  const closed = await context.db.$client.prepare("SELECT closed_at AS at FROM museums WHERE id = ?1").bind(museumId).first<{ at: number | null }>();
  if (typeof closed?.at !== "number") return notFound();
  const found = await closedArchive(context.media, museumId);
  const object = found ? await context.media.get(found.key) : null;
  if (!found || !object) return notFound();
  return new Response(object.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Length": String(object.size),
      "Content-Disposition": `attachment; filename="${found.key.slice(found.key.lastIndexOf("/") + 1)}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
