import { tourQuerySchema } from "~/tours/tour-input";
import { getTour, tourAddress } from "~/tours/tours.server";
import { getOnly, queryLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/tour?id=`: the tour's fields, its printed `url` and its ordered stops. */
export const loader = queryLoader("content.read", tourQuerySchema, async ({ input, user, request, context }) => {
  const tour = await getTour(context.db, user.museumId, input.id);
  return { ...tour, url: tourAddress(context.config.PUBLIC_BASE_URL, request, tour.link) };
});
