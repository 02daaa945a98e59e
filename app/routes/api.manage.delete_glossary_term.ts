import { actorOf } from "~/audit/log.server";
import { deleteGlossaryTerm } from "~/models/glossary.server";
import { deleteGlossaryTermSchema } from "~/models/glossary-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/delete_glossary_term { id }`: 404 for a missing id or another museum's. */
export const action = jsonAction("content.edit", deleteGlossaryTermSchema, ({ input, user, context }) =>
  deleteGlossaryTerm(context.db, user.museumId, input.id, actorOf(user)),
);
