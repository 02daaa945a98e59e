// Operators' accounts (issue 33 §1, decision 146): a one-time setup link (password and authenticator), then sign-in
// with the password and a TOTP code or a recovery code, sessions of their own, and the operator audit log. All of it
// in the directory database: an operator belongs to no museum, and no museum table or session refers to one.
import type { Database } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { DomainError } from "~/errors";
import { hmacSha256Hex, randomToken, sha256Hex } from "~/lib/crypto";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { normalizeEmail } from "~/models/auth.server";
import { clearLoginFailures, refundLoginAttempt, reserveLoginAttempt } from "~/models/rate-limit.server";
import { verifyTotp } from "./totp";

/** An operator session lasts a working day, not a month: the console can close any museum. */
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** How long a setup link made by `npm run operator:create` stays valid. */
export const OPERATOR_SETUP_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RECOVERY_CODES = 10;

export interface Operator {
  id: number;
  email: string;
  sessionId: string;
}

export interface SetupInfo {
  email: string;
  secret: string;
}

/** A recovery code as shown: ten lowercase letters and digits in two groups ("k3f9a-7qx2m"), easy to read out. */
export function newRecoveryCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** A recovery code as typed: case, spaces and the dash do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

const recoveryHash = (code: string) => sha256Hex(`recovery:${normalizeRecoveryCode(code)}`);

/** The setup link's account, while the link is unused and unexpired; null otherwise (the page says it is not valid). */
export async function setupInfo(directory: Database, token: string, now = Date.now()): Promise<SetupInfo | null> {
  return directory.$client
    .prepare(
      `SELECT o.email AS email, o.totp_secret AS secret FROM operator_setup_tokens t JOIN operators o ON o.id = t.operator_id
       WHERE t.token_hash = ?1 AND t.used_at IS NULL AND t.expires_at > ?2`,
    )
    .bind(await sha256Hex(token), now)
    .first<SetupInfo>();
}

const linkInvalid = () => new DomainError("not_found", "This link was already used or is not valid", "token", "link_invalid");
const wrongCode = () => new DomainError("invalid_input", "This code is not the one your authenticator shows now", "code", "invalid");

/**
 * Follows the setup link: the code proves the authenticator holds the secret; then, in one transaction, the link is
 * spent (a second use, even at the same instant, is refused), the password set, ten recovery codes stored (their
 * hashes; the codes are returned once), a session opened and the enrolment audited.
 */
export async function completeSetup(
  directory: Database,
  token: string,
  input: { password: string; code: string },
  now = Date.now(),
): Promise<{ recoveryCodes: string[]; sessionToken: string; operator: { id: number; email: string } }> {
  const d1 = directory.$client;
  const tokenHash = await sha256Hex(token);
  const row = await d1
    .prepare(
      `SELECT o.id AS id, o.email AS email, o.totp_secret AS secret, o.totp_last_step AS lastStep FROM operator_setup_tokens t
       JOIN operators o ON o.id = t.operator_id WHERE t.token_hash = ?1 AND t.used_at IS NULL AND t.expires_at > ?2`,
    )
    .bind(tokenHash, now)
    .first<{ id: number; email: string; secret: string; lastStep: number }>();
  if (!row) throw linkInvalid();
  const step = await verifyTotp(row.secret, input.code, now, row.lastStep);
  if (step === null) throw wrongCode();
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const passwordHash = await hashPassword(input.password);
  const sessionToken = randomToken();
  try {
    await d1.batch([
      d1.prepare("UPDATE operator_setup_tokens SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2").bind(tokenHash, now),
      abortUnlessChanged(d1),
      d1.prepare("UPDATE operators SET password_hash = ?2, enrolled_at = ?3, totp_last_step = ?4 WHERE id = ?1").bind(row.id, passwordHash, now, step),
      // A setup link made again for an enrolled operator (a lost phone) replaces the old codes.
      d1.prepare("DELETE FROM operator_recovery_codes WHERE operator_id = ?1").bind(row.id),
      ...(await Promise.all(
        recoveryCodes.map(async (code) =>
          d1.prepare("INSERT INTO operator_recovery_codes (operator_id, code_hash) VALUES (?1, ?2)").bind(row.id, await recoveryHash(code)),
        ),
      )),
      sessionInsert(d1, row.id, await sha256Hex(sessionToken), now),
      auditInsert(d1, { id: row.id, email: row.email }, "operator.enrolled", null, {}, now),
    ]);
  } catch (error) {
    if (lostRace(error)) throw linkInvalid();
    throw error;
  }
  return { recoveryCodes, sessionToken, operator: { id: row.id, email: row.email } };
}

function sessionInsert(d1: D1Database, operatorId: number, sessionId: string, now: number) {
  return d1
    .prepare("INSERT INTO operator_sessions (id, operator_id, expires_at, created_at) VALUES (?1, ?2, ?3, ?4)")
    .bind(sessionId, operatorId, now + OPERATOR_SESSION_TTL_MS, now);
}

