// D1 binds at most 100 parameters per statement (Cloudflare's D1 limits page: "Maximum number of bound
// parameters per query: 100"); a long `IN (…)` list or a multi-row insert is cut to fit.

/** The values of one `IN (…)` list: leaves room for the statement's other parameters (scope, ids). */
export const IN_LIST_MAX = 90;

/** Rows of `columns` bound values each that fit in one multi-row statement. */
export function rowsPerStatement(columns: number): number {
  return Math.floor(100 / columns);
}

/** `items` cut into consecutive lists of at most `size` (none for no items). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
