import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { actorOf } from "~/audit/log.server";
import { DomainError } from "~/errors";
import { NARRATION_MAX_BYTES, narrationTooLarge, receiveNarrationUpload } from "~/narration/staff.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { run } from "~/utils/api.server";
import { mediaType, methodNotAllowed } from "~/utils/http.server";
import { malformed, MultipartReader, multipartBoundary } from "~/utils/multipart.server";
import { requireApiUser } from "~/utils/session.server";

export const loader = () => methodNotAllowed("POST");

const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * `POST /api/upload/narration` (multipart: `narration`, `articleId`, `lang`, optional `durationMs`): a
 * recorded narration (MP3, AAC/M4A, Ogg Opus/Vorbis; ≤ 50 MB, streamed to R2) that replaces any other
 * narration of that language. `translations.review` in that language (translators: theirs only).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  let user;
  try {
    user = await requireApiUser(request, context, "translations.review");
  } catch (refusal) {
    await request.body?.cancel().catch(() => undefined);
    throw refusal;
  }
  return run(async () => {
    if (mediaType(request) !== "multipart/form-data") throw new DomainError("unsupported_media_type", "Send the file as multipart/form-data");
    const boundary = multipartBoundary(request.headers.get("Content-Type") ?? "");
    if (!boundary) throw malformed("no valid boundary in Content-Type");
    const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > NARRATION_MAX_BYTES + MULTIPART_OVERHEAD) throw narrationTooLarge();
    if (!request.body) throw malformed("no body");
    const parts = new MultipartReader(request.body.getReader(), boundary, NARRATION_MAX_BYTES + MULTIPART_OVERHEAD, narrationTooLarge);
    return receiveNarrationUpload(context.db, context.media, user.museumId, parts, actorOf(user), (lang) => assertCanReviewLanguage(user, lang));
  });
}
