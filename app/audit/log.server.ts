// The audit log's one writer (issue 18, decision 043): who did what and when, per museum. Models and the
// login call it; nothing in the product updates or deletes an entry (only the two-year prune does).
import type { Database } from "~/db/client.server";
import { sql } from "drizzle-orm";
import { auditLog } from "~/db/schema";

import { AUDIT_ACTIONS, type AuditAction } from "./actions";

export { AUDIT_ACTIONS, type AuditAction };

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

const INSERT_COLUMNS = "INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail)";

function params(entry: AuditEntry) {
  const r = row(entry);
  return [r.museumId, r.at, r.actorId, r.actorEmail, r.action, r.target, r.detail] as const;
}

/**
 * For a drizzle `db.batch`: records the entry only when the statement just before it in the batch changed
 * a row (SQLite's `changes()`), so a conditional update that matched nothing (a parallel call won, the row
 * is another museum's) leaves no entry. `{id}` in `target` becomes the row id the statement before inserted.
 */
export function auditWhenChanged(db: Database, entry: AuditEntry, options: { insertedId?: boolean } = {}) {
  const [museumId, at, actorId, actorEmail, action, target, detail] = params(entry);
  const targetSql = options.insertedId ? sql`${target} || last_insert_rowid()` : sql`${target}`;
  // drizzle's batch cannot take a raw `db.run`; an insert-select with raw SQL lists every column in the
  // schema's order (id first, left to SQLite).
  return db.insert(auditLog).select(sql`SELECT NULL, ${museumId}, ${at}, ${actorId}, ${actorEmail}, ${action}, ${targetSql}, ${detail} WHERE changes() > 0`);
}

/** The same for a raw D1 batch (`db.$client.batch`). */
export function auditWhenChangedD1(d1: D1Database, entry: AuditEntry, options: { insertedId?: boolean } = {}): D1PreparedStatement {
  const target = options.insertedId ? "?6 || last_insert_rowid()" : "?6";
  return d1.prepare(`${INSERT_COLUMNS} SELECT ?1, ?2, ?3, ?4, ?5, ${target}, ?7 WHERE changes() > 0`).bind(...params(entry));
}

/** An entry for a raw D1 batch, recorded whatever happened before it (the batch fails as a whole or not at all). */
export function auditD1(d1: D1Database, entry: AuditEntry): D1PreparedStatement {
  return d1.prepare(`${INSERT_COLUMNS} VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`).bind(...params(entry));
}

/** The member who acted, as the log keeps them (a `SessionUser` fits). */
export const actorOf = (user: { id: number; email: string }): AuditActor => ({ id: user.id, email: user.email });

/** The scheduler and the daily purge. */
export const SYSTEM_ACTOR: AuditActor = { id: null, email: "" };

/** Deletes entries older than the retention, a chunk at a time so no statement runs long (the daily cron). */
export async function pruneAuditLog(d1: D1Database, now = Date.now(), chunk = 500, maxRounds = 200): Promise<number> {
  const cutoff = now - AUDIT_RETENTION_MS;
  let deleted = 0;
  for (let round = 0; round < maxRounds; round++) {
    const result = await d1.prepare("DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ?1 LIMIT ?2)").bind(cutoff, chunk).run();
    deleted += result.meta.changes;
    if (result.meta.changes < chunk) break;
  }
  return deleted;
}
