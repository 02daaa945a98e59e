import { and, gt, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { loginAttempts } from "~/db/schema";

export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

/** Seconds until the first of `keys` that has used up its failures may try again, or null. */
export async function loginRetryAfter(db: Database, keys: string[], now: number): Promise<number | null> {
  const rows = await db
    .select({ windowStart: loginAttempts.windowStart })
    .from(loginAttempts)
    .where(
      and(
        inArray(loginAttempts.key, keys),
        gt(loginAttempts.windowStart, now - LOGIN_WINDOW_MS),
        gte(loginAttempts.count, LOGIN_MAX_FAILURES),
      ),
    );
  if (rows.length === 0) return null;
  const until = Math.max(...rows.map((r) => r.windowStart + LOGIN_WINDOW_MS));
  return Math.max(1, Math.ceil((until - now) / 1000));
}

/** Counts one failure against each key in a fixed 15-minute window that starts at its first failure. */
export async function recordLoginFailure(db: Database, keys: string[], now: number): Promise<void> {
  const expired = now - LOGIN_WINDOW_MS;
  await db.batch([
    db.delete(loginAttempts).where(lt(loginAttempts.windowStart, expired)),
    ...keys.map((key) =>
      db
        .insert(loginAttempts)
        .values({ key, windowStart: now, count: 1 })
        .onConflictDoUpdate({
          target: loginAttempts.key,
          set: {
            count: sql`case when ${loginAttempts.windowStart} <= ${expired} then 1 else ${loginAttempts.count} + 1 end`,
            windowStart: sql`case when ${loginAttempts.windowStart} <= ${expired} then ${now} else ${loginAttempts.windowStart} end`,
          },
        }),
    ),
  ]);
}

export async function clearLoginFailures(db: Database, key: string): Promise<void> {
  await db.delete(loginAttempts).where(inArray(loginAttempts.key, [key]));
}
