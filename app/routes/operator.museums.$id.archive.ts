import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { closedArchive } from "~/closing/closing.server";
import { auditOperator } from "~/operator/accounts.server";
import { requireOperator } from "~/operator/session.server";

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** `GET /operator/museums/{id}/archive`: a closed museum's archive, for an operator (decision 148); audited. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context);
  const id = params.id && /^[1-9]\d{0,14}$/.test(params.id) ? Number(params.id) : null;
  if (id === null) return notFound();
  const found = await closedArchive(context.media, id);
  const object = found ? await context.media.get(found.key) : null;
  if (!found || !object) return notFound();
  await auditOperator(context.directory, operator, "museum.archive_download", id, { archive: found.key });
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
