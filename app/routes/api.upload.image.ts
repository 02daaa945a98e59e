import { postOnly } from "~/utils/api.server";
import { uploadAction } from "~/utils/upload.server";

export const loader = postOnly;

/** `POST /api/upload/image` (multipart: `image`, optional `articleId`): `{ mediaUrl, videoId: null }`. */
export const action = uploadAction("image");
