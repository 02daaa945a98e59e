import { actorOf } from "~/audit/log.server";
import { DomainError } from "~/errors";
import { importArticles, RowsRefused } from "~/import/import.server";
import { BODY_MAX_BYTES, IMAGES_MAX_BYTES } from "~/import/receive.server";
import { postOnly } from "~/utils/api.server";
import { jsonNoStore } from "~/utils/http.server";
import { multipartAction } from "~/utils/upload.server";

export const loader = postOnly;

const tooLarge = () => new DomainError("too_large", `The images hold at most ${IMAGES_MAX_BYTES / 1024 / 1024} MB per request`, "images", "too_long");

/**
 * `POST /api/manage/import_articles?dryRun=true|false` (multipart: `mapping`, `file`, then `images`):
 * `{rows, created, updated, skipped, failed, dryRun, applied, headers, mapping}`. Decisions 054–056.
 */
export const action = multipartAction("content.edit", { maxBytes: BODY_MAX_BYTES, tooLarge }, async ({ user, parts, request, context }) => {
  const flag = new URL(request.url).searchParams.get("dryRun") ?? "true";
  if (flag !== "true" && flag !== "false") throw new DomainError("invalid_input", "dryRun is true or false", "dryRun", "invalid");
  try {
    return await importArticles({ db: context.db, bucket: context.media }, user.museumId, actorOf(user), parts, flag === "true");
  } catch (error) {
    if (error instanceof RowsRefused) return jsonNoStore({ ...error.toBody(), ...error.answer }, { status: 400 });
    throw error;
  }
});
