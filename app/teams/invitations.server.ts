// Following a link an admin made (issue 18, decision 044): an invitation (choose a password, become a
// member) or a password reset (choose a new one). The token is looked up by its SHA-256 only (the table
// holds no token; an equal hash is the constant-time comparison), claimed in the same D1 batch (one
// transaction) that creates the account or changes the password, so 50 parallel uses of one link make one
// account. Guesses are limited per client network.
import type { Database } from "~/db/client.server";
import { DomainError, isUniqueViolation } from "~/errors";
import { constantTimeEqual, hmacSha256Hex, randomToken, sha256Hex } from "~/lib/crypto";
import { clientNetwork } from "~/lib/network";
import { hashPassword } from "~/lib/password.server";
import { refundLoginAttempt, reserveAttempt } from "~/models/rate-limit.server";
import { SESSION_TTL_MS } from "~/models/auth.server";
import { conditionalAudit } from "./audit-sql.server";
import { TOKEN_PATTERN } from "./member-input";
import { claimAccount, releaseAccount } from "~/shards/directory.server";
import { museumToken } from "~/shards/keys";
import { parseLanguages, type Role } from "./roles";

export type LinkKind = "invitation" | "password_reset";

/** Link lookups per client network and 15 minutes that may name no link (known links give theirs back). */
export const LINK_GUESS_MAX = 20;

export type LinkState =
  | {
      state: "valid";
      id: number;
      museumId: number;
      museumName: string;
      timeZone: string;
      email: string;
      role: Role;
      languages: string[];
      userId: number | null;
      expiresAt: number;
    }
  | { state: "invalid" | "expired" | "revoked" };

const USER_AGENT_MAX = 300;

async function guessKey(secret: string, address: string): Promise<string> {
  return `l:${await hmacSha256Hex(secret, `link:${clientNetwork(address)}`)}`;
}

/**
 * Looks a link up, counting the lookup against the client network's budget (429 past it); a link that
 * exists (whatever its state) gives its attempt back, so only guesses use the budget up.
 * Unknown and used links read the same (`invalid`): neither says whether an address has an account.
 */
