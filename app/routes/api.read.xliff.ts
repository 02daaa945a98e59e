import { assertCanReviewLanguage } from "~/teams/roles";
import { getOnly, queryLoader } from "~/utils/api.server";
import { exportXliff, xliffDownload } from "~/xliff/export.server";
import { xliffExportSchema } from "~/xliff/input";
import type { ExportScope } from "~/xliff/units.server";

export const action = getOnly;

/**
 * `GET /api/read/xliff?articleId=|folderId=&lang=&version=2.0|1.2`: an XLIFF file (a download) of one
 * article, a folder with everything below it, or the whole museum, for translators (decision 058).
 */
export const loader = queryLoader("translations.review", xliffExportSchema, async ({ input, user, context }) => {
  assertCanReviewLanguage(user, input.lang);
  const scope: ExportScope =
    input.articleId !== undefined ? { articleId: input.articleId } : input.folderId !== undefined ? { folderId: input.folderId } : { museum: true };
  const file = await exportXliff(context.db, context.media, user.museumId, { scope, lang: input.lang, version: input.version });
  return xliffDownload(file, input.version);
});
