import { z } from "zod";

/** The longest window `GET /api/stats/tours` answers, in days (as `?days=` of the other statistics calls). */
export const TOUR_STATS_MAX_DAYS = 366;

/** A museum day, "YYYY-MM-DD", that exists on the calendar. */
const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "wrong_type")
  .refine((day) => {
    const time = Date.parse(`${day}T00:00:00Z`);
    return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === day;
  }, "invalid");

/** `?from=&to=`: both optional (the last 10 days up to today, in the museum's timezone); `from` ≤ `to`, a year at most. */
export const tourStatsQuerySchema = z.object({ from: daySchema.optional(), to: daySchema.optional() }).superRefine((value, ctx) => {
  if (value.from && value.to) {
    if (value.from > value.to) ctx.addIssue({ code: "custom", path: ["from"], message: "out_of_range" });
    else if ((Date.parse(value.to) - Date.parse(value.from)) / 86_400_000 + 1 > TOUR_STATS_MAX_DAYS)
      ctx.addIssue({ code: "custom", path: ["from"], message: "out_of_range" });
  }
});

export type TourStatsQuery = z.infer<typeof tourStatsQuerySchema>;
