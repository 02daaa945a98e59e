import { auditQuerySchema } from "~/audit/audit-input";
import { csvEntry, csvHeader } from "~/audit/csv";
import { allAuditEntries, listAuditEntries, museumTimeZone } from "~/audit/query.server";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/**
 * `GET /api/read/audit_log?from=&to=&actor=&action=&cursor=&limit=`: the museum's audit entries, newest
 * first, a page at a time (admins: `audit.read`). `&format=csv` downloads every matching entry instead
 * (decision 043).
 */
export const loader = queryLoader("audit.read", auditQuerySchema, async ({ input, user, context }) => {
  if (input.format === "json") return listAuditEntries(context.db, user.museumId, input);
  const timeZone = await museumTimeZone(context.db, user.museumId);
  const encoder = new TextEncoder();
  const chunks = allAuditEntries(context.db, user.museumId, timeZone, input);
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader(timeZone)));
        return;
      }
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map((entry) => csvEntry(entry, timeZone)).join("")));
    },
  });
  const today = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="muselingo-audit-${user.museumSlug}-${today}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
