import { postOnly } from "~/utils/api.server";
import { uploadAction } from "~/utils/upload.server";

export const loader = postOnly;

/** `POST /api/upload/subtitles` (multipart: `subtitles`, `videoId`, `articleId`): WebVTT up to 1 MB. */
export const action = uploadAction("subtitles");
