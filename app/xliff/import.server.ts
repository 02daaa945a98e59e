// `POST /api/manage/import_xliff`: a translator's file back in (decision 059). Every unit is judged on
// its own and reported (applied, unchanged, stale, applied as stale, or an error with its reason); the
// units that pass are written together in ONE D1 batch with ONE audit entry, so the import is either
// wholly written or not at all, and a unit is never half-applied. Broken XML, a file that is not XLIFF
// or too large a file is refused whole (400/413) before anything is judged.
import { actorOf, auditStatement } from "~/audit/log.server";
import type { Database } from "~/db/client.server";
import { DomainError, invalidField } from "~/errors";
import type { SessionUser } from "~/models/auth.server";
import { glossaryRules } from "~/models/glossary.server";
import { correctionStatements, dropCorrectedCaches, type Correction } from "~/models/translation-corrections.server";
import { staleReview } from "~/models/translation-review.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import type { CatalogueEntry } from "~/translation/catalogue.server";
import { termSpans } from "~/translation/glossary";
import { findLanguage } from "~/translation/languages";
import { segmentHash } from "~/translation/segments";
export type { ImportReport, UnitError, UnitReport, UnitStatus };
import { cleanTarget } from "./characters";
import { parseUnitId, parseXliff, type ParsedUnit } from "./format";
import { cueReading, cueTags, resolveTarget } from "./inline";
import type { ImportReport, UnitError, UnitReport, UnitStatus } from "./report";
import { articlesById, catalogues, memoryByHash, museumSourceLang, reviewsByPlace } from "./units.server";

export interface ImportOptions {
  dryRun: boolean;
  /** Write the units whose source changed since the export too, flagged stale for a reviewer. */
  applyStale: boolean;
  /** The language the person means; the file's target language when absent. */
  lang?: string;
}

const sameLang = (a: string | null, b: string) => a !== null && findLanguage(a)?.code === b;

/** Up to 200 characters of a text, for the report. */
const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

/** Two texts of one segment are the same for a reader (a cue may escape `&`, `<`, `>` or not). */
const sameText = (a: string | undefined, b: string, subtitle: boolean) => a !== undefined && (a === b || (subtitle && cueReading(a) === cueReading(b)));

