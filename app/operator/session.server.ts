// The operator's cookie (decision 146): its own name, SameSite=Strict. A museum member's session never passes as an
// operator's (another cookie, another table, another database), and the reverse. Path=/, not /operator: Remix's
// client navigations fetch `/operator.data`, which a cookie scoped to /operator is not sent with.
import type { AppLoadContext } from "@remix-run/cloudflare";
import { notFound } from "~/errors";
import { readCookie } from "~/lib/cookies";
import { isLocalHost } from "~/utils/http.server";
import { refusePage } from "~/utils/page.server";
import { findOperator, OPERATOR_SESSION_TTL_MS, type Operator } from "./accounts.server";

export const OPERATOR_COOKIE = "muselingo_operator";

function attributes(request: Request): string {
  const secure = isLocalHost(new URL(request.url)) ? "" : "; Secure";
  return `Path=/; HttpOnly; SameSite=Strict${secure}`;
}

export function operatorCookie(request: Request, token: string): string {
  return `${OPERATOR_COOKIE}=${token}; ${attributes(request)}; Max-Age=${OPERATOR_SESSION_TTL_MS / 1000}`;
}

export function clearOperatorCookie(request: Request): string {
  return `${OPERATOR_COOKIE}=; ${attributes(request)}; Max-Age=0`;
}

const cache = new WeakMap<Request, Promise<Operator | null>>();

export function getOperator(request: Request, context: AppLoadContext): Promise<Operator | null> {
  let pending = cache.get(request);
  if (!pending) {
    const token = readCookie(request.headers.get("Cookie"), OPERATOR_COOKIE);
    pending = token && /^[A-Za-z0-9_-]{20,100}$/.test(token) ? findOperator(context.directory, token) : Promise.resolve(null);
    cache.set(request, pending);
  }
  return pending;
}

/** Every console page and call but sign-in and setup: 404 without an operator's session, as if it did not exist. */
export async function requireOperator(request: Request, context: AppLoadContext): Promise<Operator> {
  const operator = await getOperator(request, context);
  if (!operator) refusePage(notFound("Page"));
  return operator;
}
