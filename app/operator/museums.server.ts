// An operator creates a museum (issue 33 §3, decision 146): its row in the directory (a unique slug, the shard
// with the most room or the one named), its row on that shard, and an invitation link for its first admin (the team's
// own links, valid 7 days, shown once). Nothing of the museum's content is touched: the admin builds it.
import { z } from "zod";
import { createDb } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { conflict, DomainError, isUniqueViolation } from "~/errors";
import { publishVisitorChanges } from "~/visitor-cache/snapshot.server";
import { museumSettingsSchema } from "~/models/museums.server";
import { normalizeEmail } from "~/models/auth.server";
import { museumOfAccount } from "~/shards/directory.server";
import { inviteMember } from "~/teams/members.server";
import { auditOperator, type Operator } from "./accounts.server";
import type { Database } from "~/db/client.server";
import { refuseClosed } from "~/closing/state.server";

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;

export const newMuseumSchema = museumSettingsSchema.extend({
  slug: z.string().trim().regex(SLUG_PATTERN, "invalid"),
  shard: z.union([z.literal("auto"), z.coerce.number().int().min(0).max(511)]),
  /** Its data kept in the EU (decision 149): an EU shard, its files in the EU bucket. */
  eu: z.boolean().default(false),
  adminEmail: z
    .string()
    .trim()
    .max(254, "too_long")
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "invalid")
    .transform(normalizeEmail),
});
export type NewMuseum = z.infer<typeof newMuseumSchema>;

/** The shard with the most room: the smallest as last measured, a shard never measured first (it is new). */
export async function roomiestShard(directory: D1Database, shards: readonly number[]): Promise<number> {
  const { results } = await directory.prepare("SELECT shard, bytes FROM shards").all<{ shard: number; bytes: number }>();
  const size = new Map(results.map((r) => [r.shard, r.bytes]));
  return [...shards].sort((a, b) => (size.get(a) ?? -1) - (size.get(b) ?? -1) || a - b)[0]!;
}

/**
 * An address with an invitation still open in another museum could join only one of them: the other museum would be
 * left without its first admin (a fresh-eyes probe found it). Checked on every shard; `museumId`'s own pending
 * invitations do not count (a new link replaces them).
 */
async function refuseInvitedElsewhere(shards: ReadonlyMap<number, D1Database>, email: string, museumId: number | null, now: number) {
  const invited = await Promise.all(
    [...shards.values()].map((d1) =>
      d1
        .prepare(
          `SELECT 1 FROM member_tokens WHERE email = ?1 AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?2
           AND (?3 IS NULL OR museum_id != ?3) LIMIT 1`,
        )
        .bind(email, now, museumId)
        .first(),
    ),
  );
  if (invited.some((row) => row !== null)) throw conflict("adminEmail", "This address already has a pending invitation to a museum", "already_invited");
}

/**
 * A new invitation link for a museum's admin (issue 33 §3): the first one expired unused (7 days), or went to the
 * wrong address. Shown once; it replaces that address's pending invitation to this museum. Refused for a closed
 * museum, an address with an account, or one invited to another museum.
 */
export async function inviteAdminAsOperator(
  env: { directory: Database; shards: ReadonlyMap<number, D1Database> },
  operator: Operator,
  museumId: number,
  rawEmail: unknown,
  origin: string,
  now = Date.now(),
): Promise<{ invitationUrl: string; expiresAt: number; email: string }> {
  const parsed = newMuseumSchema.shape.adminEmail.safeParse(typeof rawEmail === "string" ? rawEmail : "");
  if (!parsed.success) throw new DomainError("invalid_input", "adminEmail must be an e-mail address", "adminEmail", "invalid");
  const email = parsed.data;
  const row = await env.directory.$client.prepare("SELECT shard FROM museums WHERE id = ?1").bind(museumId).first<{ shard: number }>();
  const shard = row ? env.shards.get(row.shard) : undefined;
  if (!row || !shard) throw museumGone();
  await refuseClosed(shard, museumId);
  if ((await museumOfAccount(env.directory.$client, email)) !== null)
    throw conflict("adminEmail", "This address already has an account in a museum", "already_member");
  await refuseInvitedElsewhere(env.shards, email, museumId, now);
  const invitation = await inviteMember(
    createDb(shard),
    env.directory,
    { id: null, email: operator.email, museumId },
    { email, role: "admin", languages: [] },
    origin,
    now,
  );
  await auditOperator(env.directory, operator, "museum.invite_admin", museumId, { adminEmail: email }, now);
  return { invitationUrl: invitation.invitationUrl, expiresAt: invitation.expiresAt, email };
}

