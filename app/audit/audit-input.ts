// What the audit log accepts as filters (decision 043): the API (`GET /api/read/audit_log`) and the
// /audit page parse the same query with this schema, so a link from the page is a valid API call.
import { z } from "zod";
import { AUDIT_ACTIONS, type AuditAction } from "./actions";

/** Entries per page: 50 by default, at most 200. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_PAGE_MAX = 200;

/** The action groups a filter may name as `group.*` ("member.*": every member action). */
export const AUDIT_GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.split(".")[0]!))];

const ACTION_SET = new Set<string>(AUDIT_ACTIONS);

/** The actions an action filter covers: one action, or every action of a group. */
export function actionsOf(filter: string): AuditAction[] {
  if (filter.endsWith(".*")) {
    const group = filter.slice(0, -2);
    return AUDIT_ACTIONS.filter((a) => a.startsWith(`${group}.`));
  }
  return ACTION_SET.has(filter) ? [filter as AuditAction] : [];
}

/** A calendar day "YYYY-MM-DD" that exists (no 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1970 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const empty = (v: unknown) => (v === "" ? undefined : v);
const day = z.preprocess(empty, z.string().max(10, "invalid").refine(isCalendarDay, "invalid").optional());

/**
 * The actor filter: a member's id (digits), "system" (the scheduler and the daily purge) or an e-mail
 * address as it was when they acted (compared without case).
 */
export type ActorFilter = { kind: "id"; id: number } | { kind: "system" } | { kind: "email"; email: string };

const actor = z.preprocess(
  empty,
  z
    .string()
    .max(320, "too_long")
    .transform((value, ctx): ActorFilter => {
      const trimmed = value.trim();
      if (/^\d{1,16}$/.test(trimmed) && Number.isSafeInteger(Number(trimmed))) return { kind: "id", id: Number(trimmed) };
      if (trimmed === "system") return { kind: "system" };
      if (trimmed.includes("@") && !/[\s\p{Cc}]/u.test(trimmed)) return { kind: "email", email: trimmed.toLowerCase() };
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: "invalid" });
      return z.NEVER;
    })
    .optional(),
);

const action = z.preprocess(
  empty,
  z
    .string()
    .max(64, "invalid")
    .refine((v) => actionsOf(v).length > 0, "invalid")
    .optional(),
);

/** An opaque position: "at:id" of the last entry of the previous page. */
const cursor = z.preprocess(
  empty,
  z
    .string()
    .regex(/^\d{1,16}:\d{1,16}$/, "invalid")
    .transform((v) => {
      const [at, id] = v.split(":").map(Number) as [number, number];
      return { at, id };
    })
    .optional(),
);

const limit = z.preprocess(
  empty,
  z
    .string()
    .regex(/^\d{1,4}$/, "wrong_type")
    .transform(Number)
    .refine((n) => n >= 1 && n <= AUDIT_PAGE_MAX, "out_of_range")
    .optional(),
);

export const auditQuerySchema = z
  .object({
    from: day,
    to: day,
    actor,
    action,
    cursor,
    limit,
    format: z.preprocess(empty, z.enum(["json", "csv"], { errorMap: () => ({ message: "invalid" }) }).default("json")),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "out_of_range", path: ["from"] });

export type AuditQuery = z.infer<typeof auditQuerySchema>;
