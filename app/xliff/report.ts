// What an XLIFF import answers (decisions 059, 109): shared by the API and the page that shows it. Pure types.

export type UnitStatus = "applied" | "applied_stale" | "unchanged" | "stale" | "untranslated" | "error";

export type UnitError = "wrong_language" | "unknown_unit" | "duplicate_id" | "protected_term" | "invalid_target";

/** Why a `stale` unit was not applied, when it is not that the source changed since the export. */
export type StaleReason = "outdated_review";

/** Why a target cannot be a segment (`invalid_target`). */
export type TargetProblem = "too_long" | "forbidden_character" | "inline_code" | "empty";

export interface UnitReport {
  id: string;
  status: UnitStatus;
  reason?: UnitError | StaleReason;
  /** For `protected_term`: the glossary term the target lost, and what it must hold instead. */
  term?: string;
  expected?: string;
  /** For `invalid_target`: why the text cannot be a segment. */
  detail?: TargetProblem;
  /** For `forbidden_character`: the character (`U+202E RIGHT-TO-LEFT OVERRIDE`) and its position (1 = first). */
  character?: string;
  position?: number;
  /** For `inline_code`: the code as the file writes it (`<x id="INTERPOLATION"/>`, `{{ name }}`). */
  code?: string;
  /** For `too_long`: the most characters a segment holds. */
  max?: number;
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
