import { inviteMemberSchema } from "~/teams/member-input";
import { inviteMember } from "~/teams/members.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/**
 * `POST /api/manage/invite_member {email, role, languages?}` → `{ id, invitationUrl, expiresAt }`. The URL
 * is given this once (only its hash is stored); 409 `email` when the address already has an account.
 */
export const action = jsonAction("museum.manage", inviteMemberSchema, ({ input, user, request, context }) =>
  inviteMember(context.db, context.directory, user, input, new URL(request.url).origin),
);
