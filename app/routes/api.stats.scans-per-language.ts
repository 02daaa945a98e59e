import { statsQuerySchema } from "~/models/stats-input";
import { scansPerLanguage } from "~/models/stats.server";
import { getOnly, queryLoader } from "~/utils/api.server";
import { statsAnswer } from "~/utils/stats-answer.server";

export const action = getOnly;

/** `GET /api/stats/scans-per-language?days=10&format=json|csv`: rows {formatted_date, <language code>: scans}. */
export const loader = queryLoader("stats.read", statsQuerySchema, async ({ input, user, context }) =>
  statsAnswer(await scansPerLanguage(context.db, user.museumId, input.days), input.format, "scans-per-language"),
);
