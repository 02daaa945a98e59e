// Reading the audit log (decision 043): one museum's entries, newest first, filtered by day (in the
// museum's time zone, both days included), person and action, a page at a time (keyset on `at`, `id`).
import { offsetAt } from "~/lib/zoned-time";
import { and, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { articles, auditLog, folders, glossaryTerms, museums, qrcodes, users } from "~/db/schema";
import { notFound } from "~/errors";
import { actionsOf, AUDIT_PAGE_SIZE, type AuditQuery } from "./audit-input";

export interface AuditEntryView {
  id: number;
  /** Epoch ms. */
  at: number;
  /** The member's id (null: the system, or a failed login for an unknown address) and their address then. */
  actorId: number | null;
  actorEmail: string;
  action: string;
  /** "article:12", "folder:3", "user:5", … or "". */
  target: string;
  detail: Record<string, unknown>;
}

export interface AuditPage {
  timeZone: string;
  entries: AuditEntryView[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export async function museumTimeZone(db: Database, museumId: number): Promise<string> {
  const row = await db.select({ timeZone: museums.timezone }).from(museums).where(eq(museums.id, museumId)).get();
  if (!row) throw notFound("Museum");
  return row.timeZone;
}

/** The first instant of calendar day "YYYY-MM-DD" in `timeZone` (epoch ms), daylight saving included. */
export function dayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d);
  let guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  guess = midnightUtc - offsetAt(guess, timeZone);
  return guess;
}

/** The day after "YYYY-MM-DD". */
export function nextDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

type Filters = Pick<AuditQuery, "from" | "to" | "actor" | "action">;

function conditions(museumId: number, timeZone: string, filters: Filters): SQL[] {
  const where: SQL[] = [eq(auditLog.museumId, museumId)];
  if (filters.from) where.push(gte(auditLog.at, dayStart(filters.from, timeZone)));
  if (filters.to) where.push(lt(auditLog.at, dayStart(nextDay(filters.to), timeZone)));
  const actor = filters.actor;
  if (actor?.kind === "id") where.push(eq(auditLog.actorId, actor.id));
  if (actor?.kind === "system") where.push(and(isNull(auditLog.actorId), eq(auditLog.actorEmail, ""))!);
  // Addresses are stored lowercased (JavaScript's Unicode-aware lowercase; SQLite's lower() knows ASCII only).
  if (actor?.kind === "email") where.push(or(eq(auditLog.actorEmail, actor.email), sql`lower(${auditLog.actorEmail}) = ${actor.email}`)!);
  if (filters.action) where.push(inArray(auditLog.action, actionsOf(filters.action)));
  return where;
}

function parseDetail(stored: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(stored);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

async function page(db: Database, museumId: number, timeZone: string, filters: Filters, cursor: AuditQuery["cursor"], size: number) {
  const where = conditions(museumId, timeZone, filters);
  if (cursor) where.push(or(lt(auditLog.at, cursor.at), and(eq(auditLog.at, cursor.at), lt(auditLog.id, cursor.id)))!);
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(size + 1);
  const entries = rows.slice(0, size).map((r): AuditEntryView => ({
    id: r.id,
    at: r.at,
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    action: r.action,
    target: r.target,
    detail: parseDetail(r.detail),
  }));
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > size && last ? `${last.at}:${last.id}` : null };
}

/** One page of the museum's entries, newest first. */
export async function listAuditEntries(db: Database, museumId: number, query: AuditQuery): Promise<AuditPage> {
  const timeZone = await museumTimeZone(db, museumId);
  const result = await page(db, museumId, timeZone, query, query.cursor, query.limit ?? AUDIT_PAGE_SIZE);
  return { timeZone, ...result };
}

/** At most this many rows go in one CSV export; narrow the dates for more. */
export const AUDIT_CSV_MAX_ROWS = 100_000;
const CSV_CHUNK = 500;

/** Every matching entry (up to AUDIT_CSV_MAX_ROWS), newest first, read a chunk at a time. */
export async function* allAuditEntries(db: Database, museumId: number, timeZone: string, filters: Filters): AsyncGenerator<AuditEntryView[]> {
  let cursor: AuditQuery["cursor"];
  let sent = 0;
  while (sent < AUDIT_CSV_MAX_ROWS) {
    const result = await page(db, museumId, timeZone, filters, cursor, Math.min(CSV_CHUNK, AUDIT_CSV_MAX_ROWS - sent));
    if (result.entries.length > 0) yield result.entries;
    sent += result.entries.length;
    if (!result.nextCursor) return;
    const [at, id] = result.nextCursor.split(":").map(Number) as [number, number];
    cursor = { at, id };
  }
}

/** The people the person filter offers: today's members and anyone who ever acted in the museum. */
export async function auditPeople(db: Database, museumId: number): Promise<{ id: number | null; email: string }[]> {
  const [members, actors] = await Promise.all([
    db.select({ id: users.id, email: users.email }).from(users).where(eq(users.museumId, museumId)),
    db
      .selectDistinct({ id: auditLog.actorId, email: auditLog.actorEmail })
      .from(auditLog)
      .where(and(eq(auditLog.museumId, museumId), sql`${auditLog.actorId} IS NOT NULL`))
      .limit(500),
  ]);
  const byId = new Map<number, string>();
  for (const m of members) byId.set(m.id, m.email);
  for (const a of actors) if (a.id !== null && !byId.has(a.id)) byId.set(a.id, a.email);
  return [...byId].map(([id, email]) => ({ id, email })).sort((a, b) => a.email.localeCompare(b.email));
}

export interface TargetNow {
  /** The object's name today, for a link; absent when it no longer exists (or is in the trash). */
  name: string;
  /** For a QR code: its link; for an article: it is live. */
  link?: string;
}

/** What the entries' targets are called now, for those that still exist in this museum ("article:12" → name). */
export async function resolveTargets(db: Database, museumId: number, targets: readonly string[]): Promise<Record<string, TargetNow>> {
  const ids = (kind: string) =>
    [...new Set(targets.filter((t) => t.startsWith(`${kind}:`)).map((t) => Number(t.slice(kind.length + 1))))].filter(Number.isSafeInteger).slice(0, 90);
  const [articleIds, folderIds, qrIds, termIds, userIds] = ["article", "folder", "qrcode", "glossary", "user"].map(ids) as number[][];
  const none = Promise.resolve([] as { id: number; name: string }[]);
  const [a, f, q, g, u] = await Promise.all([
    articleIds!.length
      ? db
          .select({ id: articles.id, name: articles.unformattedName })
          .from(articles)
          .where(and(eq(articles.museumId, museumId), inArray(articles.id, articleIds!), isNull(articles.deletedAt)))
      : none,
    folderIds!.length
      ? db
          .select({ id: folders.id, name: folders.name })
          .from(folders)
          .where(and(eq(folders.museumId, museumId), inArray(folders.id, folderIds!), isNull(folders.deletedAt)))
      : none,
    qrIds!.length
      ? db
          .select({ id: qrcodes.id, name: qrcodes.link })
          .from(qrcodes)
          .where(and(eq(qrcodes.museumId, museumId), inArray(qrcodes.id, qrIds!)))
      : none,
    termIds!.length
      ? db
          .select({ id: glossaryTerms.id, name: glossaryTerms.term })
          .from(glossaryTerms)
          .where(and(eq(glossaryTerms.museumId, museumId), inArray(glossaryTerms.id, termIds!)))
      : none,
    userIds!.length
      ? db
          .select({ id: users.id, name: users.email })
          .from(users)
          .where(and(eq(users.museumId, museumId), inArray(users.id, userIds!)))
      : none,
  ]);
  const out: Record<string, TargetNow> = {};
  for (const [kind, rows] of [
    ["article", a],
    ["folder", f],
    ["qrcode", q],
    ["glossary", g],
    ["user", u],
  ] as const) {
    for (const row of rows) out[`${kind}:${row.id}`] = { name: row.name };
  }
  return out;
}
