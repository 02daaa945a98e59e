// The audit entry of a conditional change, as one raw statement for the same D1 batch: it is written only
// when `where` holds, the same condition the change itself tests, so a refused change (the last admin, a
// link someone else claimed) leaves no entry and an accepted one always leaves exactly one.
import type { AuditAction } from "~/audit/log.server";

/** A value bound as is, or an SQL expression over the `from` rows (with its own `?` binds). */
export type AuditValue = number | string | null | { sql: string; binds?: unknown[] };

const DETAIL_MAX = 2000;

/** `INSERT INTO audit_log … SELECT … FROM <from> WHERE <where>` (positional `?` binds only). */
export function conditionalAudit(
  d1: D1Database,
  entry: {
    museumId: AuditValue;
    actorId: AuditValue;
    actorEmail: AuditValue;
    action: AuditAction;
    target: AuditValue;
    /** A JSON object (bound), or an SQL `json_object(…)` over the rows. Never a token or a password. */
    detail: Record<string, string | number | boolean | null | string[]> | { sql: string; binds?: unknown[] };
    at: number;
  },
  from: string,
  where: string,
  binds: unknown[],
): D1PreparedStatement {
  const values: unknown[] = [];
  const expr = (value: AuditValue) => {
    if (value !== null && typeof value === "object") {
      values.push(...(value.binds ?? []));
      return value.sql;
    }
    values.push(typeof value === "string" ? value.slice(0, 320) : value);
    return "?";
  };
  let detail: AuditValue;
  if ("sql" in entry.detail && typeof entry.detail.sql === "string") {
    detail = entry.detail as { sql: string; binds?: unknown[] };
  } else {
    let text = JSON.stringify(entry.detail);
    if (text.length > DETAIL_MAX) text = JSON.stringify({ truncated: true });
    detail = { sql: "?", binds: [text] };
  }
  const columns = [expr(entry.museumId), expr(entry.at), expr(entry.actorId), expr(entry.actorEmail), expr(entry.action), expr(entry.target), expr(detail)];
  return d1
    .prepare(
      `INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail)
       SELECT ${columns.join(", ")} FROM ${from} WHERE ${where}`,
    )
    .bind(...values, ...binds);
}
