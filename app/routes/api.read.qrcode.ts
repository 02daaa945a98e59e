import { getQrCode, publicAddress } from "~/models/qrcodes.server";
import { qrcodeQuerySchema } from "~/models/qrcode-input";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/qrcode?qrcodeId=`: {id, link, id_article, name} and, beyond the spec, the printed `url`. */
export const loader = queryLoader("content.edit", qrcodeQuerySchema, async ({ input, user, request, context }) => {
  const code = await getQrCode(context.db, user.museumId, input.qrcodeId);
  return { ...code, url: publicAddress(context.config.PUBLIC_BASE_URL, request, code.link) };
});
