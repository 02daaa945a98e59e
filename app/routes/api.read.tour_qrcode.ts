import { qrcodeImage } from "~/models/qrcode-images.server";
import { tourQrQuerySchema } from "~/tours/tour-input";
import { getTour, tourAddress } from "~/tours/tours.server";
import { qrFileName } from "~/qrcode/looks";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/tour_qrcode?id=&format=png|svg&look=dark-on-light|light-on-dark`: the tour's printable code (`/t/{link}`), named tour-{link}.{ext}. */
export const loader = queryLoader("content.read", tourQrQuerySchema, async ({ input, user, request, context }) => {
  const tour = await getTour(context.db, user.museumId, input.id);
  const image = await qrcodeImage(context.kv, tourAddress(context.config.PUBLIC_BASE_URL, request, tour.link), input.format, input.look);
  return new Response(image.body, {
    headers: {
      "Content-Type": image.contentType,
      "Content-Disposition": `attachment; filename="${qrFileName("tour", tour.link, input.format, input.look)}"`,
      "Cache-Control": "private, max-age=3600",
    },
  });
});
