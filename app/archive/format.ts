// What a museum archive is (decision 062): its entries, its manifest and the versions it carries.
import { z } from "zod";

export const ARCHIVE_FORMAT = "muselingo-museum-archive";
/** The layout of the files in the archive; a reader refuses a higher one. */
export const ARCHIVE_FORMAT_VERSION = 1;
/**
 * The last migration this code knows (drizzle/): the archive says which one its data was read under, and an
 * import refuses an archive made under a later one (its rows may carry columns this code would drop).
 * tests/unit/archive-format.test.ts checks it is the newest file in drizzle/.
 */
export const SCHEMA_VERSION = "0017_visitor_questions";

export const MANIFEST_PATH = "manifest.json";
export const CHECKSUMS_PATH = "checksums.sha256";
export const MEDIA_DIR = "media/";
/** Narrations' audio files (0010, issue 22): `narrations/<R2 key>`, each with its row in data/narrations.json. */
export const NARRATION_DIR = "narrations/";

/** The data files, in the order they are written and restored. */
export const DATA_FILES = {
  folders: "data/folders.json",
  articles: "data/articles.json",
  articleVersions: "data/article_versions.json",
  qrcodes: "data/qrcodes.json",
  glossary: "data/glossary.json",
  media: "data/media.json",
  translationMemory: "data/translation_memory.json",
  translationReviews: "data/translation_reviews.json",
  translationReports: "data/translation_reports.json",
  dailyStats: "stats/daily_stats.csv",
} as const;
export type DataFile = keyof typeof DATA_FILES;

/**
 * Data files added after the first archives (0009 tours, issue 21; 0010 narrations and 0011 easy-to-read
 * versions, issue 22): written after the others, read when the manifest lists them, so an archive made before
 * them still imports (it simply has none of them).
 */
export const OPTIONAL_DATA_FILES = {
  tours: "data/tours.json",
  easyRead: "data/easy_read_versions.json",
  narrations: "data/narrations.json",
} as const;

/** The number in front of a migration's name ("0008_teams" → 8), NaN when there is none. */
export function schemaNumber(version: string): number {
  const match = /^(\d{4})_/.exec(version);
  return match ? Number(match[1]) : Number.NaN;
}

const fileSchema = z.object({
  path: z.string().min(1).max(1024),
  bytes: z.number().int().nonnegative(),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

/** Only what tells the reader whether it may go on: checked before anything else. */
export const manifestHeadSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.number().int().positive(),
  schemaVersion: z.string().max(100),
});

export const manifestSchema = manifestHeadSchema.extend({
  createdAt: z.string().max(40),
  museum: z.object({
    name: z.string().max(200),
    slug: z.string().max(200),
    sourceLang: z.string().min(2).max(35),
    timezone: z.string().min(1).max(64),
  }),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  files: z.array(fileSchema).max(200_000),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileSchema>;

/** `sha256sum` lines ("<hex>  <path>"), so `sha256sum -c checksums.sha256` checks an unzipped archive too. */
export function checksumLines(files: { path: string; sha256: string }[]): string {
  return files.map((f) => `${f.sha256}  ${f.path}\n`).join("");
}

export function parseChecksumLines(text: string): Map<string, string> | null {
  const out = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!match || out.has(match[2]!)) return null;
    out.set(match[2]!, match[1]!);
  }
  return out;
}
