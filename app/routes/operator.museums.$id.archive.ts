import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { archiveDownload, noDownload } from "~/closing/closing.server";
import { auditOperator } from "~/operator/accounts.server";
import { requireOperator } from "~/operator/session.server";

/** `GET /operator/museums/{id}/archive`: a closed museum's archive, for an operator (decision 148); audited. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context);
  const id = params.id && /^[1-9]\d{0,14}$/.test(params.id) ? Number(params.id) : null;
  if (id === null) return noDownload();
  const download = await archiveDownload(context.media, id);
  if (!download) return noDownload();
  await auditOperator(context.directory, operator, "museum.archive_download", id, { archive: download.key });
  return download.response;
}
