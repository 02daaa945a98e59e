import { canReviewLanguage } from "~/teams/roles";
import { resolveReportSchema } from "~/models/translation-input";
import { resolveReport } from "~/models/translation-review.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/resolve_report {reportId}`: a visitor's report is handled. */
export const action = jsonAction("translations.review", resolveReportSchema, ({ input, user, context }) =>
  resolveReport(context.db, user.museumId, input.reportId, (lang) => canReviewLanguage(user, lang)),
);
