import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { actorOf } from "~/audit/log.server";
import { DomainError } from "~/errors";
import { importArticles, RowsRefused } from "~/import/import.server";
import { BODY_MAX_BYTES, IMAGES_MAX_BYTES } from "~/import/receive.server";
import { postOnly, run } from "~/utils/api.server";
import { jsonNoStore, mediaType, methodNotAllowed } from "~/utils/http.server";
import { malformed, MultipartReader, multipartBoundary } from "~/utils/multipart.server";
import { requireApiUser } from "~/utils/session.server";

export const loader = postOnly;

const tooLarge = () => new DomainError("too_large", `The images hold at most ${IMAGES_MAX_BYTES / 1024 / 1024} MB per request`, "images", "too_long");

/**
 * `POST /api/manage/import_articles?dryRun=true|false` (multipart: `mapping`, `file`, then `images`):
 * `{rows, created, updated, skipped, failed, dryRun, applied, headers, mapping}`. Decisions 054–056.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const user = await requireApiUser(request, context, "content.edit").catch(async (refusal: unknown) => {
    await request.body?.cancel().catch(() => undefined);
    throw refusal;
  });
  const answer = await run(async () => {
    const flag = new URL(request.url).searchParams.get("dryRun") ?? "true";
    if (flag !== "true" && flag !== "false") throw new DomainError("invalid_input", "dryRun is true or false", "dryRun", "invalid");
    if (mediaType(request) !== "multipart/form-data") throw new DomainError("unsupported_media_type", "Send the files as multipart/form-data");
    const boundary = multipartBoundary(request.headers.get("Content-Type"));
    if (!boundary) throw malformed("no valid boundary in Content-Type");
    const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > BODY_MAX_BYTES) throw tooLarge();
    if (!request.body) throw malformed("no body");
    const parts = new MultipartReader(request.body.getReader(), boundary, BODY_MAX_BYTES, tooLarge);
    try {
      return await importArticles({ db: context.db, bucket: context.media }, user.museumId, actorOf(user), parts, flag === "true");
    } catch (error) {
      if (error instanceof RowsRefused) return jsonNoStore({ ...error.toBody(), ...error.answer }, { status: 400 });
      throw error;
    } finally {
      await parts.cancel();
    }
  });
  // Refused before the body was read (a declared length, a bad type): let it go rather than leave it to workerd.
  if (request.body && !request.body.locked) await request.body.cancel().catch(() => undefined);
  return answer;
}
