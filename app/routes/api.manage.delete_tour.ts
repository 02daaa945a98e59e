import { actorOf } from "~/audit/log.server";
import { deleteTourSchema } from "~/tours/tour-input";
import { deleteTour } from "~/tours/tours.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/delete_tour {id}`: the tour and its stops go for good; the articles stay. */
export const action = jsonAction("content.edit", deleteTourSchema, ({ input, user, context }) =>
  deleteTour(context.db, user.museumId, input.id, actorOf(user)),
);
