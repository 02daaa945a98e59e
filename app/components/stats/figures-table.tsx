import type { ReactNode } from "react";

export interface FiguresRow {
  key: string | number;
  /** The row's name (a `<th scope="row">`). */
  header: ReactNode;
  cells: ReactNode[];
}

interface FiguresTableProps {
  /** Unique on the page: the caption's id, which names the scrolling region. */
  id: string;
  caption: string;
  /** The caption read by screen readers only, when a heading just above says the same. */
  captionHidden?: boolean;
  columns: ReactNode[];
  rows: readonly FiguresRow[];
  /** Shown instead of the table when there is no row (else an empty table with its headers). */
  empty?: string;
  className?: string;
}

/**
 * The tables of /stats (per day, tours, easy-to-read opens): a caption, column headers, one named row per
 * item and its figures. The table scrolls inside its own focusable region, never the page (no sideways
 * scroll at 320 px), and the region is named by the caption.
 */
export function FiguresTable({ id, caption, captionHidden, columns, rows, empty, className }: FiguresTableProps) {
  if (rows.length === 0 && empty !== undefined) return <p className="muted">{empty}</p>;
  return (
    <div className={className ? `stats-table ${className}` : "stats-table"} role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table>
        <caption id={`${id}-caption`} className={captionHidden ? "visually-hidden" : undefined}>
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th scope="col" key={i}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.header}</th>
              {row.cells.map((cell, i) => (
                <td key={i}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
