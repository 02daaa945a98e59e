import { revokeInvitationSchema } from "~/teams/member-input";
import { revokeInvitation } from "~/teams/members.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/revoke_invitation {id}` → `{ id }`; 404 for another museum's, a used or a revoked invitation. */
export const action = jsonAction("museum.manage", revokeInvitationSchema, ({ input, user, context }) => revokeInvitation(context.db, user, input.id));
