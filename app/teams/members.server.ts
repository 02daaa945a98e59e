// A museum's members and invitations (issue 18, decision 040): list, invite, revoke, change a role,
// remove, make a password-reset link. Every call is scoped to the acting admin's museum; another museum's
// ids answer 404. The last-admin rule lives inside the SQL statement that changes the role or deletes the
// member, so two admins demoting each other at once cannot leave the museum without one (D1 runs each
// batch as one transaction, one after the other).
import { museumOfAccount, releaseAccount } from "~/shards/directory.server";
import { museumToken } from "~/shards/keys";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { auditStatement } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { memberTokens, users } from "~/db/schema";
import { conflict, notFound, type DomainError } from "~/errors";
import { randomToken, sha256Hex } from "~/lib/crypto";
import { conditionalAudit } from "./audit-sql.server";
import { languagesForRole } from "./member-input";
import { parseLanguages, type Role } from "./roles";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

/** Who acts: an admin of `museumId` (the route checked "museum.manage"). */
export interface Actor {
  id: number;
  email: string;
  museumId: number;
}

export interface MemberRow {
  id: number;
  email: string;
  role: Role;
  languages: string[];
  lastActiveAt: number | null;
  createdAt: number;
}

export interface InvitationRow {
  id: number;
  email: string;
  role: Role;
  languages: string[];
  createdAt: number;
  expiresAt: number;
  createdBy: string;
}

/** The members (by e-mail) and the pending invitations (newest first) of a museum. */
export async function listMembers(db: Database, museumId: number, now = Date.now()): Promise<{ members: MemberRow[]; invitations: InvitationRow[] }> {
  const [memberRows, invitationRows] = await db.batch([
    db
      .select({ id: users.id, email: users.email, role: users.role, languages: users.languages, lastActiveAt: users.lastActiveAt, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.museumId, museumId))
      .orderBy(asc(users.email)),
    db
      .select({
        id: memberTokens.id,
        email: memberTokens.email,
        role: memberTokens.role,
        languages: memberTokens.languages,
        createdAt: memberTokens.createdAt,
        expiresAt: memberTokens.expiresAt,
        // A subquery, not a join: D1 returns rows keyed by column name, and two "email" columns would collide.
        createdBy: sql<string | null>`(SELECT u.email FROM users u WHERE u.id = ${memberTokens.createdBy})`,
      })
      .from(memberTokens)
      .where(
        and(
          eq(memberTokens.museumId, museumId),
          eq(memberTokens.kind, "invitation"),
          isNull(memberTokens.usedAt),
          isNull(memberTokens.revokedAt),
          gt(memberTokens.expiresAt, now),
        ),
      )
      .orderBy(asc(memberTokens.email)),
  ]);
  return {
    members: memberRows.map((m) => ({ ...m, languages: parseLanguages(m.languages) })),
    invitations: invitationRows.map((i) => ({ ...i, languages: parseLanguages(i.languages), createdBy: i.createdBy ?? "" })),
  };
}

/**
 * Makes an invitation link: a random token whose SHA-256 alone is stored. The link is returned once and
 * never stored, logged or audited in clear. An address that already has an account (in any museum: an
 * address logs into one museum) is refused with 409 `email`; a pending invitation of the same address in
 * this museum is replaced (revoked in the same batch), so only the newest link works.
 */
