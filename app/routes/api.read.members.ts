import { listMembers } from "~/teams/members.server";
import { getOnly, readLoader } from "~/utils/api.server";

export const action = getOnly;

/** `GET /api/read/members`: `{ members: [...], invitations: [...] }` of the admin's museum (pending invitations only). */
export const loader = readLoader("museum.manage", ({ user, context }) => listMembers(context.db, user.museumId));
