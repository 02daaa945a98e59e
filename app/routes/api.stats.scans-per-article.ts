import { statsQuerySchema } from "~/models/stats-input";
import { scansPerArticle } from "~/models/stats.server";
import { getOnly, queryLoader } from "~/utils/api.server";
import { statsAnswer } from "~/utils/stats-answer.server";

export const action = getOnly;

/** `GET /api/stats/scans-per-article?days=10&format=json|csv`: rows {formatted_date, <article name>: scans}. */
export const loader = queryLoader("stats.read", statsQuerySchema, async ({ input, user, context }) =>
  statsAnswer(await scansPerArticle(context.db, user.museumId, input.days), input.format, "scans-per-article"),
);