export async function inviteMember(
  db: Database,
  directory: Database,
  // An operator inviting a new museum's first admin is no member of it: no user id (decision 146).
  actor: Omit<Actor, "id"> & { id: number | null },
  input: { email: string; role: Role; languages?: string[] },
  origin: string,
  now = Date.now(),
): Promise<{ id: number; invitationUrl: string; expiresAt: number }> {
  // An address with an account in any museum, whichever shard, is the directory's (decision 142).
  const existing = await museumOfAccount(directory.$client, input.email);
  if (existing !== null) throw conflict("email", "This address already has an account", "already_member");
  const token = museumToken(actor.museumId, randomToken());
  const expiresAt = now + INVITATION_TTL_MS;
  const languages = languagesForRole(input.role, input.languages);
  const [, inserted] = await db.batch([
    db
      .update(memberTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(memberTokens.museumId, actor.museumId),
          eq(memberTokens.kind, "invitation"),
          eq(memberTokens.email, input.email),
          isNull(memberTokens.usedAt),
          isNull(memberTokens.revokedAt),
        ),
      ),
    db
      .insert(memberTokens)
      .values({
        museumId: actor.museumId,
        kind: "invitation",
        tokenHash: await sha256Hex(token),
        email: input.email,
        role: input.role,
        languages: JSON.stringify(languages),
        createdBy: actor.id,
        createdAt: now,
        expiresAt,
      })
      .returning({ id: memberTokens.id }),
    auditStatement(db, {
      museumId: actor.museumId,
      actor,
      action: "member.invite",
      target: `email:${input.email}`,
      detail: { email: input.email, role: input.role, languages, expiresAt },
      at: now,
    }),
  ]);
  return { id: inserted[0]!.id, invitationUrl: `${origin}/invite/${token}`, expiresAt };
}

/** Withdraws a pending invitation of the museum; 404 for another museum's, a used or an already revoked one. */
export async function revokeInvitation(db: Database, actor: Actor, id: number, now = Date.now()): Promise<{ id: number }> {
  const d1 = db.$client;
  const pending = "id = ?1 AND museum_id = ?2 AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL";
  const [, revoked] = await d1.batch([
    conditionalAudit(
      d1,
      {
        museumId: actor.museumId,
        actorId: actor.id,
        actorEmail: actor.email,
        action: "member.revoke_invitation",
        target: { sql: "'invitation:' || id" },
        detail: { sql: "json_object('email', email, 'role', role)" },
        at: now,
      },
      "member_tokens",
      "id = ? AND museum_id = ? AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL",
      [id, actor.museumId],
    ),
    d1.prepare(`UPDATE member_tokens SET revoked_at = ?3 WHERE ${pending} RETURNING id`).bind(id, actor.museumId, now),
  ]);
  if (!revoked?.results.length) throw notFound("Invitation", "id");
  return { id };
}

/** SQL: the member `?uid` of museum `?mid` may stop being an admin (they are not one, or another admin remains). */
const OTHER_ADMIN_REMAINS = (table: string) =>
  `(${table}.role != 'admin' OR (SELECT count(*) FROM users o WHERE o.museum_id = ${table}.museum_id AND o.role = 'admin' AND o.id != ${table}.id) > 0)`;

async function refusalFor(db: Database, museumId: number, userId: number, field: string): Promise<DomainError> {
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.museumId, museumId)))
    .get();
  if (!row) return notFound("Member", "userId");
  return conflict(field, "This is the museum's last admin: make another member admin first", "last_admin");
}

/**
 * Changes a member's role (and a translator's languages). Demoting the last admin is refused (409 `role`,
 * reason `last_admin`) by the UPDATE's own condition. The member's open sessions get the new role at their
 * next request (the role is read with the session).
 */
export async function updateMember(
  db: Database,
  actor: Actor,
  input: { userId: number; role: Role; languages?: string[] },
  now = Date.now(),
): Promise<MemberRow> {
  const d1 = db.$client;
  const languages = JSON.stringify(languagesForRole(input.role, input.languages));
  const allowed = `u.id = ? AND u.museum_id = ? AND (? = 'admin' OR ${OTHER_ADMIN_REMAINS("u")})`;
  const [, updated] = await d1.batch<{ id: number; email: string; role: Role; languages: string; last_active_at: number | null; created_at: number }>([
    // Before the change, so the entry can say the role it had.
    conditionalAudit(
      d1,
      {
        museumId: actor.museumId,
        actorId: actor.id,
        actorEmail: actor.email,
        action: "member.update",
        target: { sql: "'user:' || u.id" },
        detail: { sql: "json_object('email', u.email, 'from', u.role, 'role', ?, 'languages', json(?))", binds: [input.role, languages] },
        at: now,
      },
      "users u",
      allowed,
      [input.userId, actor.museumId, input.role],
    ),
    d1
      .prepare(
        `UPDATE users AS u SET role = ?, languages = ? WHERE ${allowed}
         RETURNING id, email, role, languages, last_active_at, created_at`,
      )
      .bind(input.role, languages, input.userId, actor.museumId, input.role),
  ]);
  const row = updated?.results[0];
  if (!row) throw await refusalFor(db, actor.museumId, input.userId, "role");
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    languages: parseLanguages(row.languages),
    lastActiveAt: row.last_active_at,
    createdAt: row.created_at,
  };
}

