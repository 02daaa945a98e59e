import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { asDomainError, type ErrorReason } from "~/errors";
import { choosePasswordFormSchema } from "~/teams/member-input";
import { lookUpLink, type LinkKind } from "~/teams/invitations.server";
import type { Role } from "~/teams/roles";
import { fieldErrors, formString } from "./form";
import { clientAddress, methodNotAllowed, readFormBody } from "./http.server";
import { followLink, jsonLinkPost } from "./member-links.server";
import { answerItself, isApiCall } from "./own-answer.server";
import { refusePage } from "./page.server";
import { sessionCookie } from "./session.server";
import { flashToast } from "./toast.server";

export type LinkPageData =
  | { state: "valid"; museumName: string; timeZone: string; email: string; role: Role; languages: string[]; expiresAt: number }
  | { state: "invalid" | "expired" | "revoked" };

/** The state a link's page shows; an unusable link answers 404 (410 once expired or withdrawn). */
export async function linkPageLoader(kind: LinkKind, { request, context, params }: LoaderFunctionArgs) {
  let link;
  try {
    link = await lookUpLink(context.db, kind, params.token ?? "", { address: clientAddress(request), secret: context.config.SESSION_SECRET });
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) refusePage(domain);
    throw error;
  }
  if (link.state !== "valid") return data<LinkPageData>({ state: link.state }, { status: link.state === "invalid" ? 404 : 410 });
  const page: LinkPageData = {
    state: "valid",
    museumName: link.museumName,
    timeZone: link.timeZone,
    email: link.email,
    role: link.role,
    languages: link.languages,
    expiresAt: link.expiresAt,
  };
  return data(page);
}

export type LinkActionResult = { errors: Record<string, ErrorReason>; retryAfter?: number } | { state: "invalid" | "expired" | "revoked" };

/**
 * The page's form: the chosen password, twice. Success: a session, and the dashboard. A JSON body is the API's
 * call on the same path (docs/api.md), answered as JSON (decision 136).
 */
export async function linkPageAction(kind: LinkKind, { request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  if (isApiCall(request)) answerItself(context, await jsonLinkPost(request, context, kind, params.token ?? ""));
  const body = await readFormBody(request);
  if (!body.ok) return body.response;
  const parsed = choosePasswordFormSchema.safeParse({ password: formString(body.form, "password"), confirmPassword: formString(body.form, "confirmPassword") });
  if (!parsed.success) return data<LinkActionResult>({ errors: fieldErrors(parsed.error) }, { status: 400 });
  try {
    const session = await followLink(request, context, kind, params.token ?? "", parsed.data.password);
    const headers = new Headers({ "Set-Cookie": sessionCookie(request, session.token), "Cache-Control": "private, no-store" });
    headers.append("Set-Cookie", await flashToast("success", kind === "invitation" ? "team.link_page.joined" : "team.link_page.resetDone"));
    return redirect("/dashboard", { headers });
  } catch (caught) {
    const error = asDomainError(caught);
    if (!error) throw caught;
    if (error.code === "rate_limited") {
      return data<LinkActionResult>(
        { errors: { password: "too_many_attempts" }, retryAfter: error.retryAfter },
        { status: 429, headers: { "Retry-After": String(error.retryAfter ?? 60) } },
      );
    }
    if (error.code === "conflict") return data<LinkActionResult>({ errors: { email: "already_member" } }, { status: 409 });
    if (error.code === "not_found") {
      const state = error.reason === "link_expired" ? "expired" : error.reason === "link_revoked" ? "revoked" : "invalid";
      return data<LinkActionResult>({ state }, { status: state === "invalid" ? 404 : 410 });
    }
    throw error;
  }
}
