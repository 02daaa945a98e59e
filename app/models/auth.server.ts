import { and, eq, gt, isNull, lt, ne } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { museums, sessions, users } from "~/db/schema";
import { hmacSha256Hex, randomToken, sha256Hex } from "~/lib/crypto";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { parseLanguages, type Role } from "~/teams/roles";
import { auditStatement } from "~/audit/log.server";
import { SESSION_SEEN_EVERY_MS, touchSession } from "~/teams/member-sessions.server";
import { museumOfAccount } from "~/shards/directory.server";
import { museumClosed, museumSuspended } from "~/errors";
import { archiveLink, purgeTime } from "~/closing/archive-link.server";
import { museumToken } from "~/shards/keys";
import type { RequestShards } from "~/shards/route.server";
import { clearLoginFailures, refundLoginAttempt, reserveLoginAttempt } from "./rate-limit.server";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  museumId: number;
  museumName: string;
  museumSlug: string;
  sessionId: string;
  /** The member's role in the museum and, for a translator, their languages (empty = all; decision 040). */
  role: Role;
  languages: string[];
}

export type LoginResult =
  { kind: "ok"; token: string; expiresAt: number; user: { id: number; email: string } } | { kind: "invalid" } | { kind: "rate_limited"; retryAfter: number };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The limiter's keys for an account and an address, HMACed so D1 holds no raw e-mail or IP. */
export async function attemptKeys(secret: string, email: string, address: string) {
  const [emailKey, addressKey] = await Promise.all([hmacSha256Hex(secret, `email:${email}`), hmacSha256Hex(secret, `addr:${address}`)]);
  return { emailKey: `e:${emailKey}`, addressKey: `a:${addressKey}` };
}

/**
 * Signs in: the limiter and the address's museum are the directory's (decision 142); the member, their password
 * and the new session are their museum's shard's, which `shards` is bound to before it is read.
 */
export async function login(
  { db, directory, shards }: { db: Database; directory: Database; shards: RequestShards },
  input: { email: string; password: string; clientAddress: string; secret: string; userAgent?: string; now?: number },
): Promise<LoginResult> {
  const now = input.now ?? Date.now();
  const email = normalizeEmail(input.email);
  const { emailKey, addressKey } = await attemptKeys(input.secret, email, input.clientAddress);

  const reservation = await reserveLoginAttempt(directory, [emailKey, addressKey], now);
  if (!reservation.allowed) return { kind: "rate_limited", retryAfter: reservation.retryAfter };

  const museumId = await museumOfAccount(directory.$client, email);
  if (museumId !== null) shards.bind(museumId);
  const user = museumId === null ? undefined : await db.query.users.findFirst({ where: eq(users.email, email) });
  const valid = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user || !valid) {
    // Only an existing account's museum hears of a failure: an unknown address belongs to no museum.
    if (user) {
      await auditStatement(db, {
        museumId: user.museumId,
        actor: { id: null, email: user.email },
        action: "session.login_failed",
        target: `user:${user.id}`,
        at: now,
      });
    }
    return { kind: "invalid" };
  }

  // The right password of a suspended museum's member: told why, never signed in (decision 147).
  const museum = await db.select({ suspendedAt: museums.suspendedAt, closedAt: museums.closedAt }).from(museums).where(eq(museums.id, user.museumId)).get();
  // Closed (decision 148): never signed in; an admin is given a download link of the museum's archive.
  if (typeof museum?.closedAt === "number")
    throw museumClosed(user.role === "admin" ? { url: await archiveLink(input.secret, user.museumId, now), until: purgeTime(museum.closedAt) } : undefined);
  if (typeof museum?.suspendedAt === "number") throw museumSuspended();
  await refundLoginAttempt(directory, [addressKey]);
  await clearLoginFailures(directory, emailKey);
  const { token, expiresAt } = await createSession(db, user, now, {
    userAgent: input.userAgent,
    audit: { museumId: user.museumId, email: user.email },
  });
  return { kind: "ok", token, expiresAt, user: { id: user.id, email: user.email } };
}