/**
 * Removes a member: the user row goes, and with it (ON DELETE CASCADE) every session, so they are signed
 * out at their next request, and their reset links. Articles, versions and the audit log keep the e-mail
 * they stored. The last admin cannot be removed (409 `userId`, reason `last_admin`).
 */
export async function removeMember(db: Database, directory: Database, actor: Actor, userId: number, now = Date.now()): Promise<{ id: number }> {
  const d1 = db.$client;
  const allowed = `u.id = ? AND u.museum_id = ? AND ${OTHER_ADMIN_REMAINS("u")}`;
  const [, removed] = await d1.batch([
    conditionalAudit(
      d1,
      {
        museumId: actor.museumId,
        actorId: actor.id,
        actorEmail: actor.email,
        action: "member.remove",
        target: { sql: "'user:' || u.id" },
        detail: { sql: "json_object('email', u.email, 'role', u.role)" },
        at: now,
      },
      "users u",
      allowed,
      [userId, actor.museumId],
    ),
    d1.prepare(`DELETE FROM users AS u WHERE ${allowed} RETURNING id, email`).bind(userId, actor.museumId),
  ]);
  if (!removed?.results.length) throw await refusalFor(db, actor.museumId, userId, "userId");
  // The address may join a museum again (decision 142).
  await releaseAccount(directory.$client, actor.museumId, (removed.results[0] as { email: string }).email);
  return { id: userId };
}

/**
 * A single-use link to choose a new password, valid one hour, for a member of the museum (an admin gives
 * it to them by hand: no mail server). A newer link replaces the member's pending ones.
 */
export async function createPasswordResetLink(
  db: Database,
  actor: Actor,
  userId: number,
  origin: string,
  now = Date.now(),
): Promise<{ url: string; expiresAt: number }> {
  const d1 = db.$client;
  const token = museumToken(actor.museumId, randomToken());
  const expiresAt = now + RESET_LINK_TTL_MS;
  const member = "u.id = ? AND u.museum_id = ?";
  const [, inserted] = await d1.batch([
    d1
      .prepare(
        `UPDATE member_tokens SET revoked_at = ?1 WHERE kind = 'password_reset' AND user_id = ?2 AND museum_id = ?3
         AND used_at IS NULL AND revoked_at IS NULL`,
      )
      .bind(now, userId, actor.museumId),
    d1
      .prepare(
        `INSERT INTO member_tokens (museum_id, kind, token_hash, email, role, languages, user_id, created_by, created_at, expires_at)
         SELECT u.museum_id, 'password_reset', ?, u.email, u.role, u.languages, u.id, ?, ?, ? FROM users u WHERE ${member} RETURNING id`,
      )
      .bind(await sha256Hex(token), actor.id, now, expiresAt, userId, actor.museumId),
    conditionalAudit(
      d1,
      {
        museumId: actor.museumId,
        actorId: actor.id,
        actorEmail: actor.email,
        action: "member.password_reset_link",
        target: { sql: "'user:' || u.id" },
        detail: { sql: "json_object('email', u.email, 'expiresAt', ?)", binds: [expiresAt] },
        at: now,
      },
      "users u",
      member,
      [userId, actor.museumId],
    ),
  ]);
  if (!inserted?.results.length) throw notFound("Member", "userId");
  return { url: `${origin}/reset/${token}`, expiresAt };
}
