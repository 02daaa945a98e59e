// `GET /api/read/xliff`: one article, a folder or the whole museum as an XLIFF file for one target
// language (decision 058).
import type { Database } from "~/db/client.server";
import { invalidField } from "~/errors";
import { fixedT, isLocale } from "~/i18n/config";
import { glossaryRules } from "~/models/glossary.server";
import { staleReview } from "~/models/translation-review.server";
import { termSpans } from "~/translation/glossary";
import { buildXliff, unitId, type ExportArticle, type ExportUnit, type NoteWords, type XliffVersion } from "./format";
import { articlesInScope, catalogues, memoryByHash, museumSourceLang, reviewsByPlace, type ExportScope } from "./units.server";

export interface XliffExport {
  filename: string;
  body: string;
  units: number;
}

/** A file name that says what the file holds: `salle-1.fr-en.xlf`, `museum.fr-de.xlf` (ASCII, no path characters). */
export function exportFilename(label: string, sourceLang: string, lang: string, version: XliffVersion): string {
  const base =
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "articles";
  return `${base}.${sourceLang}-${lang}${version === "1.2" ? ".xliff12" : ""}.xlf`;
}

export async function exportXliff(
  db: Database,
  bucket: R2Bucket,
  museumId: number,
  input: { scope: ExportScope; lang: string; version: XliffVersion },
): Promise<XliffExport> {
  const { sourceLang } = await museumSourceLang(db, museumId);
  if (input.lang === sourceLang) throw invalidField("lang", "source_language");
  const { articles: list, label } = await articlesInScope(db, museumId, input.scope);
  const [catalogueOf, rules, reviews] = await Promise.all([
    catalogues(db, bucket, museumId, list),
    glossaryRules(db, museumId, input.lang),
    reviewsByPlace(
      db,
      museumId,
      input.lang,
      list.map((a) => a.id),
    ),
  ]);
  const hashes = [...catalogueOf.values()].flatMap((entries) => entries.map((e) => e.hash));
  const memory = await memoryByHash(db, museumId, sourceLang, input.lang, hashes);
  let count = 0;
  const articles: ExportArticle[] = list.map((article) => {
    const entries = catalogueOf.get(article.id) ?? [];
    const current = new Set(entries.map((e) => e.hash));
    const places = reviews.get(article.id);
    const units = entries.map((entry): ExportUnit => {
      const row = memory.get(entry.hash);
      const review = places?.get(entry.id);
      const base = {
        id: unitId(article.id, entry.id),
        source: entry.source,
        hash: entry.hash,
        kind: entry.kind,
        terms: termSpans(entry.source, rules),
        ...(entry.cue ? { cue: entry.cue } : {}),
      };
      if (staleReview(review, entry.hash, row, current)) return { ...base, target: review.text, state: "stale", previousSource: review.source };
      if (!row) return { ...base, target: null, state: "new" };
      return { ...base, target: row.text, state: row.origin === "edited" ? "reviewed" : "machine" };
    });
    count += units.length;
    return { id: article.id, name: article.name, units };
  });
  return {
    filename: exportFilename(label, sourceLang, input.lang, input.version),
    body: buildXliff({ srcLang: sourceLang, trgLang: input.lang, articles }, input.version, noteWords(sourceLang)),
    units: count,
  };
}

/**
 * The words of the file's notes, in the museum's language: its source language when the interface has
 * it (French, English), else English, the language translators' tools share (decision 109).
 */
export function noteWords(sourceLang: string): NoteWords {
  const t = fixedT(isLocale(sourceLang) ? sourceLang : "en");
  return (key, values) => t(key, values);
}

/** The exported file as a download (the API call and the page's form answer the same). */
export function xliffDownload(file: XliffExport, version: XliffVersion): Response {
  return new Response(file.body, {
    headers: {
      "Content-Type": version === "2.0" ? "application/xliff+xml; charset=utf-8" : "application/x-xliff+xml; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "X-Xliff-Units": String(file.units),
    },
  });
}
