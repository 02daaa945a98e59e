import { inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { loginAttempts } from "~/db/schema";

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type Reservation = { allowed: true } | { allowed: false; retryAfter: number };

/**
 * Takes one attempt from each key's budget before the password is checked, in one batch (one
 * transaction): of 50 parallel guesses exactly the first 10 reach the check, whatever the interleaving.
 * A fixed 15-minute window starts at a key's first attempt. A successful check gives the attempt back.
 */
export function reserveLoginAttempt(db: Database, keys: string[], now: number): Promise<Reservation> {
  return reserveAttempt(db, keys, now, LOGIN_MAX_FAILURES);
}

/**
 * The same budget for any other action: `max` attempts per key in a fixed 15-minute window (one window
 * length for every key, so the expiry sweep below never cuts another limiter's window short).
 */
export async function reserveAttempt(db: Database, keys: string[], now: number, max: number): Promise<Reservation> {
  const d1 = db.$client;
  const expired = now - LOGIN_WINDOW_MS;
  const [, ...rows] = await d1.batch<{ count: number; window_start: number }>([
    d1.prepare("DELETE FROM login_attempts WHERE window_start <= ?1").bind(expired),
    ...keys.map((key) =>
      d1
        .prepare(
          `INSERT INTO login_attempts (key, window_start, count) VALUES (?1, ?2, 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN window_start <= ?3 THEN 1 ELSE count + 1 END,
             window_start = CASE WHEN window_start <= ?3 THEN ?2 ELSE window_start END
           RETURNING count, window_start`,
        )
        .bind(key, now, expired),
    ),
  ]);
  const over = rows.map((r) => r.results[0]).filter((r) => r !== undefined && r.count > max);
  if (over.length === 0) return { allowed: true };
  const until = Math.max(...over.map((r) => r!.window_start + LOGIN_WINDOW_MS));
  return { allowed: false, retryAfter: Math.max(1, Math.ceil((until - now) / 1000)) };
}

/** Gives back the attempts a correct password took, so staff sharing an address are not locked out. */
export async function refundLoginAttempt(db: Database, keys: string[]): Promise<void> {
  await db
    .update(loginAttempts)
    .set({ count: sql`max(${loginAttempts.count} - 1, 0)` })
    .where(inArray(loginAttempts.key, keys));
}

export async function clearLoginFailures(db: Database, key: string): Promise<void> {
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [key]));
}

/** The eight 16-bit groups of an IPv6 address (with `::`, an embedded IPv4 tail, a zone), or null. */
function ipv6Groups(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!/^[0-9a-f:.]+$/i.test(address) || address.split("::").length > 2) return null;
  const toGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (const [i, piece] of pieces.entries()) {
      const v4 = i === pieces.length - 1 ? ipv4Octets(piece) : null;
      if (v4) out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const [head, tail] = address.split("::");
  const front = toGroups(head!);
  const back = tail === undefined ? [] : toGroups(tail);
  if (!front || !back) return null;
  if (tail === undefined) return front.length === 8 ? front : null;
  const missing = 8 - front.length - back.length;
  return missing >= 1 ? [...front, ...Array<number>(missing).fill(0), ...back] : null;
}

function ipv4Octets(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/**
 * The network a client address is limited as (decision 034): an IPv4 address as it is, an IPv6 address
 * by its /64 (one subscriber's usual allocation, through which a client can rotate at will), an
 * IPv4-mapped IPv6 address as its IPv4 address. Anything else (no address locally) as given.
 */
export function addressBlock(address: string): string {
  const text = address.trim().toLowerCase();
  const v4 = ipv4Octets(text);
  if (v4) return v4.join(".");
  const groups = ipv6Groups(text);
  if (!groups) return text.slice(0, 64);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(":")}::/64`;
}
