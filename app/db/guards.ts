// One way to make a D1 batch all-or-nothing on a conditional write (decisions 041, 042): put
// `abortUnlessChanged` right after the guarded UPDATE. SQLite's `changes()` counts the rows of the connection's
// last INSERT, UPDATE or DELETE, which in a D1 batch is the previous statement; when it changed nothing
// (a parallel call won, the article was trashed meanwhile), `json('lost')` raises a malformed-JSON error and
// the whole batch rolls back, so the history row and the audit entry after it vanish with the write.

export const ABORT_UNLESS_CHANGED = "SELECT json(CASE WHEN changes() > 0 THEN '0' ELSE 'lost' END) AS guard";

export function abortUnlessChanged(d1: D1Database): D1PreparedStatement {
  return d1.prepare(ABORT_UNLESS_CHANGED);
}

/** Whether a batch failed on `abortUnlessChanged` (the error or one of its causes). */
export function lostRace(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && /malformed JSON/i.test(message)) return true;
  }
  return false;
}
