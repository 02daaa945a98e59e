import { tourStatsQuerySchema } from "~/tours/stats-input";
import { tourStats } from "~/tours/stats.server";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/**
 * `GET /api/stats/tours?from=YYYY-MM-DD&to=YYYY-MM-DD`: each tour's starts, views per stop and where
 * visitors leave, over museum days (decision 084). Both dates optional: the last 10 days.
 */
export const loader = queryLoader("stats.read", tourStatsQuerySchema, async ({ input, user, context }) => tourStats(context.db, user.museumId, input));
