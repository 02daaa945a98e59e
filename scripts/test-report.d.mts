export interface SuiteCounts {
  passed: number;
  flaky: number;
  failed: number;
  skipped: number;
  /** The tests that passed only on a retry, "file > title". */
  flakyNames: string[];
  /** The tests that failed, "file > title — the first line of the error". */
  failedNames: string[];
}
export function vitestCounts(report: unknown): SuiteCounts;
export function playwrightCounts(report: unknown): SuiteCounts;
export function closingLine(counts: { passed: number; flaky: number; failed: number; skipped: number }): string;
