import { discardDraft } from "~/publishing/publish.server";
import { discardDraftSchema } from "~/publishing/publishing-input";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/discard_draft {id}` (decision 041): the draft goes back to the published content. */
export const action = jsonAction("content.publish", discardDraftSchema, ({ input, user, context }) => discardDraft(context.db, user, input));