function auditInsert(d1: D1Database, operator: { id: number | null; email: string }, action: string, museumId: number | null, detail: object, now: number) {
  return d1
    .prepare("INSERT INTO operator_audit (at, operator_id, operator_email, museum_id, action, detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(now, operator.id, operator.email, museumId, action, JSON.stringify(detail));
}

/** Writes one operator action to the audit log. */
export async function auditOperator(
  directory: Database,
  operator: { id: number | null; email: string },
  action: string,
  museumId: number | null,
  detail: object = {},
  now = Date.now(),
) {
  await auditInsert(directory.$client, operator, action, museumId, detail, now).run();
}

export type OperatorLogin = { kind: "ok"; token: string; operator: { id: number; email: string } } | { kind: "invalid" };

/**
 * Signs an operator in: the directory's limiter first (10 attempts per address and per account each 15 minutes, as
 * staff), then the password, then the second factor: a TOTP code of a step not used before, or an unused recovery
 * code (spent by this sign-in). Any failure is the one answer `invalid`: nothing says which part was wrong.
 */
export async function operatorLogin(
  directory: Database,
  input: { email: string; password: string; code: string; clientAddress: string; secret: string },
  now = Date.now(),
): Promise<OperatorLogin> {
  const email = normalizeEmail(input.email);
  const [emailKey, addressKey] = await Promise.all([
    hmacSha256Hex(input.secret, `op-email:${email}`),
    hmacSha256Hex(input.secret, `op-addr:${input.clientAddress}`),
  ]);
  const keys = [`oe:${emailKey}`, `oa:${addressKey}`];
  const reservation = await reserveLoginAttempt(directory, keys, now);
  if (!reservation.allowed) throw new DomainError("rate_limited", "Too many attempts: try again later").withRetryAfter(reservation.retryAfter);
  const d1 = directory.$client;
  const row = await d1
    .prepare("SELECT id, email, password_hash AS passwordHash, totp_secret AS secret, totp_last_step AS lastStep FROM operators WHERE email = ?1")
    .bind(email)
    .first<{ id: number; email: string; passwordHash: string | null; secret: string; lastStep: number }>();
  const passwordOk = await verifyPassword(input.password, row?.passwordHash ?? null);
  if (!row || !passwordOk) return { kind: "invalid" };
  const typed = input.code.trim();
  const sessionToken = randomToken();
  const sessionId = await sha256Hex(sessionToken);
  const step = /^\d[\d\s]*$/.test(typed) ? await verifyTotp(row.secret, typed, now, row.lastStep) : null;
  try {
    if (step !== null) {
      // The step moves forward only: two sign-ins racing with the same code, one wins.
      await d1.batch([
        d1.prepare("UPDATE operators SET totp_last_step = ?2 WHERE id = ?1 AND totp_last_step < ?2").bind(row.id, step),
        abortUnlessChanged(d1),
        sessionInsert(d1, row.id, sessionId, now),
        auditInsert(d1, row, "operator.login", null, { factor: "totp" }, now),
      ]);
    } else {
      await d1.batch([
        d1
          .prepare("UPDATE operator_recovery_codes SET used_at = ?3 WHERE operator_id = ?1 AND code_hash = ?2 AND used_at IS NULL")
          .bind(row.id, await recoveryHash(typed), now),
        abortUnlessChanged(d1),
        sessionInsert(d1, row.id, sessionId, now),
        auditInsert(d1, row, "operator.login", null, { factor: "recovery_code" }, now),
      ]);
    }
  } catch (error) {
    if (lostRace(error)) return { kind: "invalid" };
    throw error;
  }
  await refundLoginAttempt(directory, [keys[1]!]);
  await clearLoginFailures(directory, keys[0]!);
  await d1.prepare("DELETE FROM operator_sessions WHERE expires_at <= ?1").bind(now).run();
  return { kind: "ok", token: sessionToken, operator: { id: row.id, email: row.email } };
}

/** The operator a session cookie's token names, while it lasts. */
export async function findOperator(directory: Database, token: string, now = Date.now()): Promise<Operator | null> {
  const sessionId = await sha256Hex(token);
  const row = await directory.$client
    .prepare(
      `SELECT o.id AS id, o.email AS email FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
       WHERE s.id = ?1 AND s.expires_at > ?2 AND o.enrolled_at IS NOT NULL`,
    )
    .bind(sessionId, now)
    .first<{ id: number; email: string }>();
  return row ? { ...row, sessionId } : null;
}

export async function endOperatorSession(directory: Database, operator: Operator, now = Date.now()) {
  const d1 = directory.$client;
  await d1.batch([
    d1.prepare("DELETE FROM operator_sessions WHERE id = ?1").bind(operator.sessionId),
    auditInsert(d1, operator, "operator.logout", null, {}, now),
  ]);
}

export interface AuditEntry {
  id: number;
  at: number;
  operatorEmail: string;
  museumId: number | null;
  action: string;
  detail: string;
}

/** The operator audit log, newest first (`limit` rows; the CSV export takes them all, a page at a time). */
export async function operatorAudit(directory: Database, { before, limit }: { before?: number; limit: number }): Promise<AuditEntry[]> {
  const { results } = await directory.$client
    .prepare(
      `SELECT id, at, operator_email AS operatorEmail, museum_id AS museumId, action, detail FROM operator_audit
       WHERE id < ?1 ORDER BY id DESC LIMIT ?2`,
    )
    .bind(before ?? Number.MAX_SAFE_INTEGER, limit)
    .all<AuditEntry>();
  return results;
}
