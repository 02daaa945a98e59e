import { actorOf } from "~/audit/log.server";
import { updateTourSchema } from "~/tours/tour-input";
import { updateTour } from "~/tours/tours.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/update_tour {id, version, name?, description?, cover?, minutes?, articleIds?}`: stale version → 409. */
export const action = jsonAction("content.edit", updateTourSchema, ({ input, user, context }) => updateTour(context.db, user.museumId, input, actorOf(user)));