/** The part of a User-Agent a session keeps, to name the device in /settings. */
export const USER_AGENT_MAX_LENGTH = 300;

/**
 * Opens a session (the cookie's token is returned; D1 keeps its SHA-256), with the browser's User-Agent,
 * and notes the user as active. With `audit`, the `session.login` entry is written in the same batch.
 */
export async function createSession(
  db: Database,
  { id: userId, museumId }: { id: number; museumId: number },
  now = Date.now(),
  options: { userAgent?: string; audit?: { museumId: number; email: string } } = {},
) {
  // The token names its museum, so the next request finds the shard without reading the directory.
  const token = museumToken(museumId, randomToken());
  const expiresAt = now + SESSION_TTL_MS;
  const userAgent = (options.userAgent ?? "").slice(0, USER_AGENT_MAX_LENGTH);
  const insert = db.insert(sessions).values({ id: await sha256Hex(token), userId, expiresAt, createdAt: now, userAgent, lastSeenAt: now });
  const active = db.update(users).set({ lastActiveAt: now }).where(eq(users.id, userId));
  const expired = db.delete(sessions).where(lt(sessions.expiresAt, now));
  if (options.audit) {
    await db.batch([
      expired,
      insert,
      active,
      auditStatement(db, {
        museumId: options.audit.museumId,
        actor: { id: userId, email: options.audit.email },
        action: "session.login",
        target: `user:${userId}`,
        at: now,
      }),
    ]);
  } else {
    await db.batch([expired, insert, active]);
  }
  return { token, expiresAt };
}

export async function findSessionUser(db: Database, token: string, now = Date.now()): Promise<SessionUser | null> {
  const sessionId = await sha256Hex(token);
  const row = await db
    .select({
      id: users.id,
      email: users.email,
      museumId: users.museumId,
      museumName: museums.name,
      museumSlug: museums.slug,
      role: users.role,
      languages: users.languages,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(museums, eq(museums.id, users.museumId))
    // A suspended museum's sessions are ended when it is suspended; any left over open nothing (decision 147).
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(museums.suspendedAt)))
    .get();
  if (!row) return null;
  // Last seen and last active move at most every few minutes: no D1 write on every request.
  if (row.lastSeenAt === null || row.lastSeenAt < now - SESSION_SEEN_EVERY_MS) await touchSession(db, sessionId, row.id, now);
  const { lastSeenAt: _seen, ...user } = row;
  return { ...user, languages: parseLanguages(row.languages), sessionId };
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, await sha256Hex(token)));
}

export type ChangePasswordResult = { kind: "ok" } | { kind: "wrong_current" } | { kind: "rate_limited"; retryAfter: number };

/**
 * Changes the password and signs out every other session of the user. The current password is a
 * guess like any login's: it counts against the same limiter, so a stolen session cannot brute-force it.
 */
export async function changePassword(
  db: Database,
  directory: Database,
  user: SessionUser,
  input: { currentPassword: string; newPassword: string; clientAddress: string; secret: string; now?: number },
): Promise<ChangePasswordResult> {
  const now = input.now ?? Date.now();
  const { emailKey, addressKey } = await attemptKeys(input.secret, normalizeEmail(user.email), input.clientAddress);
  const reservation = await reserveLoginAttempt(directory, [emailKey, addressKey], now);
  if (!reservation.allowed) return { kind: "rate_limited", retryAfter: reservation.retryAfter };
  const row = await db.query.users.findFirst({ where: eq(users.id, user.id) });
  if (!row || !(await verifyPassword(input.currentPassword, row.passwordHash))) {
    return { kind: "wrong_current" };
  }
  await refundLoginAttempt(directory, [emailKey, addressKey]);
  const passwordHash = await hashPassword(input.newPassword);
  await db.batch([
    db.update(users).set({ passwordHash }).where(eq(users.id, user.id)),
    db.delete(sessions).where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId))),
  ]);
  return { kind: "ok" };
}
