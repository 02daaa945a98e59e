import type { AppLoadContext } from "@remix-run/cloudflare";
import { DomainError, asDomainError } from "~/errors";
import { login } from "~/models/auth.server";
import { loginSchema } from "~/models/login-input";
import { clientAddress, domainErrorResponse, jsonNoStore, readJsonBody } from "./http.server";
import { sessionCookie } from "./session.server";
import { zodToDomainError } from "./zod-error";

/**
 * Checks the credentials (rate-limited) and opens a session. A refusal is thrown as a DomainError (400
 * naming the field, 401, or 429 with its retry delay), for the JSON call and the page's form alike.
 */
export async function attemptLogin(request: Request, context: AppLoadContext, input: unknown): Promise<{ email: string; setCookie: string }> {
  const parsed = loginSchema.safeParse(input);
  if (!parsed.success) throw zodToDomainError(parsed.error);
  const result = await login(context, {
    ...parsed.data,
    clientAddress: clientAddress(request),
    secret: context.config.SESSION_SECRET,
    userAgent: request.headers.get("User-Agent") ?? "",
  });
  if (result.kind === "rate_limited") {
    throw new DomainError("rate_limited", "Too many failed logins, try again later").withRetryAfter(result.retryAfter);
  }
  if (result.kind === "invalid") throw new DomainError("unauthorized", "Wrong email or password");
  return { email: result.user.email, setCookie: sessionCookie(request, result.token) };
}

/**
 * The spec's JSON `POST /login` (or a body that is neither JSON nor the page's form: the API's JSON 415), which
 * the login page's action answers itself (decision 136): 200 `{ email }` with a fresh session cookie, also when
 * the caller was already logged in.
 */
export async function jsonLogin(request: Request, context: AppLoadContext): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  let outcome;
  try {
    outcome = await attemptLogin(request, context, body.value);
  } catch (error) {
    const domain = asDomainError(error);
    if (domain) return domainErrorResponse(domain);
    throw error;
  }
  return jsonNoStore({ email: outcome.email }, { headers: { "Set-Cookie": outcome.setCookie } });
}
