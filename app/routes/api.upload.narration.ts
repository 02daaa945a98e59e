import { actorOf } from "~/audit/log.server";
import { NARRATION_MAX_BYTES, narrationTooLarge, receiveNarrationUpload } from "~/narration/staff.server";
import { assertCanReviewLanguage } from "~/teams/roles";
import { postOnly } from "~/utils/api.server";
import { MULTIPART_OVERHEAD, multipartAction } from "~/utils/upload.server";

export const loader = postOnly;

/**
 * `POST /api/upload/narration` (multipart: `narration`, `articleId`, `lang`, optional `durationMs`): a
 * recorded narration (WebM/Opus, WAV, FLAC, MP3, AAC/M4A, Ogg Opus/Vorbis; ≤ 50 MB, streamed to R2, its
 * duration read from the file as it passes, decision 119) that replaces any other narration of that language. `translations.review` in that language (translators: theirs only).
 */
export const action = multipartAction(
  "translations.review",
  { maxBytes: NARRATION_MAX_BYTES + MULTIPART_OVERHEAD, tooLarge: narrationTooLarge },
  ({ user, parts, context }) =>
    receiveNarrationUpload(context.db, context.media, user.museumId, parts, actorOf(user), (lang) => assertCanReviewLanguage(user, lang)),
);
