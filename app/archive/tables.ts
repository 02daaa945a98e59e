// What the museum archive does with each table of the schema (decision 135): every table is either archived
// (the file that carries it) or excluded with the reason. The export reads exactly the archived tables
// (export.server.ts: a reader per table, checked by the compiler against this list), the import counts a
// museum as "not empty" by the archived tables marked `occupies`, and tests/unit/archive-tables.test.ts fails
// for a table of app/db/schema.ts that is in neither list (tests/integration/archive-tables.test.ts: of D1).
import { DATA_FILES, MANIFEST_PATH, OPTIONAL_DATA_FILES } from "./format";

export type ArchivedTable = { archived: string; /** rows here make a museum "not empty" for an import */ occupies?: true };
export type ExcludedTable = { excluded: string };

/** Keyed by the SQL name of the table. */
export const ARCHIVE_TABLES = {
  museums: { archived: MANIFEST_PATH },
  folders: { archived: DATA_FILES.folders, occupies: true },
  articles: { archived: DATA_FILES.articles, occupies: true },
  article_versions: { archived: DATA_FILES.articleVersions },
  qrcodes: { archived: DATA_FILES.qrcodes, occupies: true },
  glossary_terms: { archived: DATA_FILES.glossary },
  media: { archived: DATA_FILES.media },
  translation_memory: { archived: DATA_FILES.translationMemory },
  translation_reviews: { archived: DATA_FILES.translationReviews },
  translation_reports: { archived: DATA_FILES.translationReports },
  daily_stats: { archived: DATA_FILES.dailyStats },
  tours: { archived: OPTIONAL_DATA_FILES.tours, occupies: true },
  tour_stops: { archived: OPTIONAL_DATA_FILES.tours },
  easy_read_versions: { archived: OPTIONAL_DATA_FILES.easyRead, occupies: true },
  narrations: { archived: OPTIONAL_DATA_FILES.narrations, occupies: true },

  users: { excluded: "people's accounts and password hashes, not the museum's content; the receiving museum has its own team (decision 062)" },
  sessions: { excluded: "sign-ins of this installation's members: credentials (decision 062)" },
  login_attempts: { excluded: "rate-limit counters of sign-ins, by address: credentials' protection, not content (decision 062)" },
  member_tokens: { excluded: "invitation and password-reset links: credentials (decision 062)" },
  audit_log: { excluded: "who did what here, append-only; it would be a lie in another museum, and export and import audit themselves (decisions 043, 062)" },
  translation_claims: { excluded: "transient: who is translating right now on this installation (decision 062)" },
  translation_failures: { excluded: "transient back-off tied to this installation's engines and keys (decision 062)" },
  scan_events: { excluded: "raw scans, pruned within days and personal-ish; daily_stats carries their meaning (decision 062)" },
  scan_visits: { excluded: "visit fingerprints that count a scan once per 30 minutes: personal-ish and short-lived (decisions 032, 062)" },
  tour_daily_stats: { excluded: "this installation's visitors' tour counts; the archive's statistics stay the one CSV of scans (decision 100)" },
  easy_read_daily_stats: { excluded: "this installation's visitors' easy-to-read counts; the archive's statistics stay the one CSV (decision 100)" },
  narration_claims: { excluded: "transient: a generation under way or a failure back-off of this installation (decision 100)" },
  narration_spend: { excluded: "this installation's monthly spend on its speech engines, counted afresh elsewhere (decision 105)" },
  translation_spend: { excluded: "this installation's monthly count against the translation bound, counted afresh elsewhere (decision 148)" },
  engine_usage: { excluded: "what this installation's engines were asked for the museum, for its operators' bills (decision 148)" },
  visitor_questions: { excluded: "what this installation's visitors asked; an answer staff gave is in the article itself (decision 151)" },
  question_spend: { excluded: "this installation's monthly count of composed answers, counted afresh elsewhere (decision 151)" },
  translation_segments: { excluded: "carried by the memory file: each memory row holds its segment's source text, as archives always did (decision 145)" },
  visitor_changes: { excluded: "derived: when this installation last changed what the museum's visitors see, moved by triggers (decision 132)" },
} as const satisfies Record<string, ArchivedTable | ExcludedTable>;

export type TableName = keyof typeof ARCHIVE_TABLES;
/** The tables the export reads, the museum row (the manifest) aside. */
export type ArchivedDataTable = Exclude<{ [K in TableName]: (typeof ARCHIVE_TABLES)[K] extends { archived: string } ? K : never }[TableName], "museums">;

/** The tables whose rows make a museum "not empty": an archive is imported only into a museum with none. */
export const OCCUPYING_TABLES = (Object.keys(ARCHIVE_TABLES) as TableName[]).filter((name) => {
  const plan: ArchivedTable | ExcludedTable = ARCHIVE_TABLES[name];
  return "occupies" in plan && plan.occupies === true;
});
