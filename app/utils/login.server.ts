import type { AppLoadContext } from "@remix-run/cloudflare";
import { login } from "~/models/auth.server";
import { loginSchema } from "~/models/login-input";
import { apiError, clientAddress, invalidInput, isFormRequest, isJsonRequest, jsonNoStore, readJsonBody } from "./http.server";
import { sessionCookie } from "./session.server";

/**
 * `POST /login` with a JSON body is the spec's API call, answered before Remix renders any page; so is
 * one with a body that is neither JSON nor the page's form, which gets the API's JSON 415.
 */
export const isJsonLogin = (request: Request) =>
  request.method === "POST" && new URL(request.url).pathname === "/login" && (isJsonRequest(request) || !isFormRequest(request));

export type LoginOutcome =
  | { kind: "ok"; email: string; setCookie: string }
  | { kind: "refused"; response: Response };

/** Checks the credentials (rate-limited) and opens a session; a refusal comes as its JSON error. */
export async function attemptLogin(request: Request, context: AppLoadContext, input: unknown): Promise<LoginOutcome> {
  const parsed = loginSchema.safeParse(input);
  if (!parsed.success) return { kind: "refused", response: invalidInput(parsed.error) };
  const result = await login(context.db, {
    ...parsed.data,
    clientAddress: clientAddress(request),
    secret: context.config.SESSION_SECRET,
  });
  if (result.kind === "rate_limited") {
    return {
      kind: "refused",
      response: apiError(429, "rate_limited", "Too many failed logins, try again later", {
        headers: { "Retry-After": String(result.retryAfter) },
        retryAfter: result.retryAfter,
      }),
    };
  }
  if (result.kind === "invalid") return { kind: "refused", response: apiError(401, "unauthorized", "Wrong email or password") };
  return { kind: "ok", email: result.user.email, setCookie: sessionCookie(request, result.token) };
}

/** 200 `{ email }` with a fresh session cookie, also when the caller was already logged in. */
export async function jsonLogin(request: Request, context: AppLoadContext): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const outcome = await attemptLogin(request, context, body.value);
  if (outcome.kind === "refused") return outcome.response;
  return jsonNoStore({ email: outcome.email }, { headers: { "Set-Cookie": outcome.setCookie } });
}
