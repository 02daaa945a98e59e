import { actorOf } from "~/audit/log.server";
import { linkQrCode } from "~/models/qrcodes.server";
import { updateQrcodeSchema } from "~/models/qrcode-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/update_qrcode {articleId, qrcodeId}`: links a live article of the museum; `articleId: null` unlinks. */
export const action = jsonAction("content.edit", updateQrcodeSchema, ({ input, user, context }) => linkQrCode(context.db, user.museumId, input, actorOf(user)));
