/**
 * What each museum asks of the engines (decision 148): characters and calls per museum, UTC month, kind of work
 * and engine, in `engine_usage`, for the operator's console and its cost estimate; and the museum's monthly
 * translation bound, counted in `translation_spend` before an engine is called, so parallel first views never
 * overshoot it. At the bound visitors read the original text (never an error) and staff are told why.
 */
import { ConfigError } from "~/config.server";
import { sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { engineUsage } from "~/db/schema";
import { chargedChars, spendMonth } from "~/narration/budget.server";

export type UsageKind = "translation" | "narration" | "easy_read" | "questions";

/** The deployment's default translation bound: 20 million characters a museum a month (docs/scaling.md §4 prices it). */
export const TRANSLATION_MONTHLY_CHARS_DEFAULT = 20_000_000;
/** Beyond this a bound is surely a typo (10⁹ characters ≈ €20,000 a month with DeepL). */
export const MONTHLY_CHARS_MAX = 1_000_000_000;

/**
 * `TRANSLATION_MONTHLY_CHARS` from wrangler.toml's [vars]: a whole number of characters (0 = visitors read only
 * the original and what staff translated). Absent or empty: the default. Anything else is a ConfigError.
 */
export function translationMonthlyCharsFrom(env: Record<string, unknown>): number {
  const raw = env.TRANSLATION_MONTHLY_CHARS;
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "")) return TRANSLATION_MONTHLY_CHARS_DEFAULT;
  const text = String(raw).trim().replace(/_/g, "");
  if (!/^\d{1,10}$/.test(text) || Number(text) > MONTHLY_CHARS_MAX)
    throw new ConfigError(
      `TRANSLATION_MONTHLY_CHARS must be a whole number of characters from 0 to ${MONTHLY_CHARS_MAX} (got ${JSON.stringify(String(raw).slice(0, 40))})`,
    );
  return Number(text);
}

/** One engine's work added to the museum's month: an upsert, to run in the batch that stores its result. */
export function usageStatement(
  d1: D1Database,
  use: { museumId: number; kind: UsageKind; engine: string; chars: number; calls?: number; now?: number },
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO engine_usage (museum_id, month, kind, engine, chars, calls) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (museum_id, month, kind, engine) DO UPDATE SET chars = engine_usage.chars + excluded.chars, calls = engine_usage.calls + excluded.calls`,
    )
    .bind(use.museumId, spendMonth(use.now ?? Date.now()), use.kind, use.engine, Math.max(0, use.chars), use.calls ?? 1);
}

/** The same upsert as a drizzle statement, for batches of drizzle statements (the translation memory's write). */
export function usageInsert(db: Database, use: { museumId: number; kind: UsageKind; engine: string; chars: number; calls?: number; now?: number }) {
  return db
    .insert(engineUsage)
    .values({
      museumId: use.museumId,
      month: spendMonth(use.now ?? Date.now()),
      kind: use.kind,
      engine: use.engine,
      chars: Math.max(0, use.chars),
      calls: use.calls ?? 1,
    })
    .onConflictDoUpdate({
      target: [engineUsage.museumId, engineUsage.month, engineUsage.kind, engineUsage.engine],
      set: { chars: sql`${engineUsage.chars} + excluded.chars`, calls: sql`${engineUsage.calls} + excluded.calls` },
    });
}

/** Records engine use outside any other write (a failure here never fails the work it counts). */
export async function recordUsage(d1: D1Database, uses: readonly Parameters<typeof usageStatement>[1][]): Promise<void> {
  const statements = uses.filter((use) => use.chars > 0 || (use.calls ?? 1) > 0).map((use) => usageStatement(d1, use));
  if (statements.length === 0) return;
  try {
    await d1.batch(statements);
  } catch (error) {
    console.warn(`engine use not recorded: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The characters `texts` count against a bound: their Unicode code points, as DeepL and Google bill. */
export const textsChars = (texts: readonly string[]) => texts.reduce((sum, text) => sum + chargedChars(text), 0);

/**
 * Takes `chars` from the museum's translation bound this month, in one statement: true when they fit under the
 * museum's own bound (or the deployment's `fallback`), false (and nothing taken) when they do not.
 */
export async function takeTranslationChars(d1: D1Database, museumId: number, chars: number, fallback: number, now = Date.now()): Promise<boolean> {
  if (chars <= 0) return true;
  const month = spendMonth(now);
  const taken = await d1
    .prepare(
      `INSERT INTO translation_spend (museum_id, month, chars)
       SELECT ?1, ?2, ?3 WHERE ?3 <= coalesce((SELECT translation_monthly_chars FROM museums WHERE id = ?1), ?4)
       ON CONFLICT (museum_id, month) DO UPDATE SET chars = translation_spend.chars + excluded.chars
       WHERE translation_spend.chars + excluded.chars <= coalesce((SELECT translation_monthly_chars FROM museums WHERE id = ?1), ?4)
       RETURNING chars`,
    )
    .bind(museumId, month, chars, fallback)
    .first();
  // By the row it returns, not `meta.changes` (which counts trigger writes too, decision 132).
  return taken !== null;
}

/** Gives back characters taken for a call that reached no engine (every engine failed). */
export async function giveBackTranslationChars(d1: D1Database, museumId: number, chars: number, now = Date.now()): Promise<void> {
  if (chars <= 0) return;
  await d1
    .prepare("UPDATE translation_spend SET chars = max(0, chars - ?3) WHERE museum_id = ?1 AND month = ?2")
    .bind(museumId, spendMonth(now), chars)
    .run()
    .catch((error: unknown) => console.warn(`translation characters not given back: ${String(error)}`));
}

export interface MonthlyBound {
  month: string;
  used: number;
  limit: number;
  /** The museum's own bound (true) or the deployment's default. */
  own: boolean;
}

/** The museum's translation, narration and questions bounds this month, and what it used of each (staff's banner, the console). */
export async function readBounds(
  d1: D1Database,
  museumId: number,
  defaults: { translation: number; narration: number; questions: number },
  now = Date.now(),
): Promise<{ translation: MonthlyBound; narration: MonthlyBound; questions: MonthlyBound }> {
  const month = spendMonth(now);
  const row = await d1
    .prepare(
      `SELECT translation_monthly_chars AS t, narration_monthly_chars AS n, questions_monthly AS q,
         (SELECT chars FROM translation_spend WHERE museum_id = ?1 AND month = ?2) AS tu,
         (SELECT chars FROM narration_spend WHERE museum_id = ?1 AND month = ?2) AS nu,
         (SELECT answers FROM question_spend WHERE museum_id = ?1 AND month = ?2) AS qu
       FROM museums WHERE id = ?1`,
    )
    .bind(museumId, month)
    .first<{ t: number | null; n: number | null; q: number | null; tu: number | null; nu: number | null; qu: number | null }>();
  return {
    translation: { month, used: row?.tu ?? 0, limit: row?.t ?? defaults.translation, own: row?.t != null },
    narration: { month, used: row?.nu ?? 0, limit: row?.n ?? defaults.narration, own: row?.n != null },
    // Visitors' questions (decision 151): answers composed, not characters.
    questions: { month, used: row?.qu ?? 0, limit: row?.q ?? defaults.questions, own: row?.q != null },
  };
}
