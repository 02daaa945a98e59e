/**
 * A museum's own monthly bounds, set by an operator (issue 33 §3, decision 148): translation characters and
 * narration characters; empty = the deployment's default. The form carries the values it showed: when another
 * operator changed them meanwhile, the change is a 409 and nothing is written.
 */
import { createDb, type Database } from "~/db/client.server";
import { abortUnlessChanged, lostRace } from "~/db/guards";
import { conflict, DomainError } from "~/errors";
import { auditOperator } from "~/operator/accounts.server";
import { publishVisitorChanges } from "~/visitor-cache/snapshot.server";
import { MONTHLY_CHARS_MAX } from "./usage.server";
import { refuseClosed } from "~/closing/state.server";

export const BOUND_FIELDS = ["translationBound", "narrationBound", "questionsBound"] as const;
type BoundField = (typeof BOUND_FIELDS)[number];
const COLUMN: Record<BoundField, string> = {
  translationBound: "translation_monthly_chars",
  narrationBound: "narration_monthly_chars",
  // Answers to visitors' questions a month (decision 151).
  questionsBound: "questions_monthly",
};

/** A bound as typed: "" = the default (null), else a whole number of characters (spaces, commas, dots, underscores between digits allowed). */
export function parseBound(field: string, raw: unknown): number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== "string") throw new DomainError("invalid_input", `${field} must be a whole number of characters, or empty for the default`, field);
  const text = raw.trim();
  if (text === "") return null;
  const digits = text.replace(/(?<=\d)[\s\u00a0\u202f,._](?=\d{3}(?:\D|$))/g, "");
  if (!/^\d{1,10}$/.test(digits) || Number(digits) > MONTHLY_CHARS_MAX)
    throw new DomainError("invalid_input", `${field} must be a whole number of characters from 0 to ${MONTHLY_CHARS_MAX}, or empty for the default`, field);
  return Number(digits);
}

export async function setBounds(
  env: { directory: Database; shards: ReadonlyMap<number, D1Database>; kv: KVNamespace },
  operator: { id: number; email: string },
  museumId: number,
  form: { get(name: string): unknown },
  now = Date.now(),
): Promise<Record<BoundField, number | null>> {
  const next = {
    translationBound: parseBound("translationBound", form.get("translationBound")),
    narrationBound: parseBound("narrationBound", form.get("narrationBound")),
    questionsBound: parseBound("questionsBound", form.get("questionsBound")),
  };
  const seen = {
    translationBound: parseBound("seenTranslationBound", form.get("seenTranslationBound")),
    narrationBound: parseBound("seenNarrationBound", form.get("seenNarrationBound")),
    questionsBound: parseBound("seenQuestionsBound", form.get("seenQuestionsBound")),
  };
  const row = await env.directory.$client.prepare("SELECT shard FROM museums WHERE id = ?1").bind(museumId).first<{ shard: number }>();
  const shard = row ? env.shards.get(row.shard) : undefined;
  if (!row || !shard) throw new DomainError("not_found", "No museum has this id", "id");
  // Writes through the handle that notes what they change in visitor tables, so the publish below finds them.
  const db = createDb(shard);
  const d1 = db.$client;
  try {
    await d1.batch([
      d1
        .prepare(
          `UPDATE museums SET ${COLUMN.translationBound} = ?2, ${COLUMN.narrationBound} = ?3, ${COLUMN.questionsBound} = ?6
           WHERE id = ?1 AND ${COLUMN.translationBound} IS ?4 AND ${COLUMN.narrationBound} IS ?5 AND ${COLUMN.questionsBound} IS ?7
             AND closed_at IS NULL`,
        )
        .bind(museumId, next.translationBound, next.narrationBound, seen.translationBound, seen.narrationBound, next.questionsBound, seen.questionsBound),
      abortUnlessChanged(d1),
    ]);
  } catch (error) {
    if (!lostRace(error)) throw error;
    await refuseClosed(d1, museumId);
    throw conflict("museum", "Another operator changed this museum's bounds meanwhile: read them again", "stale_version");
  }
  // The museums row is a visitor table (its trigger moved the stamp): published, though visitors see no change.
  await publishVisitorChanges(db, env.kv);
  await auditOperator(env.directory, operator, "museum.bounds", museumId, { before: seen, after: next }, now);
  return next;
}
