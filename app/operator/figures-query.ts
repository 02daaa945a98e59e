import { FIGURE_COLUMNS, type FigureColumn } from "./figures.server";

/** The console's list as the address asks it (`?q=&sort=&dir=`); anything else falls back to the newest first. */
export function readFiguresQuery(params: URLSearchParams): { q: string; sort: FigureColumn; dir: "asc" | "desc" } {
  const sort = params.get("sort") ?? "";
  const known = (FIGURE_COLUMNS as readonly string[]).includes(sort);
  return {
    q: (params.get("q") ?? "").slice(0, 100),
    sort: known ? (sort as FigureColumn) : "createdAt",
    dir: params.get("dir") === "asc" ? "asc" : "desc",
  };
}
