import { actorOf } from "~/audit/log.server";
import { addQrCode } from "~/models/qrcodes.server";
import { addQrcodeSchema } from "~/models/qrcode-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/add_qrcode` (no payload, or `{}`): a new inactive code with a fresh short link. */
export const action = jsonAction(
  "content.edit",
  addQrcodeSchema,
  ({ user, context }) => addQrCode(context.db, context.directory, user.museumId, actorOf(user)),
  {
    emptyBody: true,
  },
);
