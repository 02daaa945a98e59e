import { postOnly } from "~/utils/api.server";
import { uploadAction } from "~/utils/upload.server";

export const loader = postOnly;

/** `POST /api/upload/video` (multipart: `video`, `videoId`, `articleId`): MP4 or WebM up to 95 MB, streamed to R2. */
export const action = uploadAction("video");
