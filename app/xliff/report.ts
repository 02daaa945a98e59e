// What an XLIFF import answers (decision 059): shared by the API and the page that shows it. Pure types.

export type UnitStatus = "applied" | "applied_stale" | "unchanged" | "stale" | "error";

export type UnitError =
  | "wrong_language"
  | "unknown_unit"
  | "duplicate_id"
  | "missing_target"
  | "protected_term"
  | "invalid_target";

export interface UnitReport {
  id: string;
  status: UnitStatus;
  reason?: UnitError;
  /** For `protected_term`: the glossary term the target lost, and what it must hold instead. */
  term?: string;
  expected?: string;
  /** For `invalid_target`: why the text cannot be a segment (too long, control characters, …). */
  detail?: string;
  articleId?: number;
  /** The article's name, for people reading the report. */
  article?: string;
  source?: string;
  target?: string;
}

export interface ImportReport {
  dryRun: boolean;
  lang: string;
  version: "2.0" | "1.2";
  counts: Record<UnitStatus, number>;
  units: UnitReport[];
}

