/**
 * What a tour is, as plain types (issue 21, decision 076): one definition for the staff queries
 * (tours.server.ts), the visitor's queries (stops.server.ts) and the tour editor in the browser, which
 * imports this module and never a `.server` one.
 */

/** A tour's own fields, as stored. */
export interface TourFields {
  id: number;
  /** The public address `/t/{link}`. */
  link: string;
  name: string;
  description: string;
  cover: string | null;
  minutes: number | null;
  /** Optimistic concurrency: a save sends the version it started from. */
  version: number;
  updatedAt: number;
}

/** A stop as staff see it in the editor: every stop, in order, with what visitors will or will not see. */
export interface TourStopView {
  position: number;
  articleId: number;
  /** The private name (what staff call the article). */
  name: string;
  slug: string;
  published: boolean;
  /** In the trash, itself or through a folder: kept in the tour, skipped by visitors until restored. */
  trashed: boolean;
  stopNumber: number | null;
}