export async function importXliff(
  env: { db: Database; kv: KVNamespace; media: R2Bucket },
  user: SessionUser,
  text: string,
  options: ImportOptions,
): Promise<ImportReport> {
  const { db, kv, media } = env;
  const museumId = user.museumId;
  const file = parseXliff(text);
  const asked = options.lang ?? file.trgLang;
  if (!asked) throw invalidField("lang", "required");
  const lang = findLanguage(asked)?.code;
  if (!lang) throw invalidField("lang", "invalid");
  assertCanReviewLanguage(user, lang);
  const { sourceLang } = await museumSourceLang(db, museumId);
  if (lang === sourceLang) throw invalidField("lang", "source_language");

  const counts: Record<UnitStatus, number> = { applied: 0, applied_stale: 0, unchanged: 0, stale: 0, untranslated: 0, error: 0 };
  const reports: UnitReport[] = file.units.map((unit) => ({ id: unit.id.slice(0, 300), status: "error" }));
  const fail = (i: number, reason: UnitError, extra: Partial<UnitReport> = {}) => Object.assign(reports[i]!, { status: "error", reason }, extra);

  // Ids seen twice: none of their units is applied (which one would the translator mean?).
  const seen = new Map<string, number>();
  for (const unit of file.units) seen.set(unit.id, (seen.get(unit.id) ?? 0) + 1);

  const places = file.units.map((unit) => parseUnitId(unit.id));
  const articleIds = [...new Set(places.flatMap((p) => (p ? [p.articleId] : [])))];
  const live = await articlesById(db, museumId, articleIds);
  const [catalogueOf, rules, reviews] = await Promise.all([
    catalogues(db, media, museumId, [...live.values()]),
    glossaryRules(db, museumId, lang),
    reviewsByPlace(db, museumId, lang, [...live.keys()]),
  ]);
  const entryOf = new Map<number, Map<string, CatalogueEntry>>();
  for (const [id, entries] of catalogueOf) entryOf.set(id, new Map(entries.map((e) => [e.id, e])));
  const hashes = [...catalogueOf.values()].flatMap((entries) => entries.map((e) => e.hash));
  const memory = await memoryByHash(db, museumId, sourceLang, lang, hashes);

  const corrections: Correction[] = [];
  for (const [i, unit] of file.units.entries()) {
    const place = places[i];
    const article = place ? live.get(place.articleId) : undefined;
    const entry = place ? entryOf.get(place.articleId)?.get(place.segmentId) : undefined;
    if (article) Object.assign(reports[i]!, { articleId: article.id, article: article.name });
    if (entry) reports[i]!.source = clip(entry.source);
    if (!sameLang(unit.trgLang ?? lang, lang) || (unit.srcLang !== null && !sameLang(unit.srcLang, sourceLang))) {
      fail(i, "wrong_language");
      continue;
    }
    if (seen.get(unit.id)! > 1) {
      fail(i, "duplicate_id");
      continue;
    }
    // Another museum's article, a trashed one, a place the article no longer has: all read as unknown.
    if (!place || !article || !entry) {
      fail(i, "unknown_unit");
      continue;
    }
    // Not translated yet: nothing to apply, and nothing wrong either.
    if (unit.target === null || unit.targetRuns === null) {
      reports[i]!.status = "untranslated";
      continue;
    }
    reports[i]!.target = clip(unit.target);
    const stale = await sourceChanged(unit, entry);
    const checkedSource = stale ? unit.source.normalize("NFC").trim() : entry.source;
    // Inline codes back in place: a cue's tags (by the file's markup, else the source's tag with that id).
    const subtitle = entry.kind === "subtitle";
    const resolved = resolveTarget(unit.targetRuns, subtitle, subtitle ? cueTags(checkedSource) : new Map());
    if (!resolved.ok) {
      fail(i, "invalid_target", { detail: "inline_code", code: resolved.code });
      continue;
    }
    const cleaned = cleanTarget(resolved.text);
    if (!cleaned.ok) {
      const { ok: _ok, ...problem } = cleaned;
      fail(i, "invalid_target", problem);
      continue;
    }
    const target = cleaned.text;
    reports[i]!.target = clip(target);
    const lost = termSpans(checkedSource, rules).find((span) => !target.includes(span.output));
    if (lost) {
      fail(i, "protected_term", { term: lost.term, expected: lost.output });
      continue;
    }
    if (stale) {
      if (!options.applyStale) {
        reports[i]!.status = "stale";
        continue;
      }
      // Written for the source the translator saw: the review row keeps it, flagged stale on the review
      // page until someone checks it against the new source; visitors keep the machine text meanwhile.
      const hash = unit.hash && /^[0-9a-f]{64}$/.test(unit.hash) ? unit.hash : await segmentHash(checkedSource);
      corrections.push({ articleId: article.id, entry: { ...entry, source: checkedSource, hash }, text: target });
      reports[i]!.status = "applied_stale";
      continue;
    }
    const row = memory.get(entry.hash);
    const review = reviews.get(article.id)?.get(entry.id);
    const current = new Set(catalogueOf.get(article.id)!.map((e) => e.hash));
    const outdated = staleReview(review, entry.hash, row, current);
    const reviewedHere = review !== undefined && review.hash === entry.hash && sameText(review.text, target, subtitle) && !outdated;
    const unchanged =
      row !== undefined &&
      sameText(row.text, target, subtitle) &&
      // Already this reviewed text here; or the machine's text, sent back without being signed off.
      ((row.origin === "edited" && reviewedHere) || (row.origin === "machine" && !unit.signedOff));
    if (unchanged) {
      reports[i]!.status = "unchanged";
      continue;
    }
    // A review written for an older source, sent back as it was exported (untouched, not signed off):
    // nobody has read it against today's source, so it stays stale (visitors keep the machine text).
    if (outdated && sameText(review.text, target, subtitle) && !unit.signedOff) {
      Object.assign(reports[i]!, { status: "stale", reason: "outdated_review" });
      continue;
    }
    corrections.push({ articleId: article.id, entry, text: target });
    reports[i]!.status = "applied";
  }
  for (const report of reports) counts[report.status]++;

  if (!options.dryRun && corrections.length > 0) {
    const scope = { museumId, sourceLang, lang };
    const touched = [...new Set(corrections.map((c) => c.articleId))];
    if (corrections.length > MAX_APPLIED) throw tooManyForOneBatch();
    await db.batch([
      auditStatement(db, {
        museumId,
        actor: actorOf(user),
        action: "translations.import_xliff",
        target: touched.length === 1 ? `article:${touched[0]}` : "museum",
        detail: {
          lang,
          version: file.version,
          applied: counts.applied,
          appliedStale: counts.applied_stale,
          articles: touched.slice(0, 50).map((id) => live.get(id)!.name),
          ...(touched.length > 50 ? { moreArticles: touched.length - 50 } : {}),
        },
      }),
      ...correctionStatements(db, scope, corrections),
    ]);
    await dropCorrectedCaches(db, kv, scope, corrections);
  }
  return { dryRun: options.dryRun, lang, version: file.version, counts, units: reports };
}

/** The source changed since the export: by the hash the export wrote, else (a tool dropped it) by the text. */
async function sourceChanged(unit: ParsedUnit, entry: CatalogueEntry): Promise<boolean> {
  if (unit.hash && /^[0-9a-f]{64}$/.test(unit.hash)) return unit.hash !== entry.hash;
  const source = unit.source.normalize("NFC").trim();
  return source !== "" && (await segmentHash(source)) !== entry.hash;
}

/**
 * The most units one import writes: they go in one D1 batch (one transaction), about one statement per
 * eleven units, kept well under the statements a Worker may run per request. A larger file is refused
 * whole (413) before anything is written; a dry run still reports every unit.
 */
export const MAX_APPLIED = 3000;

export const tooManyForOneBatch = () =>
  new DomainError("too_large", `The file would change more than ${MAX_APPLIED} translations at once: split it (by folder or article)`, "file", "too_many");
