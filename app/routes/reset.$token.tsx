import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { MemberLinkPage, memberLinkMeta } from "~/components/team/member-link-page";
import { linkPageAction, linkPageLoader } from "~/utils/member-link-page.server";

export const meta: MetaFunction = ({ matches }) => memberLinkMeta(matches, "reset");

/** `/reset/{token}`: a new password from a link an admin made; the user's other sessions end (decision 044). Its action also answers the JSON use (decision 136). */
export const loader = (args: LoaderFunctionArgs) => linkPageLoader("password_reset", args);
export const action = (args: ActionFunctionArgs) => linkPageAction("password_reset", args);

export default function ResetPage() {
  return <MemberLinkPage kind="password_reset" />;
}
