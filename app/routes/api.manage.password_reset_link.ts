import { passwordResetLinkSchema } from "~/teams/member-input";
import { createPasswordResetLink } from "~/teams/members.server";
import { jsonAction, postOnly } from "~/utils/api.server";

export const loader = postOnly;

/** `POST /api/manage/password_reset_link {userId}` → `{ url, expiresAt }`: single use, one hour, shown this once. */
export const action = jsonAction("museum.manage", passwordResetLinkSchema, ({ input, user, request, context }) =>
  createPasswordResetLink(context.db, user, input.userId, new URL(request.url).origin),
);
