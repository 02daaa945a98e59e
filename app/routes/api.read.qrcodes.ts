import { listQrCodes } from "~/models/qrcodes.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/qrcodes`: every code of the museum, oldest first, as {id, link, id_article, name}. */
export const loader = readLoader("content.edit", ({ user, context }) => listQrCodes(context.db, user.museumId));
