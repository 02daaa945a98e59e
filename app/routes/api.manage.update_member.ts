import { updateMemberSchema } from "~/teams/member-input";
import { updateMember } from "~/teams/members.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/update_member {userId, role, languages?}` → the member; 409 `role` (last_admin) for the last admin's demotion. */
export const action = jsonAction("museum.manage", updateMemberSchema, ({ input, user, context }) => updateMember(context.db, user, input));
