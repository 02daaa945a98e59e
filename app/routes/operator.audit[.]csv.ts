import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { CSV_BOM, csvRow } from "~/audit/csv";
import { operatorAudit } from "~/operator/accounts.server";
import { requireOperator } from "~/operator/session.server";

const PAGE = 1000;

/** The operator audit log, every entry, newest first, as CSV (UTC times, ISO 8601). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context);
  let body = CSV_BOM + csvRow(["date (UTC)", "operator", "museum", "action", "details"]);
  let before: number | undefined;
  for (;;) {
    const rows = await operatorAudit(context.directory, { before, limit: PAGE });
    for (const row of rows)
      body += csvRow([new Date(row.at).toISOString(), row.operatorEmail, row.museumId === null ? "" : String(row.museumId), row.action, row.detail]);
    if (rows.length < PAGE) break;
    before = rows[rows.length - 1]!.id;
  }
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="operator-audit.csv"',
      "Cache-Control": "private, no-store",
    },
  });
}
