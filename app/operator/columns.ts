// The console's columns (issue 33 §2), for the page's client code and the server's figures alike.
export const FIGURE_COLUMNS = [
  "name",
  "state",
  "shard",
  "members",
  "articles",
  "languages",
  "scans30",
  "views30",
  "translationChars",
  "narrationChars",
  "cost",
  "mediaBytes",
  "d1Bytes",
  "lastStaffActivity",
  "createdAt",
] as const;
export type FigureColumn = (typeof FIGURE_COLUMNS)[number];

/** Every column but the name, the state and the two dates is a number, aligned to the end. */
export const NUMERIC_COLUMNS: readonly FigureColumn[] = FIGURE_COLUMNS.filter((c) => !["name", "state", "lastStaffActivity", "createdAt"].includes(c));
