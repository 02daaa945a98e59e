// The audit log's one writer (issue 18, decision 043): who did what and when, per museum. Models and the
// login call it; nothing in the product updates or deletes an entry (only the two-year prune does).
import type { Database } from "~/db/client.server";
import { auditLog } from "~/db/schema";

export const AUDIT_ACTIONS = [
  "article.publish",
  "article.schedule",
  "article.unschedule",
  "article.discard_draft",
  "article.restore_version",
  "item.delete",
  "item.restore",
  "item.purge",
  "translations.reset",
  "glossary.add",
  "glossary.delete",
  "qrcode.create",
  "qrcode.relink",
  "qrcode.unlink",
  "member.invite",
  "member.revoke_invitation",
  "member.join",
  "member.update",
  "member.remove",
  "member.password_reset_link",
  "member.password_reset",
  "session.login",
  "session.login_failed",
  "museum.settings",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a member, or nobody (the scheduler, a failed login for an unknown address). */
export interface AuditActor {
  id: number | null;
  email: string;
}

export interface AuditEntry {
  museumId: number;
  actor: AuditActor;
  action: AuditAction;
  /** "article:12", "folder:3", "user:5", "invitation:9", "glossary:4", "qrcode:7"; "" when none. */
  target?: string;
  /** What helps read the entry later (names, languages, roles). Never a token, password or secret. */
  detail?: Record<string, string | number | boolean | null | string[]>;
  at?: number;
}

/** Entries are kept two years, then pruned by the daily cron. */
export const AUDIT_RETENTION_MS = 2 * 366 * 24 * 60 * 60 * 1000;

const DETAIL_MAX = 2000;

function row(entry: AuditEntry) {
  let detail = JSON.stringify(entry.detail ?? {});
  if (detail.length > DETAIL_MAX) detail = JSON.stringify({ truncated: true });
  return {
    museumId: entry.museumId,
    at: entry.at ?? Date.now(),
    actorId: entry.actor.id,
    actorEmail: entry.actor.email.slice(0, 320),
    action: entry.action,
    target: entry.target ?? "",
    detail,
  };
}

/** The insert statement, to put in the same `db.batch` as the change it records (both or neither). */
export function auditStatement(db: Database, entry: AuditEntry) {
  return db.insert(auditLog).values(row(entry));
}

/** Records one entry on its own (for changes that are not a batch). */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await auditStatement(db, entry);
}
