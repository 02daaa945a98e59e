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
