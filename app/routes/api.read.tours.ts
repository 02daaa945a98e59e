import { listTours } from "~/tours/tours.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/tours`: the museum's tours by name, with their stop counts, link and version. */
export const loader = readLoader("content.read", ({ user, context }) => listTours(context.db, user.museumId));
