import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { MemberLinkPage, memberLinkMeta } from "~/components/team/member-link-page";
import { linkPageAction, linkPageLoader } from "~/utils/member-link-page.server";

export const meta: MetaFunction = ({ matches }) => memberLinkMeta(matches, "invite");

/** `/invite/{token}`: the invitee chooses a password and joins (decision 044); its action also answers the JSON use (decision 136). */
export const loader = (args: LoaderFunctionArgs) => linkPageLoader("invitation", args);
export const action = (args: ActionFunctionArgs) => linkPageAction("invitation", args);

export default function InvitePage() {
  return <MemberLinkPage kind="invitation" />;
}
