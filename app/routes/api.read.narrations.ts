import { z } from "zod";
import { articleIdSchema } from "~/models/tree-input";
import { langSchema } from "~/models/translation-input";
import { monthlyCharsFrom, readBudget } from "~/narration/budget.server";
import { listNarrations } from "~/narration/staff.server";
import { assertCanReviewLanguage, canReviewLanguage } from "~/teams/roles";
import { getOnly, queryLoader } from "~/utils/api.server";
import { narrationDeps } from "~/utils/narration.server";

export const action = getOnly;

const schema = z.object({ articleId: articleIdSchema, lang: langSchema.optional() });

/**
 * `GET /api/read/narrations?articleId=[&lang=]`: the article's narrations (every language, or one), the
 * generations under way or recently failed, which engine speaks each language (null: none), and the
 * museum's generated characters this month against its bound (decision 105).
 */
export const loader = queryLoader("translations.review", schema, async ({ input, user, context }) => {
  if (input.lang) assertCanReviewLanguage(user, input.lang);
  const deps = narrationDeps(context);
  const state = await listNarrations(deps, user.museumId, input.articleId, input.lang ?? null);
  const budget = await readBudget(context.db, user.museumId, deps.monthlyChars ?? monthlyCharsFrom({}));
  // A translator sees the languages they work in only (decision 040).
  const mine = (lang: string) => canReviewLanguage(user, lang);
  return {
    narrations: state.narrations.filter((n) => mine(n.lang)),
    pending: state.pending.filter((p) => mine(p.lang)),
    speaks: Object.fromEntries(Object.entries(state.speaks).filter(([lang]) => mine(lang))),
    budget,
  };
});
