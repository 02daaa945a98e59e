/**
 * The monthly bound on what a museum's generated narrations cost (decision 105): characters sent to speech
 * engines per museum and calendar month (UTC), counted in `narration_spend` in the same D1 batch that takes
 * a generation's claim, so parallel claims can never overshoot the bound. A failed run gives its
 * characters back; a stored, overtaken or interrupted one keeps them (they reached an engine).
 */
import { ConfigError } from "~/config.server";
import type { Database } from "~/db/client.server";

/** The deployment's default bound: 2 million characters a museum a month (decision 105 prices it). */
export const NARRATION_MONTHLY_CHARS_DEFAULT = 2_000_000;
/** Beyond this a setting is surely a typo (10⁹ characters ≈ $16,000 a month at Google WaveNet's rate). */
const MONTHLY_CHARS_MAX = 1_000_000_000;

/**
 * `NARRATION_MONTHLY_CHARS` from wrangler.toml's [vars]: a whole number of characters, 0 = no generated
 * narration at all. Absent or empty: the default. Anything else is a ConfigError, like a speech engine
 * missing its key (the deployment is wrong, and says so in its logs).
 */
export function monthlyCharsFrom(env: Record<string, unknown>): number {
  const raw = env.NARRATION_MONTHLY_CHARS;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return NARRATION_MONTHLY_CHARS_DEFAULT;
  const text = String(raw).trim().replace(/_/g, "");
  if (!/^\d{1,10}$/.test(text) || Number(text) > MONTHLY_CHARS_MAX) {
    throw new ConfigError(
      `NARRATION_MONTHLY_CHARS must be a whole number of characters from 0 to ${MONTHLY_CHARS_MAX} (got ${JSON.stringify(String(raw).slice(0, 40))})`,
    );
  }
  return Number(text);
}

/** What a text costs against the bound: its Unicode code points (what Google and OpenAI bill, near enough). */
export function chargedChars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The calendar month (UTC) a time falls in, as stored: 'YYYY-MM'. */
export const spendMonth = (now: number) => new Date(now).toISOString().slice(0, 7);

/** When the month of `now` ends (UTC): the bound starts again from zero then. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

export interface NarrationBudget {
  month: string;
  used: number;
  limit: number;
  /** When the count starts again (ms, start of next month UTC). */
  resetsAt: number;
}

/**
 * The museum's count this month against its bound (staff's narration panel): the museum's own bound when an
 * operator set one (decision 148), `limit` (the deployment's) otherwise.
 */
export async function readBudget(db: Database, museumId: number, limit: number, now = Date.now()): Promise<NarrationBudget> {
  const month = spendMonth(now);
  const row = await db.$client
    .prepare(
      `SELECT (SELECT chars FROM narration_spend WHERE museum_id = ?1 AND month = ?2) AS used,
         (SELECT narration_monthly_chars FROM museums WHERE id = ?1) AS bound`,
    )
    .bind(museumId, month)
    .first<{ used: number | null; bound: number | null }>();
  return { month, used: row?.used ?? 0, limit: row?.bound ?? limit, resetsAt: nextMonthStart(now) };
}

/** Gives back what a run that made nothing had counted (never below zero). */
export async function refundChars(db: Database, museumId: number, month: string, chars: number): Promise<void> {
  if (chars <= 0) return;
  await db.$client.prepare("UPDATE narration_spend SET chars = max(0, chars - ?3) WHERE museum_id = ?1 AND month = ?2").bind(museumId, month, chars).run();
}
