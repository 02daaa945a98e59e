import type { AppLoadContext } from "@remix-run/cloudflare";
import { isDomainError } from "~/errors";
import { choosePasswordSchema } from "~/teams/member-input";
import { acceptInvitation, resetPasswordWithLink, type LinkKind, type LinkSession } from "~/teams/invitations.server";
import { clientAddress, domainErrorResponse, isFormRequest, isJsonRequest, jsonNoStore, readJsonBody } from "./http.server";
import { sessionCookie } from "./session.server";
import { zodToDomainError } from "./zod-error";

const LINK_POST = /^\/(invite|reset)\/([^/]*)$/;

/** The link a path names: `/invite/{token}` or `/reset/{token}`. */
export function memberLinkFromPath(pathname: string): { kind: LinkKind; token: string } | null {
  const match = LINK_POST.exec(pathname);
  if (!match) return null;
  let token: string;
  try {
    token = decodeURIComponent(match[2]!);
  } catch {
    token = "";
  }
  return { kind: match[1] === "invite" ? "invitation" : "password_reset", token };
}

/**
 * `POST /invite/{token}` or `/reset/{token}` with a JSON body (or any body that is not the page's form) is
 * the API call, answered before Remix as the JSON login is (decision 004).
 */
export const isJsonLinkPost = (request: Request) =>
  request.method === "POST" && memberLinkFromPath(new URL(request.url).pathname) !== null && (isJsonRequest(request) || !isFormRequest(request));

/** Uses the link with the chosen password; a refusal is thrown as a DomainError. */
export function followLink(request: Request, context: AppLoadContext, kind: LinkKind, token: string, password: string): Promise<LinkSession> {
  const input = {
    password,
    userAgent: request.headers.get("User-Agent") ?? "",
    client: { address: clientAddress(request), secret: context.config.SESSION_SECRET },
  };
  return kind === "invitation" ? acceptInvitation(context.db, token, input) : resetPasswordWithLink(context.db, token, input);
}

/** 200 `{ user }` with the new session's cookie; 400 `password`, 404 `token` (with the link's state as reason), 409, 429. */
export async function jsonLinkPost(request: Request, context: AppLoadContext): Promise<Response> {
  const link = memberLinkFromPath(new URL(request.url).pathname)!;
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = choosePasswordSchema.safeParse(body.value);
  if (!parsed.success) return domainErrorResponse(zodToDomainError(parsed.error));
  try {
    const session = await followLink(request, context, link.kind, link.token, parsed.data.password);
    return jsonNoStore({ user: session.user }, { headers: { "Set-Cookie": sessionCookie(request, session.token) } });
  } catch (error) {
    if (isDomainError(error)) return domainErrorResponse(error);
    throw error;
  }
}
