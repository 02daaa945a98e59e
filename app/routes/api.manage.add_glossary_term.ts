import { actorOf } from "~/audit/log.server";
import { addGlossaryTerm } from "~/models/glossary.server";
import { addGlossaryTermSchema } from "~/models/glossary-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/add_glossary_term { term, lang?, translation? }`: 409 `{field: "term"}` on a duplicate. */
export const action = jsonAction("content.edit", addGlossaryTermSchema, ({ input, user, context }) =>
  addGlossaryTerm(context.db, user.museumId, input, actorOf(user)),
);
