import { removeMemberSchema } from "~/teams/member-input";
import { removeMember } from "~/teams/members.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/remove_member {userId}` → `{ id }`; their sessions end at once; 409 `userId` (last_admin) for the last admin. */
export const action = jsonAction("museum.manage", removeMemberSchema, ({ input, user, context }) =>
  removeMember(context.db, context.directory, user, input.userId),
);
