import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { glossaryTerms } from "~/db/schema";
import { conflict, isUniqueViolation, notFound } from "~/errors";
import { glossaryFor, type GlossaryRule } from "~/translation/glossary";
import type { AddGlossaryTermInput } from "./glossary-input";
import { auditWhenChangedD1, type AuditActor } from "~/audit/log.server";

/** A glossary row as the API gives it: `lang` and `translation` null for a never-translated term. */
export interface GlossaryTermView {
  id: number;
  term: string;
  lang: string | null;
  translation: string | null;
}

const view = (row: { id: number; term: string; targetLang: string; translation: string }): GlossaryTermView => ({
  id: row.id,
  term: row.term,
  lang: row.targetLang === "" ? null : row.targetLang,
  translation: row.targetLang === "" ? null : row.translation,
});

/** Every term of the museum, by term then language (never-translate first). */
export async function listGlossary(db: Database, museumId: number): Promise<{ terms: GlossaryTermView[] }> {
  const rows = await db
    .select({ id: glossaryTerms.id, term: glossaryTerms.term, targetLang: glossaryTerms.targetLang, translation: glossaryTerms.translation })
    .from(glossaryTerms)
    .where(eq(glossaryTerms.museumId, museumId))
    .orderBy(asc(glossaryTerms.term), asc(glossaryTerms.targetLang), asc(glossaryTerms.id));
  return { terms: rows.map(view) };
}

/**
 * The museum's glossary as it applies to target language `to` (never-translate terms and fixed
 * translations into `to`): one query, on the (museum_id, term, target_lang) index.
 */
export async function glossaryRules(db: Database, museumId: number, to: string): Promise<GlossaryRule[]> {
  const rows = await db
    .select({ term: glossaryTerms.term, targetLang: glossaryTerms.targetLang, translation: glossaryTerms.translation })
    .from(glossaryTerms)
    .where(and(eq(glossaryTerms.museumId, museumId), inArray(glossaryTerms.targetLang, ["", to])));
  return glossaryFor(
    rows.map((row) => ({ term: row.term, lang: row.targetLang === "" ? null : row.targetLang, translation: row.targetLang === "" ? null : row.translation })),
    to,
  );
}

/**
 * Forgets the machine translations (never a staff correction) this term may have changed: every memory
 * row of the museum whose source (its segment's text, 0014) contains the term, in the term's language or, for a never-translate
 * term, in every language. The next view translates them again, with the glossary as it is now.
 * A plain substring test (`instr`, case-sensitive like the matching) finds a superset of whole-word
 * matches: forgetting a few rows too many only costs a re-translation. Four bound parameters.
 */
function forgetMachineRows(db: Database, museumId: number, term: string, lang: string) {
  return db.$client
    .prepare(
      `DELETE FROM translation_memory
        WHERE museum_id = ?1 AND origin = 'machine' AND (?3 = '' OR target_lang = ?3)
          AND (source_lang, source_hash) IN (SELECT source_lang, source_hash FROM translation_segments WHERE museum_id = ?1 AND instr(source_text, ?2) > 0)`,
    )
    .bind(museumId, term, lang);
}

/** Adds a term; 409 naming `term` when the museum has it already for that language (or untranslated). */
export async function addGlossaryTerm(db: Database, museumId: number, input: AddGlossaryTermInput, actor: AuditActor): Promise<GlossaryTermView> {
  const targetLang = input.lang ?? "";
  const insert = db.$client
    .prepare(
      `INSERT INTO glossary_terms (museum_id, term, target_lang, translation, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
       RETURNING id, term, target_lang AS targetLang, translation`,
    )
    .bind(museumId, input.term, targetLang, input.translation ?? "", Date.now());
  try {
    // One transaction: the term exists exactly when the memory it invalidates is gone.
    const [inserted] = await db.$client.batch<{ id: number; term: string; targetLang: string; translation: string }>([
      insert,
      // Right after the insert, so `last_insert_rowid()` is the new term's id.
      auditWhenChangedD1(
        db.$client,
        { museumId, actor, action: "glossary.add", target: "glossary:", detail: { term: input.term, lang: targetLang, translation: input.translation ?? "" } },
        { insertedId: true },
      ),
      forgetMachineRows(db, museumId, input.term, targetLang),
    ]);
    const row = inserted?.results[0];
    if (!row) throw new Error("glossary insert returned no row");
    return view(row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("term", input.lang ? `This term already has a fixed translation in ${input.lang}` : "This term is already in the glossary");
    }
    throw error;
  }
}

/** Deletes a term of this museum (404 naming `id` for another museum's or a missing one). */
export async function deleteGlossaryTerm(db: Database, museumId: number, id: number, actor: AuditActor): Promise<{ id: number }> {
  // The memory is forgotten in the same transaction, from the row being deleted (so a parallel
  // delete of the same id forgets nothing twice and answers 404).
  const [, , deleted] = await db.$client.batch<{ id: number }>([
    db.$client
      .prepare(
        `DELETE FROM translation_memory
          WHERE museum_id = ?1 AND origin = 'machine'
            AND EXISTS (SELECT 1 FROM glossary_terms g JOIN translation_segments s
                           ON s.museum_id = ?1 AND s.source_lang = translation_memory.source_lang AND s.source_hash = translation_memory.source_hash
                         WHERE g.id = ?2 AND g.museum_id = ?1 AND instr(s.source_text, g.term) > 0
                           AND (g.target_lang = '' OR g.target_lang = translation_memory.target_lang))`,
      )
      .bind(museumId, id),
    // The entry reads the term before it goes; a parallel delete of the same id finds no row and records nothing.
    db.$client
      .prepare(
        `INSERT INTO audit_log (museum_id, at, actor_id, actor_email, action, target, detail)
         SELECT museum_id, ?3, ?4, ?5, 'glossary.delete', 'glossary:' || id, json_object('term', term, 'lang', target_lang, 'translation', translation)
           FROM glossary_terms WHERE id = ?1 AND museum_id = ?2`,
      )
      .bind(id, museumId, Date.now(), actor.id, actor.email.slice(0, 320)),
    db.$client.prepare(`DELETE FROM glossary_terms WHERE id = ?1 AND museum_id = ?2 RETURNING id`).bind(id, museumId),
  ]);
  if (!deleted?.results[0]) throw notFound("Glossary term", "id");
  return { id };
}
