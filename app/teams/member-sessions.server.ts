// A member's own sessions (issue 18, decision 045): each browser signed in, its device and last use; ending
// one or all the others. Only one's own: every statement is scoped to the user's id.
import type { Database } from "~/db/client.server";
import { notFound } from "~/errors";
import { describeUserAgent, type Device } from "./user-agent";

/** How stale `last_seen_at` may get before a request writes it again (no D1 write on every request). */
export const SESSION_SEEN_EVERY_MS = 5 * 60 * 1000;

/** What a page may show of a session: a handle (a prefix of the stored hash, never the cookie), never the id. */
export interface SessionRow {
  handle: string;
  device: Device;
  createdAt: number;
  lastSeenAt: number;
  current: boolean;
}

const HANDLE_LENGTH = 16;
export const SESSION_HANDLE_PATTERN = /^[0-9a-f]{16}$/;

export async function listSessions(db: Database, user: { id: number; sessionId: string }, now = Date.now()): Promise<SessionRow[]> {
  const { results } = await db.$client
    .prepare(
      `SELECT id, user_agent, created_at, coalesce(last_seen_at, created_at) AS last_seen_at FROM sessions
       WHERE user_id = ?1 AND expires_at > ?2 ORDER BY (id = ?3) DESC, last_seen_at DESC LIMIT 100`,
    )
    .bind(user.id, now, user.sessionId)
    .all<{ id: string; user_agent: string; created_at: number; last_seen_at: number }>();
  return results.map((row) => ({
    handle: row.id.slice(0, HANDLE_LENGTH),
    device: describeUserAgent(row.user_agent),
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    current: row.id === user.sessionId,
  }));
}

/** Ends one of the user's other sessions (404 for an unknown handle, their current one or another user's). */
export async function endSession(db: Database, user: { id: number; sessionId: string }, handle: string): Promise<void> {
  if (!SESSION_HANDLE_PATTERN.test(handle)) throw notFound("Session", "session");
  const result = await db.$client
    .prepare("DELETE FROM sessions WHERE user_id = ?1 AND substr(id, 1, 16) = ?2 AND id != ?3")
    .bind(user.id, handle, user.sessionId)
    .run();
  if (!result.meta.changes) throw notFound("Session", "session");
}

/** Ends every session of the user but this one; returns how many ended. */
export async function endOtherSessions(db: Database, user: { id: number; sessionId: string }): Promise<number> {
  const result = await db.$client.prepare("DELETE FROM sessions WHERE user_id = ?1 AND id != ?2").bind(user.id, user.sessionId).run();
  return result.meta.changes ?? 0;
}

/**
 * Notes that a session was used, when its last note is older than `SESSION_SEEN_EVERY_MS`: the caller
 * only calls it then, and the conditions keep parallel requests from writing twice.
 */
export async function touchSession(db: Database, sessionId: string, userId: number, now = Date.now()): Promise<void> {
  const stale = now - SESSION_SEEN_EVERY_MS;
  const d1 = db.$client;
  await d1.batch([
    d1.prepare("UPDATE sessions SET last_seen_at = ?1 WHERE id = ?2 AND (last_seen_at IS NULL OR last_seen_at < ?3)").bind(now, sessionId, stale),
    d1.prepare("UPDATE users SET last_active_at = ?1 WHERE id = ?2 AND (last_active_at IS NULL OR last_active_at < ?3)").bind(now, userId, stale),
  ]);
}
