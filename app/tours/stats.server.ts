import { and, asc, between, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { tourDailyStats, tours } from "~/db/schema";
import { dayNumber } from "~/lib/dates";
import { dayRange, museumToday } from "~/models/stats.server";
import { visibleStopsByTour } from "./stops.server";

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 10;

export interface TourStopStats {
  /** The stop's number among the shown stops (as counted: a stop's number at the time of the view). */
  position: number;
  /** The article shown at this position now; null when the tour has fewer stops now. */
  name: string | null;
  views: number;
  /**
   * Visitors lost on the way here: the views of the position before (the starts, for stop 1) minus this
   * one's. Negative when more visitors reached this stop than the one before (a stop opened directly).
   */
  left: number;
}

export interface TourStats {
  id: number;
  name: string;
  link: string;
  starts: number;
  stops: TourStopStats[];
}

/** The window asked for, or the last 10 days up to the museum's today. */
async function window(db: Database, museumId: number, from?: string, to?: string) {
  const last =
    to ??
    (from
      ? new Date(Math.min(Date.parse(from) + (DEFAULT_DAYS - 1) * DAY_MS, Date.parse(await museumToday(db, museumId)))).toISOString().slice(0, 10)
      : await museumToday(db, museumId));
  const first = from ?? dayRange(last, DEFAULT_DAYS)[0]!;
  return { from: first, to: last };
}

/**
 * Each tour of the museum with its starts (tour page opens) and its views per stop over the window,
 * and where visitors leave (decision 084): `left` of stop n is the drop from the position before.
 * Every tour is listed, counted or not, by name.
 */
export async function tourStats(db: Database, museumId: number, query: { from?: string; to?: string } = {}) {
  const range = await window(db, museumId, query.from, query.to);
  const [list, counts, shown] = await Promise.all([
    db
      .select({ id: tours.id, name: tours.name, link: tours.link })
      .from(tours)
      .where(eq(tours.museumId, museumId))
      .orderBy(asc(tours.name), asc(tours.id))
      .all(),
    db
      .select({ tourId: tourDailyStats.tourId, position: tourDailyStats.position, views: sql<number>`sum(${tourDailyStats.views})` })
      .from(tourDailyStats)
      .where(and(eq(tourDailyStats.museumId, museumId), between(tourDailyStats.day, dayNumber(range.from), dayNumber(range.to))))
      .groupBy(tourDailyStats.tourId, tourDailyStats.position)
      .all(),
    visibleStopsByTour(db, museumId),
  ]);
  const byTour = new Map<number, Map<number, number>>();
  for (const row of counts) {
    const positions = byTour.get(row.tourId) ?? new Map<number, number>();
    positions.set(row.position, Number(row.views));
    byTour.set(row.tourId, positions);
  }
  const out: TourStats[] = [];
  for (const tour of list) {
    const stops = shown.get(tour.id) ?? [];
    const counted = byTour.get(tour.id) ?? new Map<number, number>();
    const last = Math.max(stops.length, ...[...counted.keys()]);
    const views = (position: number) => counted.get(position) ?? 0;
    out.push({
      id: tour.id,
      name: tour.name,
      link: tour.link,
      starts: views(0),
      stops: Array.from({ length: Math.max(0, last) }, (_, i) => ({
        position: i + 1,
        name: stops[i]?.name ?? null,
        views: views(i + 1),
        left: views(i) - views(i + 1),
      })),
    });
  }
  return { ...range, tours: out };
}
