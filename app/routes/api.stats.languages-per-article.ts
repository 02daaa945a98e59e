import { articleStatsQuerySchema } from "~/models/stats-input";
import { languagesPerArticle } from "~/models/stats.server";
import { getOnly, queryLoader } from "~/utils/api.server";
import { statsAnswer } from "~/utils/stats-answer.server";

export const action = getOnly;

/** `GET /api/stats/languages-per-article?articleId=&days=10&format=json|csv`: one article's requests per language. */
export const loader = queryLoader("stats.read", articleStatsQuerySchema, async ({ input, user, context }) => {
  const series = await languagesPerArticle(context.db, user.museumId, input.articleId, input.days);
  return statsAnswer(series, input.format, `languages-article-${input.articleId}`);
});
