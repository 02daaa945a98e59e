import { actorOf } from "~/audit/log.server";
import { addTourSchema } from "~/tours/tour-input";
import { addTour } from "~/tours/tours.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/add_tour {name, folderId?, pathArray?}`: a new tour; with a folder, its live articles become the stops. */
export const action = jsonAction("content.edit", addTourSchema, ({ input, user, context }) =>
  addTour(context.db, context.directory, user.museumId, input, actorOf(user)),
);
