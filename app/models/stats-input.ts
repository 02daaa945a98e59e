import { z } from "zod";
import { articleIdSchema } from "./tree-input";

/** The spec's window; `?days=` goes up to a year for the CSV and the longer views. */
export const STATS_DEFAULT_DAYS = 10;
export const STATS_MAX_DAYS = 365;
/** The periods the /stats page offers. */
export const STATS_PERIODS = [10, 30, 90] as const;

const daysSchema = z
  .string()
  .regex(/^\d{1,4}$/, "wrong_type")
  .transform(Number)
  .refine((days) => days >= 1 && days <= STATS_MAX_DAYS, "out_of_range")
  .default(String(STATS_DEFAULT_DAYS));

const formatSchema = z.enum(["json", "csv"], { errorMap: () => ({ message: "invalid" }) }).default("json");

export const statsQuerySchema = z.object({ days: daysSchema, format: formatSchema });
export const articleStatsQuerySchema = statsQuerySchema.extend({ articleId: articleIdSchema });

export type StatsQuery = z.infer<typeof statsQuerySchema>;