export async function lookUpLink(
  db: Database,
  kind: LinkKind,
  token: string,
  client: { address: string; secret: string },
  now = Date.now(),
): Promise<LinkState> {
  const key = await guessKey(client.secret, client.address);
  const reservation = await reserveAttempt(db, [key], now, LINK_GUESS_MAX);
  if (!reservation.allowed)
    throw new DomainError("rate_limited", "Too many links tried from this network, try again later").withRetryAfter(reservation.retryAfter);
  if (!TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const hash = await sha256Hex(token);
  const row = await db.$client
    .prepare(
      `SELECT t.id, t.museum_id, m.name AS museum_name, m.timezone AS museum_timezone, t.token_hash, t.email, t.role, t.languages, t.user_id, t.expires_at, t.used_at, t.revoked_at
       FROM member_tokens t JOIN museums m ON m.id = t.museum_id WHERE t.token_hash = ?1 AND t.kind = ?2`,
    )
    .bind(hash, kind)
    .first<{
      id: number;
      museum_id: number;
      museum_name: string;
      museum_timezone: string;
      token_hash: string;
      email: string;
      role: Role;
      languages: string;
      user_id: number | null;
      expires_at: number;
      used_at: number | null;
      revoked_at: number | null;
    }>();
  // The lookup is by hash; the comparison below is belt and braces, in constant time.
  if (!row || !constantTimeEqual(new TextEncoder().encode(row.token_hash), new TextEncoder().encode(hash))) return { state: "invalid" };
  await refundLoginAttempt(db, [key]);
  if (row.used_at !== null) return { state: "invalid" };
  if (row.revoked_at !== null) return { state: "revoked" };
  if (row.expires_at <= now) return { state: "expired" };
  return {
    state: "valid",
    id: row.id,
    museumId: row.museum_id,
    museumName: row.museum_name,
    timeZone: row.museum_timezone,
    email: row.email,
    role: row.role,
    languages: parseLanguages(row.languages),
    userId: row.user_id,
    expiresAt: row.expires_at,
  };
}

/** The refusal for a link that cannot be used: 404 `token` with the reason the page says. */
export function linkRefusal(state: "invalid" | "expired" | "revoked"): DomainError {
  const reason = state === "expired" ? "link_expired" : state === "revoked" ? "link_revoked" : "link_invalid";
  const message =
    state === "expired" ? "This link has expired" : state === "revoked" ? "This link was withdrawn" : "This link was already used or is not valid";
  return new DomainError("not_found", message, "token", reason);
}

export interface LinkSession {
  token: string;
  expiresAt: number;
  user: { id: number; email: string; museumId: number; role: Role; languages: string[] };
}

const CLAIMABLE = "t.token_hash = ? AND t.kind = ? AND t.used_at IS NULL AND t.revoked_at IS NULL AND t.expires_at > ?";

/**
 * Accepts an invitation: creates the account with the invitation's role and languages, marks the link used
 * and opens a session, in one batch. The password hash (random salt) names this request's own row, so the
 * statements after the INSERT act only when it was this request that claimed the link.
 */
export async function acceptInvitation(
  db: Database,
  directory: Database,
  token: string,
  input: { password: string; userAgent: string; client: { address: string; secret: string } },
  now = Date.now(),
): Promise<LinkSession> {
  const link = await lookUpLink(db, "invitation", token, input.client, now);
  if (link.state !== "valid") throw linkRefusal(link.state);
  const d1 = db.$client;
  const hash = await sha256Hex(token);
  const passwordHash = await hashPassword(input.password);
  const session = museumToken(link.museumId, randomToken());
  // An address joins one museum, whichever shard it is on: the directory claims it first (decision 142).
  if (!(await claimAccount(directory.$client, link.museumId, link.email))) throw alreadyMember();
  const sessionExpiresAt = now + SESSION_TTL_MS;
  const mine = "u.email = ? AND u.password_hash = ?";
  let results: D1Result[];
  try {
    results = await d1.batch([
      d1
        .prepare(
          `INSERT INTO users (museum_id, email, password_hash, role, languages, last_active_at, created_at)
           SELECT t.museum_id, t.email, ?, t.role, t.languages, ?, ? FROM member_tokens t WHERE ${CLAIMABLE} RETURNING id`,
        )
        .bind(passwordHash, now, now, hash, "invitation", now),
      d1
        .prepare(
          `UPDATE member_tokens AS t SET used_at = ?, user_id = (SELECT u.id FROM users u WHERE ${mine})
           WHERE ${CLAIMABLE} AND EXISTS (SELECT 1 FROM users u WHERE ${mine})`,
        )
        .bind(now, link.email, passwordHash, hash, "invitation", now, link.email, passwordHash),
      d1
        .prepare(
          `INSERT INTO sessions (id, user_id, expires_at, created_at, user_agent, last_seen_at)
           SELECT ?, u.id, ?, ?, ?, ? FROM users u WHERE ${mine}`,
        )
        .bind(await sha256Hex(session), sessionExpiresAt, now, input.userAgent.slice(0, USER_AGENT_MAX), now, link.email, passwordHash),
      conditionalAudit(
        d1,
        {
          museumId: { sql: "u.museum_id" },
          actorId: { sql: "u.id" },
          actorEmail: { sql: "u.email" },
          action: "member.join",
          target: { sql: "'user:' || u.id" },
          detail: { sql: "json_object('role', u.role, 'languages', json(u.languages), 'invitation', ?)", binds: [link.id] },
          at: now,
        },
        "users u",
        mine,
        [link.email, passwordHash],
      ),
    ]);
  } catch (error) {
    await releaseUnused(db, directory, link.museumId, link.email);
    if (isUniqueViolation(error)) throw alreadyMember();
    throw error;
  }
  const created = results[0]?.results[0] as { id: number } | undefined;
  if (!created) {
    await releaseUnused(db, directory, link.museumId, link.email);
    throw linkRefusal("invalid");
  }
  return {
    token: session,
    expiresAt: sessionExpiresAt,
    user: { id: created.id, email: link.email, museumId: link.museumId, role: link.role, languages: link.languages },
  };
}

const alreadyMember = () => new DomainError("conflict", "This address already has an account", "email", "already_member");

/** Gives the address back to the directory when joining failed and no member of the museum has it. */
async function releaseUnused(db: Database, directory: Database, museumId: number, email: string) {
  const member = await db.$client.prepare("SELECT 1 FROM users WHERE email = ?").bind(email).first();
  if (!member) await releaseAccount(directory.$client, museumId, email);
}

/**
 * Follows a reset link: the new password replaces the old, every session of the user ends and a new one
 * opens, the link is marked used; one batch, acting only if this request changed the password.
 */
export async function resetPasswordWithLink(
  db: Database,
  token: string,
  input: { password: string; userAgent: string; client: { address: string; secret: string } },
  now = Date.now(),
): Promise<LinkSession> {
  const link = await lookUpLink(db, "password_reset", token, input.client, now);
  if (link.state !== "valid" || link.userId === null) throw linkRefusal(link.state === "valid" ? "invalid" : link.state);
  const d1 = db.$client;
  const hash = await sha256Hex(token);
  const passwordHash = await hashPassword(input.password);
  const session = museumToken(link.museumId, randomToken());
  const sessionExpiresAt = now + SESSION_TTL_MS;
  const userId = link.userId;
  const mine = "u.id = ? AND u.password_hash = ?";
  const results = await d1.batch([
    d1
      .prepare(
        `UPDATE users SET password_hash = ? WHERE id = (SELECT t.user_id FROM member_tokens t WHERE ${CLAIMABLE}) RETURNING id, email, museum_id, role, languages`,
      )
      .bind(passwordHash, hash, "password_reset", now),
    d1
      .prepare(`UPDATE member_tokens AS t SET used_at = ? WHERE ${CLAIMABLE} AND EXISTS (SELECT 1 FROM users u WHERE ${mine})`)
      .bind(now, hash, "password_reset", now, userId, passwordHash),
    d1.prepare(`DELETE FROM sessions WHERE user_id = ? AND EXISTS (SELECT 1 FROM users u WHERE ${mine})`).bind(userId, userId, passwordHash),
    d1
      .prepare(`INSERT INTO sessions (id, user_id, expires_at, created_at, user_agent, last_seen_at) SELECT ?, u.id, ?, ?, ?, ? FROM users u WHERE ${mine}`)
      .bind(await sha256Hex(session), sessionExpiresAt, now, input.userAgent.slice(0, USER_AGENT_MAX), now, userId, passwordHash),
    conditionalAudit(
      d1,
      {
        museumId: { sql: "u.museum_id" },
        actorId: { sql: "u.id" },
        actorEmail: { sql: "u.email" },
        action: "member.password_reset",
        target: { sql: "'user:' || u.id" },
        detail: {},
        at: now,
      },
      "users u",
      mine,
      [userId, passwordHash],
    ),
  ]);
  const changed = results[0]?.results[0] as { id: number; email: string; museum_id: number; role: Role; languages: string } | undefined;
  if (!changed) throw linkRefusal("invalid");
  return {
    token: session,
    expiresAt: sessionExpiresAt,
    user: { id: changed.id, email: changed.email, museumId: changed.museum_id, role: changed.role, languages: parseLanguages(changed.languages) },
  };
}