export async function createMuseumAsOperator(
  env: { directory: Database; shards: ReadonlyMap<number, D1Database>; euShards: ReadonlySet<number> },
  operator: Operator,
  input: NewMuseum,
  origin: string,
  now = Date.now(),
): Promise<{ museumId: number; shard: number; invitationUrl: string; expiresAt: number }> {
  const directory = env.directory.$client;
  // The shards of the location asked: the EU ones for a museum kept in the EU, the others otherwise.
  const candidates = [...env.shards.keys()].filter((k) => env.euShards.has(k) === input.eu);
  if (candidates.length === 0) throw new DomainError("invalid_input", "This deployment has no shard in the EU jurisdiction", "eu", "invalid");
  const shard = input.shard === "auto" ? await roomiestShard(directory, candidates) : input.shard;
  const shardD1 = env.shards.get(shard);
  if (!shardD1) throw new DomainError("invalid_input", `There is no shard ${shard}`, "shard", "invalid");
  if (!candidates.includes(shard))
    throw new DomainError("invalid_input", `Shard ${shard} is ${input.eu ? "not" : ""} in the EU jurisdiction`.replace("  ", " "), "shard", "invalid");
  if ((await museumOfAccount(directory, input.adminEmail)) !== null)
    throw conflict("adminEmail", "This address already has an account in a museum", "already_member");
  await refuseInvitedElsewhere(env.shards, input.adminEmail, null, now);
  let museumId: number;
  try {
    const row = await directory
      .prepare("INSERT INTO museums (slug, shard, jurisdiction) VALUES (?1, ?2, ?3) RETURNING id")
      .bind(input.slug, shard, input.eu ? "eu" : "")
      .first<{ id: number }>();
    museumId = row!.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("slug", "This address is taken by another museum");
    throw error;
  }
  const db = createDb(shardD1);
  try {
    await shardD1
      .prepare("INSERT INTO museums (id, name, slug, source_lang, timezone, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(museumId, input.name, input.slug, input.sourceLang, input.timezone, now)
      .run();
    const invitation = await inviteMember(
      db,
      env.directory,
      { id: null, email: operator.email, museumId },
      { email: input.adminEmail, role: "admin", languages: [] },
      origin,
      now,
    );
    await auditOperator(env.directory, operator, "museum.create", museumId, { slug: input.slug, shard, eu: input.eu, adminEmail: input.adminEmail }, now);
    return { museumId, shard, invitationUrl: invitation.invitationUrl, expiresAt: invitation.expiresAt };
  } catch (error) {
    // Nothing half made: the shard's row (and what hangs off it) and the directory's go together.
    await shardD1.prepare("DELETE FROM museums WHERE id = ?1").bind(museumId).run();
    await directory.prepare("DELETE FROM museums WHERE id = ?1").bind(museumId).run();
    throw error;
  }
}

const museumGone = () => new DomainError("not_found", "No museum has this id", "id", undefined);

/**
 * Suspends a museum (decision 147): on its shard, `suspended_at` is set (its visitor pages say the guide is paused,
 * through the visitor-change stamp the museums row's trigger moves) and its members' sessions end, in one transaction.
 * Resumes it: `suspended_at` cleared. Nothing is deleted either way. A museum being moved, or already in the state
 * asked (another operator was first), is a 409.
 */
export async function setSuspended(
  env: { directory: Database; shards: ReadonlyMap<number, D1Database>; kv: KVNamespace },
  operator: Operator,
  museumId: number,
  suspend: boolean,
  now = Date.now(),
): Promise<{ museumId: number; suspended: boolean }> {
  const row = await env.directory.$client.prepare("SELECT shard, state FROM museums WHERE id = ?1").bind(museumId).first<{ shard: number; state: string }>();
  const shard = row ? env.shards.get(row.shard) : undefined;
  if (!row || !shard) throw museumGone();
  if (row.state !== "active") throw conflict("museum", "This museum is being moved: try again when the move is over", "museum_moving");
  const db = createDb(shard);
  const d1 = db.$client;
  try {
    await d1.batch([
      suspend
        ? d1.prepare("UPDATE museums SET suspended_at = ?2 WHERE id = ?1 AND suspended_at IS NULL AND closed_at IS NULL").bind(museumId, now)
        : // A closed museum stays out of sight (decision 148): reopen it first.
          d1.prepare("UPDATE museums SET suspended_at = NULL WHERE id = ?1 AND suspended_at IS NOT NULL AND closed_at IS NULL").bind(museumId),
      abortUnlessChanged(d1),
      ...(suspend ? [d1.prepare("DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE museum_id = ?1)").bind(museumId)] : []),
    ]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    const exists = await d1.prepare("SELECT closed_at AS closedAt FROM museums WHERE id = ?1").bind(museumId).first<{ closedAt: number | null }>();
    if (!exists) throw museumGone();
    if (exists.closedAt !== null) throw conflict("museum", "This museum is closed: reopen it first", "museum_closed");
    throw conflict("museum", suspend ? "This museum is already suspended" : "This museum is not suspended", suspend ? "museum_suspended" : "invalid");
  }
  // Visitors' cached pages of the museum follow at once: the stamp its museums row's trigger moved is published now.
  await publishVisitorChanges(db, env.kv);
  await auditOperator(env.directory, operator, suspend ? "museum.suspend" : "museum.resume", museumId, {}, now);
  return { museumId, suspended: suspend };
}
