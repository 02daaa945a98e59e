import type { AppLoadContext } from "@remix-run/cloudflare";
import { asDomainError } from "~/errors";
import { choosePasswordSchema } from "~/teams/member-input";
import { acceptInvitation, resetPasswordWithLink, type LinkKind, type LinkSession } from "~/teams/invitations.server";
import { clientAddress, domainErrorResponse, jsonNoStore, readJsonBody } from "./http.server";
import { sessionCookie } from "./session.server";
import { zodToDomainError } from "./zod-error";

/** Uses the link with the chosen password; a refusal is thrown as a DomainError. */
export function followLink(request: Request, context: AppLoadContext, kind: LinkKind, token: string, password: string): Promise<LinkSession> {
  const input = {
    password,
    userAgent: request.headers.get("User-Agent") ?? "",
    client: { address: clientAddress(request), secret: context.config.SESSION_SECRET },
  };
  return kind === "invitation" ? acceptInvitation(context.db, context.directory, token, input) : resetPasswordWithLink(context.db, token, input);
}

/**
 * The JSON use of `/invite/{token}` or `/reset/{token}` (or a body that is not the page's form: the API's JSON 415),
 * which the link page's action answers itself (decisions 044, 136): 200 `{ user }` with the new session's cookie;
 * 400 `password`, 404 `token` (with the link's state as reason), 409, 429.
 */
export async function jsonLinkPost(request: Request, context: AppLoadContext, kind: LinkKind, token: string): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = choosePasswordSchema.safeParse(body.value);
  if (!parsed.success) return domainErrorResponse(zodToDomainError(parsed.error));
  try {
    const session = await followLink(request, context, kind, token, parsed.data.password);
    return jsonNoStore({ user: session.user }, { headers: { "Set-Cookie": sessionCookie(request, session.token) } });
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return domainErrorResponse(domain);
    throw error;
  }
}
