import { qrcodeImage } from "~/models/qrcode-images.server";
import { getQrCode, publicAddress } from "~/models/qrcodes.server";
import { qrcodeImageQuerySchema } from "~/models/qrcode-input";
import { qrFileName } from "~/qrcode/looks";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/qrcode_image?qrcodeId=&format=png|svg&look=dark-on-light|light-on-dark`: the printable code, as a download named qrcode-{link}.{ext}. */
export const loader = queryLoader("content.edit", qrcodeImageQuerySchema, async ({ input, user, request, context }) => {
  const code = await getQrCode(context.db, user.museumId, input.qrcodeId);
  const address = publicAddress(context.config.PUBLIC_BASE_URL, request, code.link);
  const image = await qrcodeImage(context.kv, address, input.format, input.look);
  return new Response(image.body, {
    headers: {
      "Content-Type": image.contentType,
      "Content-Disposition": `attachment; filename="${qrFileName("qrcode", code.link, input.format, input.look)}"`,
      "Cache-Control": "private, max-age=3600",
    },
  });
});
